"""Where a split condition cuts its loop: CHiLL's `split(stmt, level, "L2 < 5")` takes one
affine inequality over the loop levels (`L1 + L2 < 5`, `2*L2 < n`) and the sizes, or an
equality, which it splits into its two inequalities (`L2 == 3`: cuts at 3 and 4)."""
from __future__ import annotations

import ast
import re

from looptx.errors import note_once
from looptx.frontend.names import to_user
from looptx.poly import schedule as S

_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "=="}


def _linear(text: str) -> dict | None:
    """name -> integer coefficient (the constant under 1) of an affine expression; None if it
    is not one (a product of two names, a division)."""
    try:
        tree = ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, RecursionError, MemoryError):
        return None

    def add(a, b, sign=1):
        out = dict(a)
        for k, c in b.items():
            out[k] = out.get(k, 0) + sign * c
        return out

    def go(n):
        if isinstance(n, ast.Constant) and isinstance(n.value, int) and not isinstance(n.value, bool):
            return {1: n.value}
        if isinstance(n, ast.Name):
            return {n.id: 1}
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, (ast.USub, ast.UAdd)):
            x = go(n.operand)
            return None if x is None else {k: -c if isinstance(n.op, ast.USub) else c for k, c in x.items()}
        if isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Add, ast.Sub, ast.Mult)):
            a, b = go(n.left), go(n.right)
            if a is None or b is None:
                return None
            if isinstance(n.op, ast.Mult):
                k = a if set(a) <= {1} else b if set(b) <= {1} else None
                if k is None:
                    return None
                other = b if k is a else a
                return {x: c * k.get(1, 0) for x, c in other.items()}
            return add(a, b, 1 if isinstance(n.op, ast.Add) else -1)
        return None
    return go(tree)


def _text(terms: dict) -> str:
    """An affine expression of name -> coefficient, signs between its terms (`5 - i - 2*m`)."""
    out = str(terms.get(1, 0))
    for x, c in sorted((x, c) for x, c in terms.items() if x != 1 and c):
        out += f" {'+' if c > 0 else '-'} {f'{abs(c)}*' if abs(c) != 1 else ''}{x}"
    return out


def split_cuts(v, st, split_loop: str, at) -> list:
    """The values where a split condition cuts the loop (the iterations below a cut run
    first); a plain expression is the cut itself."""
    if not isinstance(at, str) or not re.search(r"[<>]|==", at):
        return [at]
    names = S.loop_names(v, st["stmt"])
    taken = set(names) | set(v.scop.params)

    def level(m):
        k = int(m.group(1))
        if m.group(0) in taken:
            return m.group(0)
        if not 1 <= k <= len(names):
            raise st.error(f"'{m.group(0)}' in the condition '{at}' is no loop level of statement {st['stmt']}",
                           hint=f"its levels: {', '.join(f'L{j + 1} = {to_user(n)}' for j, n in enumerate(names))}")
        d = next((d for d in v.pieces[S.sharing(v, st["stmt"], names[k - 1])[0][0]].loops
                  if d.name == names[k - 1]), None)
        if d is not None and d.counted:
            # CHiLL's strided tiles (its tile's default) count tile starts
            note_once(st.file or "recipe", st.line or 1,
                      f"step {st.index} ({st.shown_name}): {m.group(0)} is the control loop "
                      f"'{to_user(names[k - 1])}' of a tile by {d.counted[3]}, which counts tiles (0, 1, 2, ...), "
                      f"as CHiLL's counted tiles do; CHiLL's strided ones (its tile's default) count tile starts "
                      f"(0, {d.counted[3]}, {2 * d.counted[3]}, ...): for those, write "
                      f"{d.counted[3]}*{m.group(0)}", per_line=True)
        if d is not None and d.reversed:
            note_once(st.file or "recipe", st.line or 1,
                      f"step {st.index} ({st.shown_name}): {m.group(0)} is loop '{to_user(names[k - 1])}', "
                      f"reversed: looptx reads it as the loop's own counter, where CHiLL reads the reversed "
                      f"level's value (-{to_user(names[k - 1])})", per_line=True)
        return to_user(names[k - 1])
    cond = re.sub(r"\bL(\d+)\b", level, at)
    x = to_user(split_loop)
    me = rf"(?:{re.escape(x)}|{re.escape(split_loop)})"
    m = re.fullmatch(r"\s*(.+?)\s*(==|<=|<|>=|>)\s*(.+?)\s*", cond)
    if not m or re.search(r"[<>]|==", m.group(1) + m.group(3)):
        raise st.error(f"the condition '{at}' is not one comparison of loop '{x}'", hint=f"write it as '{x} < EXPR'")
    lhs, op, rhs = m.groups()
    if op != "==" and re.fullmatch(rf"\s*{me}\s*", lhs) and not re.search(rf"\b{me}\b", rhs):
        return [rhs if op in ("<", ">=") else f"({rhs}) + 1"]
    if op != "==" and re.fullmatch(rf"\s*{me}\s*", rhs) and not re.search(rf"\b{me}\b", lhs):
        op = _FLIP[op]
        return [lhs if op in ("<", ">=") else f"({lhs}) + 1"]
    left, right = _linear(lhs), _linear(rhs)
    f = None if left is None or right is None else {k: left.get(k, 0) - right.get(k, 0) for k in set(left) | set(right)}
    a = 0 if f is None else f.pop(x, 0) + f.pop(split_loop, 0) * (split_loop != x)
    if not a:
        raise st.error(f"the condition '{at}' does not compare loop '{x}' with an affine expression of the "
                       "sizes and the loops outside it",
                       hint=f"write it as '{x} < EXPR' (the iterations below EXPR run first)")
    return cuts_of(a, f, op)


def cuts_of(a: int, r: dict, op: str) -> list[str]:
    """The cuts of `a*x + r OP 0` (a != 0), as affine text over r's names."""
    # made a*x + r < 0 (integers: x <= e is x < e + 1)
    if op in (">", ">=") or op == "==" and a < 0:
        a, r = -a, {k: -c for k, c in r.items()}
    if op == "==":
        # x where a*x + r < 0 ends, and where a*x + r <= 0 does
        return [_cut(a, r), _cut(a, {**r, 1: r.get(1, 0) - 1})]
    if op in ("<=", ">="):
        r = {**r, 1: r.get(1, 0) - 1}
    return [_cut(a, r)]


def _cut(a: int, r: dict) -> str:
    """The cut of `a*x + r < 0`: x < ceil(-r/a) where a > 0, x > floor(r/-a) where a < 0
    (isl reads no minus before a floor: written as floors of sums)."""
    if a > 0:
        neg = {k: -c for k, c in r.items()}
        return _text(neg) if a == 1 else f"floord({_text({**neg, 1: neg.get(1, 0) + a - 1})}, {a})"
    return _text({**r, 1: r.get(1, 0) + 1}) if a == -1 else f"floord({_text({**r, 1: r.get(1, 0) - a})}, {-a})"
