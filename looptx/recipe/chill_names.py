"""The loop names a CHiLL or CUDA-CHiLL script gives as it goes (tile_by_index's l1_tile,
cudaize's bx/tx, rename_index), read back as the model's names."""
from __future__ import annotations

from looptx.errors import note_once


def aliased(value, aliases: dict[str, str]):
    """Loop names renamed by CUDA-CHiLL (a tile loop named with l1_tile, bx/tx after cudaize)
    as the model names them.  A string dict value is a new name (l1_control="ii") and stays;
    list values are references (Lua cudaize's {block={..}, thread={..}})."""
    if not aliases:
        return value
    if isinstance(value, str):
        return aliases.get(value, value)
    if isinstance(value, list):
        return [aliased(v, aliases) for v in value]
    if isinstance(value, dict):
        return {aliases.get(k, k) if isinstance(k, str) else k:
                aliased(v, aliases) if isinstance(v, list) else v for k, v in value.items()}
    return value


def rename_loops(name: str, args: list, converted, aliases: dict[str, str], created: set[str]) -> None:
    """The loop names a command gives, as CUDA-CHiLL does: tile_by_index's `l<k>_tile` renames
    the tile loop, and cudaize renames its block loops bx, by and thread loops tx, ty, tz
    (except where the script made a loop of that name itself, which keeps its meaning)."""
    for step_name, step_args in converted:
        if step_name == "tile" and step_args.get("control"):
            created.add(step_args["control"])
    if name == "tile_by_index":
        names = next((x for x in args if isinstance(x, dict)), {})
        loops = next((x for x in args if isinstance(x, list)), [])
        for k, loop in enumerate(loops):
            new = names.get(f"l{k + 1}_tile")
            if isinstance(new, str) and isinstance(loop, str) and new != loop:
                aliases[new] = loop
                created.add(new)
    if name in ("cudaize", "cuda"):
        for step_name, step_args in converted:
            for role, short in (("block", ("bx", "by")), ("thread", ("tx", "ty", "tz"))):
                for alias, loop in zip(short, step_args.get(role) or []):
                    if loop != "1" and (alias not in created or alias == loop):
                        aliases[alias] = loop


def rename_index(ln, args: list, aliases: dict[str, str], created: set[str]) -> None:
    """CHiLL's rename_index(stmt, "old", "new"): later commands name the loop `new`, as
    CUDA-CHiLL's l1_tile names are read; the printed iterator keeps its model name."""
    if len(args) != 3 or not all(isinstance(a, str) and a.isidentifier() for a in args[1:]):
        raise ln.error("rename_index takes (statement, old loop name, new loop name)",
                       hint='write rename_index(0,"i","row")')
    old, new = args[1], args[2]
    if new in aliases or new in created:
        raise ln.error(f"rename_index: the name '{new}' is already a loop's", hint="pick another name")
    aliases[new] = aliases.get(old, old)
    created.add(new)
    note_once(ln.file, ln.line, f"rename_index: later commands name loop '{old}' as '{new}'; the "
                                f"output keeps '{old}'", per_line=True)
