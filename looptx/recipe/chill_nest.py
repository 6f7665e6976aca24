"""CHiLL's commands that address a whole nest rather than one statement's loops: the
one-argument `permute(pi)` on a nest whose statements sit at different depths, and a
`distribute` of statements that already sit in separate copies of the loop (CHiLL's
fuseexample2 and fuse_distribute examples: a no-op there)."""
from __future__ import annotations

from looptx.errors import LooptxError, RecipeError, note_once
from looptx.frontend.names import to_user
from looptx.poly import schedule as S
from looptx.poly.variant import Variant
from looptx.recipe.schema import Step


def _is_level(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _note(st: Step, text: str) -> None:
    note_once(st.file or "recipe", st.line or 1, f"step {st.index} ({st.shown_name}): {text}")


def permute_step(v: Variant, st: Step) -> Variant:
    order = list(st["order"])
    if not st.get("whole") or not order or not all(_is_level(x) for x in order):
        return S.permute(v, st["stmt"], order)
    anchor = st["stmt"]
    if order == list(range(1, len(order) + 1)):
        # CHiLL's permute6 test: "should be unchanged!", whatever the statements' depths
        _note(st, "permute([" + ",".join(map(str, order)) + "]) keeps every loop at its level: nothing to do")
        return v
    first = anchor
    for _ in range(st.get("nests") or 1):
        if first >= len(v.scop.statements) or not S.loop_names(v, first):
            break
        nest = sorted({v.pieces[k].stmt for k, _ in S.sharing(v, first, 1)})
        depth = {s: len(S.loop_names(v, s)) for s in nest}
        target = max(nest, key=lambda s: (depth[s], -s))
        try:
            v = S.permute(v, target, order)
        except RecipeError as e:
            if not e.what.startswith("permute would split loop"):
                raise
            raise _whole_nest_refusal(v, order, anchor, nest, depth) from None
        first = max(nest) + 1
    return v


def _whole_nest_refusal(v: Variant, order: list, anchor: int, nest: list[int], depth: dict) -> RecipeError:
    """The statements of the nest that lack a permuted level: CHiLL runs such a statement inside
    the first iteration of the loop moved outside it, and looptx moves no statement into another
    loop; the permutation applies to the deeper statements once they have a nest of their own."""
    need = max(order)
    shallow = [s for s in nest if depth[s] < need]
    deep = [s for s in nest if depth[s] >= need]
    own = lambda ss: "[" + ",".join(str(s - anchor) for s in ss) + "]"   # the script's numbers
    written = "[" + ",".join(map(str, order)) + "]"
    if not shallow:
        # every statement has the levels, but not in one loop each: CHiLL's permute orders them
        # all by the new outer level, which fuses their loops
        return RecipeError(f"permute({written}) applies to every statement of the nest, and statements "
                           f"{', '.join(str(s - anchor) for s in nest)} do not share their loops down to level "
                           f"{need}: CHiLL would merge those loops, which looptx's permute does not do",
                           hint=f"fuse them first, fuse({own(nest)},{need}), then permute({written})")
    s0 = shallow[0]
    names = ", ".join(to_user(n) for n in S.loop_names(v, s0))
    what = (f"permute({written}) applies to every statement of the nest, and statement {s0 - anchor} is "
            f"inside levels 1..{depth[s0]} only ({names}): CHiLL would run it inside one iteration of "
            f"the loop it moves outside it, which looptx does not do")
    apart = nest if len(deep) == 1 else shallow
    try:
        S.permute(S.distribute(v, apart, 1), deep[0], order)
    except LooptxError:
        return RecipeError(what, hint=f"distribute the nest first, so that statement{'s' * (len(deep) > 1)} "
                                      f"{own(deep)[1:-1]} {'have' if len(deep) > 1 else 'has'} loops of "
                                      f"{'their' if len(deep) > 1 else 'its'} own, then permute "
                                      f"{'them' if len(deep) > 1 else 'it'} alone")
    return RecipeError(what, hint=f"distribute the nest first and permute the deeper statement"
                                  f"{'s' * (len(deep) > 1)} alone: distribute({own(apart)},1) then "
                                  f"permute({own(deep)},{written})")


def distribute_apart(v: Variant, st: Step, stmts: list[int]) -> Variant | None:
    """None where the statements share the loop; else `v` with each set of them that shares a
    copy of it distributed, and the others left as they are (CHiLL accepts distributing
    statements that already have a copy each, and changes nothing for them)."""
    loop = st["loop"]
    # statements share a copy of the loop where the pieces inside their loops meet: a peeled
    # statement's loop holds its peeled copy too, which the other statements' loop does not
    # (probe 220 G3: after a peel and a fuse, the two were said to be apart)
    clusters: list[tuple[set, list[int]]] = []
    for s in sorted(set(stmts)):
        key = {k for k, _ in S.sharing(v, s, S.resolve_name(v, s, loop))}
        meets = [c for c in clusters if c[0] & key]
        clusters = [c for c in clusters if not c[0] & key]
        clusters.append((key.union(*(c[0] for c in meets)), sorted(sum((c[1] for c in meets), [s]))))
    if len(clusters) < 2:
        return None
    parts = sorted((c[1] for c in clusters), key=lambda p: p[0])
    shown = lambda ss: ", ".join(f"S{s}" for s in ss)
    where = f"level {loop}" if _is_level(loop) else f"'{to_user(loop)}'"
    together = [p for p in parts if len(p) > 1]
    _note(st, f"{shown(sorted(set(stmts)))} are already in separate loops at {where}"
              + (f"; only {' and '.join(f'{{{shown(p)}}}' for p in together)} "
                 f"{'are' if len(together) > 1 else 'is'} distributed" if together else ": nothing to do"))
    for p in together:
        v = S.distribute(v, p, loop)
    return v
