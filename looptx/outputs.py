"""Output paths that would destroy what the command reads.

The contract says nothing the user ran is lost: a `-o`, `--db`, `--csv`, ... that names one of
the command's own inputs (its C file, its recipe, its results database) is refused before
anything is written, whatever spelling, symlink or hard link leads there."""
from __future__ import annotations

import os
import re

from looptx.errors import LooptxError


def same_file(a: str, b: str) -> bool:
    """One file under two paths.  `samefile` sees hard links; a path that does not exist yet
    (the best file a search will write) can only be compared by its resolved name."""
    try:
        if os.path.exists(a) and os.path.exists(b):
            return os.path.samefile(a, b)
    except OSError:
        pass
    return os.path.normcase(os.path.realpath(a)) == os.path.normcase(os.path.realpath(b))


def refuse_overwrite(option: str, out: str | None, inputs, hint: str = "give another path") -> None:
    """`inputs`: (path, what it is to the user: 'the input file', 'the recipe', ...).
    Raises the one-line error located at the input that would be lost."""
    if not out or out == "-":
        return
    for path, what in inputs:
        if path and same_file(out, path):
            raise LooptxError(f"{option} {out} is {what}: writing it would overwrite it",
                              hint=hint, file=path)


_RECIPE_CALL = re.compile(r"""\brecipe\s*\(\s*["']([^"'\n]+)["']""")
_QUOTED_INCLUDE = re.compile(r"""^\s*#\s*include\s*"([^"\n]+)\"""", re.M)


def files_read_by(path: str, include_dirs=()) -> list[tuple[str, str]]:
    """What a C file brings in besides itself: an annotation's recipe("r.yaml") and its quoted
    #include headers, found where the command finds them (a guess errs on the side of
    refusing: these are the user's files)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return []
    here = os.path.dirname(os.path.abspath(path))
    out = [(os.path.join(here, m.group(1)), "the recipe the annotation names")
           for m in _RECIPE_CALL.finditer(text)]
    for m in _QUOTED_INCLUDE.finditer(text):
        for d in (here, *include_dirs):
            candidate = os.path.join(d, m.group(1))
            if os.path.isfile(candidate):
                out.append((candidate, f"a header {os.path.basename(path)} includes"))
                break
    return out


def refuse_search_db(db: str, path: str, backend: str, recipe: str | None, spec: str | None) -> None:
    """`search --db` must not name the input, its recipe or spec, nor the best file the search
    writes at its end, over the database that holds every measured point."""
    best = os.path.splitext(path)[0] + (".best.cu" if backend == "cuda" else ".best.c")
    if same_file(db, best):
        raise LooptxError(f"--db {db} is the file the search writes its best variant to: writing "
                          "that would overwrite the results", file=db,
                          hint=f"give --db another path, e.g. the default "
                               f"{os.path.splitext(path)[0]}.looptx.db")
    inputs = [(path, "the input file"), (spec, "the spec file")]
    if recipe:
        from looptx.recipe.schema import find_recipe
        try:
            inputs.append((find_recipe(recipe, os.path.dirname(os.path.abspath(path))), "the recipe"))
        except LooptxError:
            pass                    # the search reports a recipe it cannot find
    refuse_overwrite("--db", db, inputs + files_read_by(path),
                     hint="give --db another path, e.g. the default "
                          f"{os.path.splitext(path)[0]}.looptx.db")


def cannot_create(path: str) -> str | None:
    """Why the system refuses to create or append to `path` (a name too long, /proc, a
    read-only mount), which the folder's own checks do not see; None where it can."""
    existed = os.path.exists(path)
    try:
        with open(path, "a"):
            pass
    except OSError as e:
        return e.strerror or str(e)
    if not existed:
        os.remove(path)
    return None

