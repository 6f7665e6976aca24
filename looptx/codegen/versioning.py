"""The regenerated region run only where the sizes meet the facts its model assumed
(Scop.runtime_facts), the region as written elsewhere: Polly's versioning, with the user's own
code as the version for every size."""
from __future__ import annotations

from looptx import ir
from looptx.codegen import ast as K
from looptx.codegen.signed_sizes import signed_params
from looptx.frontend.fallback import canonical_cond
from looptx.frontend.names import to_user


def fact_check(scop, or_idle: bool = False) -> str | None:
    """C text of the condition on the sizes under which the model's code is right (the facts
    it assumed, Scop.runtime_facts); None where C gives them already."""
    cond = scop.runtime_check(or_idle)
    if cond is None:
        return None
    cond = K.simplify_cond(cond)
    text = to_user(ir.to_c(signed_params(cond, scop)))
    # the facts read a 64-bit unsigned size as its signed copy, as the bounds do: a size of 2^63
    # or more is negative there and would pass an upper bound (`(long)n < 4294967296`)
    named = {x.name for x in ir.walk(cond) if isinstance(x, ir.Var)}
    wide = [p for p in scop.unsigned_params if p in scop.wide_params and p in named]
    return " && ".join([f"(long){to_user(p)} >= 0" for p in wide] + [f"({text})" if wide else text])


def versioned(scop, lines: list[str], indent: str = "  ") -> list[str]:
    """The regenerated block run only where the sizes meet the facts its model assumed, and
    the region as written elsewhere.  Both branches sit inside the block's braces, after the
    struct members and row lengths it declares, so both read them."""
    text = fact_check(scop) if scop.fallback else None
    if text is None or "{" not in lines:
        return lines
    k = lines.index("{")
    # the block's closing brace, before the region's #define / #undef lines that follow it
    end = len(lines) - 1 - lines[::-1].index("}")
    inner = [indent + ln if ln and not ln.startswith("#") else ln for ln in lines[k + 1:end]]
    # (an `else` of the region's own that runs where these same facts fail: it alone)
    same = canonical_cond(text) if scop.fallback_else else None
    written = next((kept for cond, kept in scop.fallback_else if cond is not None and cond == same), scop.fallback)
    orig = [2 * indent + ln if ln and not ln.startswith("#") else ln for ln in written]
    if "".join("".join(inner).split()) == "".join("".join(orig).split()):
        return lines                    # nothing changed: the code as written is right anyway
    return lines[:k] + ["{", f"{indent}if ({text}) {{"] + inner + [f"{indent}}} else {{"] + orig \
        + [f"{indent}}}", "}"] + lines[end + 1:]


def baked_guard(scop, facts: bool = True) -> list[str]:
    """Preprocessor checks that the build gives the #defined sizes the code was made for: a
    size that multiplies an iterator in a subscript (S*j + i), or is a loop step (ii += BS), was
    modelled at its value, and the code is neither legal nor right for another one."""
    out = []
    # a plain #define is the file's: --define cannot change it (frontend/preprocess.Overridden)
    settable = set(scop.soft_macros) | {k for k, _ in scop.pinned_macros}
    for name, value in scop.baked:
        how = f"with --define {name}=VALUE" if name in settable else f"with the #define of {name} changed"
        out += [f"#if {name} != {value}",
                f'#error "looptx transformed this region for {name} == {value} (its model of the loops '
                f'and subscripts holds only at that value): transform again {how}"',
                "#endif"]
    # (`facts`: checked where the sizes are macros: the C file, and a .cu, which defines them)
    for fact in scop.macro_facts if facts else ():
        out += [f"#if !({fact})",
                f'#error "looptx transformed this region for the known fact {fact}: transform again '
                f'without it for these sizes"',
                "#endif"]
    # a default (#ifndef K) that --define fixed: its loops are made for that value
    for name, value in scop.pinned_macros:
        out += [f"#if {name} != {value}",
                f'#error "looptx transformed this region with --define {name}={value}: transform '
                f'again with --define {name}=VALUE"',
                "#endif"]
    return out
