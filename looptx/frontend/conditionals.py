"""Preprocessor conditionals inside a region (PARSEC blackscholes' `#ifdef ENABLE_OPENMP` loop
header, an `#ifdef ERR_CHK` block in a loop body).

looptx models the code of the branches the build it ran with takes (the file's macros and
--define): the regenerated region holds that code only, so a build that takes another branch
would compile something else than the file says.  The C output therefore repeats the region's
conditionals with an `#error` in each branch that was not taken, and the brace matching that
finds a function's end reads the taken branches only (two branches that each open a loop's
`{` share one `}`)."""
from __future__ import annotations

import re
from dataclasses import dataclass

_DIRECTIVE = re.compile(r"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b")
_PRAGMA = re.compile(r"^[ \t]*#[ \t]*pragma\b")
MARK = "__lx_taken_"


def _lines(text: str) -> list[str]:
    return text.split("\n")


def _directives(lines: list[str]):
    """(first line, last line, kind) of each conditional directive, from 1, continuation
    lines (`\\` at the end) included."""
    k = 0
    while k < len(lines):
        m = _DIRECTIVE.match(lines[k])
        start = k
        while lines[k].rstrip().endswith("\\") and k + 1 < len(lines):
            k += 1
        if m:
            yield start + 1, k + 1, m.group(1)
        k += 1


def marked(text: str) -> tuple[str, tuple[int, ...]]:
    """`text` with a marker line after each directive that opens a branch (`#if`, `#elif`,
    `#else`), and those directives' lines: cpp keeps the markers of the taken branches."""
    lines = _lines(text)
    opens = {last: first for first, last, kind in _directives(lines) if kind != "endif"}
    if not opens:
        return text, ()
    out = []
    for k, line in enumerate(lines, 1):
        out.append(line)
        if k in opens:
            out.append(f"{MARK}{opens[k]}")
    return "\n".join(out), tuple(sorted(opens.values()))


def taken(output: str) -> frozenset[int]:
    return frozenset(int(n) for n in re.findall(rf"\b{MARK}(\d+)\b", output))


@dataclass(frozen=True)
class Branches:
    """The conditional directives of the file's own text and which branches the build takes."""
    opening: tuple[int, ...] = ()         # lines of the directives that open a branch
    taken: frozenset[int] = frozenset()   # those whose branch cpp kept

    def __bool__(self) -> bool:
        return bool(self.opening)

    def dead_lines(self, text: str) -> set[int]:
        """Lines inside branches the build does not take (nested ones included)."""
        dead: set[int] = set()
        stack: list[bool] = []        # per open group: is the current branch live
        lines = _lines(text)
        directive_of = {}
        for first, last, kind in _directives(lines):
            for k in range(first, last + 1):
                directive_of[k] = (first, kind)
        for k in range(1, len(lines) + 1):
            d = directive_of.get(k)
            if d is not None:
                first, kind = d
                if k != first:
                    continue
                if kind in ("if", "ifdef", "ifndef"):
                    stack.append(first in self.taken)
                elif kind in ("elif", "else") and stack:
                    stack[-1] = first in self.taken
                elif kind == "endif" and stack:
                    stack.pop()
                continue
            if not all(stack):
                dead.add(k)
        return dead

    def live_text(self, text: str) -> str:
        """`text` with the lines of the branches not taken blanked (offsets kept)."""
        if not self:
            return text
        dead = self.dead_lines(text)
        return "\n".join(" " * len(line) if k in dead else line for k, line in enumerate(_lines(text), 1))

    def guard(self, text: str, first_line: int, last_line: int, where: str,
              about: str = "this conditional", remedy: str = "transform it again with the build's -D "
                                                             "flags (--define)") -> list[str]:
        """The region's conditional directives again, with an `#error` in each branch the build
        did not take, where some branch of its group holds code (a group of pragmas only, HPCG's
        `#ifndef HPCG_NO_OPENMP`, computes the same either way); [] when none does."""
        lines = _lines(text)
        found = [(f, l, kind) for f, l, kind in _directives(lines) if first_line <= f <= last_line]
        if not found:
            return []
        # each group's branches: (directive line, the lines up to the next directive of the group)
        code_groups: set[int] = set()
        helper_groups: set[int] = set()         # looptx's own `#ifndef lx_min` groups: not repeated
        group_of: dict[int, int] = {}
        stack: list[int] = []
        bounds = [f for f, _, _ in found] + [last_line + 1]
        for (f, l, kind), nxt in zip(found, bounds[1:]):
            if kind in ("if", "ifdef", "ifndef"):
                stack.append(f)
            if not stack:
                continue
            group_of[f] = stack[-1]
            if kind == "endif":
                stack.pop()     # what follows it up to the next directive is the outer branch's
            if own_helper(lines[f - 1:nxt - 1]):
                helper_groups.add(f)
            elif any(s.strip() and not _PRAGMA.match(s) for s in lines[l:nxt - 1]):
                code_groups.update(stack)
        error = f'#error "looptx transformed this region ({where}) for another branch of {about}: {remedy}"'
        # a group without #else whose #if or #elif branch was taken has an implicit empty branch
        # that the build did not take (`#ifdef EXTRA` on, `#ifndef NDEBUG` in a debug build)
        implicit = {g for g in code_groups
                    if any(group_of.get(f) == g and f in self.taken for f, _, _ in found)
                    and not any(group_of.get(f) == g and kind == "else" for f, _, kind in found)}
        out = []
        for f, l, kind in found:
            if group_of.get(f) in helper_groups:
                continue
            if kind == "endif" and group_of.get(f) in implicit:
                out += ["#else", error]
            out += lines[f - 1:l]
            if kind != "endif" and group_of.get(f) in code_groups and f not in self.taken:
                out.append(error)
        return [s.strip() for s in out] if code_groups else []


def own_helper(lines: list[str]) -> bool:
    """`#ifndef lx_floord` / `#define lx_floord(n, d) ...`: the helper macro looptx's own output
    defines in each region it regenerates (codegen/c.py), the same in every copy, so the branch
    the build skips (a region before it defined the helper) computes the same."""
    m = re.match(r"[ \t]*#[ \t]*ifndef[ \t]+(lx_\w+)[ \t]*$", lines[0]) if lines else None
    body = [s for s in lines[1:] if s.strip()]
    return bool(m) and len(body) == 1 and re.match(rf"[ \t]*#[ \t]*define[ \t]+{m.group(1)}\b", body[0]) is not None


_MACRO = re.compile(r"^[ \t]*#[ \t]*(define|undef)\b")


def macro_directives(text: str, first_line: int, last_line: int, dead: set[int]) -> list[str]:
    """The `#define` and `#undef` lines of the region (x264's `#define SRC(x) tmp[x*8+i]` ...
    `#undef SRC` around each loop), in order, continuation lines joined, those of branches the
    build leaves out skipped: repeated after the regenerated region, which reads them expanded,
    they leave the macros as the region as written does for the code after it."""
    lines = _lines(text)
    out, k = [], first_line - 1
    while k < min(last_line, len(lines)):
        start = k
        while lines[k].rstrip().endswith("\\") and k + 1 < len(lines):
            k += 1
        # (looptx's own helper, which the regenerated region defines again, guarded)
        if _MACRO.match(lines[start]) and start + 1 not in dead and not own_helper(lines[max(start - 1, 0):k + 1]):
            out.append(" ".join(ln.rstrip().rstrip("\\").strip() for ln in lines[start:k + 1]))
        k += 1
    return out


_DEFINES = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)")
_TYPEDEF = re.compile(r"\btypedef\b[^;{}]*?\b([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)*;")
_NAME = re.compile(r"[A-Za-z_]\w*")


def _tested(directive: str) -> set[str]:
    """The names a conditional directive's condition reads (`#if VARIANT == 2` -> VARIANT)."""
    return set(_NAME.findall(re.sub(r"^[ \t]*#[ \t]*\w+", "", directive))) - {"defined"}


def _outer_groups(lines: list[str]) -> list[tuple[int, int, set[str]]]:
    """(first line, last line, names its directives test) of each outermost conditional group."""
    out, depth, first, tested = [], 0, 0, set()
    for f, l, kind in _directives(lines):
        if kind in ("if", "ifdef", "ifndef"):
            if depth == 0:
                first, tested = f, set()
            depth += 1
        if kind != "endif" and depth:
            tested |= _tested(" ".join(lines[f - 1:l]))
        if kind == "endif" and depth:
            depth -= 1
            if depth == 0:
                out.append((first, l, tested))
    return out


def outer_guards(branches: Branches, text: str, region: tuple[int, int], used_in_region: set[str],
                 used_by_function: set[str], where: str):
    """(outer, defaults).  outer: (name, whether the region's code names it, guard lines) for
    each macro or typedef the region (or, `used_by_function`, the function's declarations: a .cu
    spells the types it stands for) uses that the file defines under a conditional outside the
    region (`#ifdef COLMAJOR #define IDX(i,j) ...`): the output expands it as this build defines
    it, so a build that takes another branch must stop, as for the region's own conditionals.
    defaults: (name, line, guard lines) for a group about its own names that defines one the
    region's code names (`#ifndef IDX / #define IDX(i, j) ... / #endif`, a default that
    `-D'IDX(i,j)=...'` replaces): after the group the test reads otherwise, so where the output
    expands the name, the guard goes before the group, at `line`."""
    outer, defaults = [], []
    for name, in_region, guard, own in _guarded_groups(branches, text, region, used_in_region,
                                                       used_by_function, where):
        if not own:
            outer.append((name, in_region, guard))
        elif in_region:
            defaults.append((name, own, guard))
    return tuple(outer), tuple(defaults)


def _guarded_groups(branches, text, region, used_in_region, used_by_function, where):
    """(name, named in the region, guard lines, the group's first line if it is about its own
    names, else 0) of each outer conditional group that defines a name the region uses."""
    if not branches:
        return
    lines = _lines(text)
    defined: dict[str, list[int]] = {}
    function_like: set[str] = set()
    for k, line in enumerate(lines, 1):
        m = _DEFINES.match(line)
        for name in ([m.group(1)] if m else []) + _TYPEDEF.findall(line):
            defined.setdefault(name, []).append(k)
        if m and line[m.end():m.end() + 1] == "(":
            function_like.add(m.group(1))
    for first, last, tested in _outer_groups(lines):
        if first <= region[0] <= last:
            continue
        inside = {n for n, ks in defined.items() if any(first <= k <= last for k in ks)}
        # one about the compiler's names (`#if defined(__GNUC__)`, `__x86_64__`, `_OPENMP`), which
        # looptx's preprocessor does not define, takes another branch in every real build
        if any(re.match(r"_[_A-Z]", n) for n in tested):
            continue
        names = sorted(inside & (used_in_region | used_by_function))
        # --define takes no function-like macro (`-D'IDX(i,j)=...'`): the build's goes in the file
        macros = [n for n in names if n in function_like]
        remedy = (f"write the build's definition of {', '.join(macros)} in the file and transform it again "
                  "(--define takes values, not function-like macros)" if macros else
                  "transform it again with the build's -D flags (--define)")
        guard = branches.guard(text, first, last, where, f"the conditional at line {first}, which defines "
                               f"{', '.join(names)}", remedy) if names else []
        own = first if inside & tested else 0
        yield from ((name, name in used_in_region, tuple(guard), own) for name in names if guard)


def guard_lines(scop, body_text: str | None) -> list[str]:
    """The outer guards (outer_guards) the output needs, each group once: for the C code
    `body_text`, those of the names it no longer spells (it expanded them); for a .cu (None),
    all, after the file's definitions of the macros the conditions test."""
    out: list[str] = []
    for name, in_region, guard in scop.outer_conditionals:
        if body_text is None or in_region and not re.search(rf"\b{re.escape(name)}\b", body_text):
            if "\n".join(guard) not in "\n".join(out):
                out += guard
    return out


def condition_macros(guard: list[str], macros: dict[str, str]) -> tuple[tuple[str, str], ...]:
    """(name, definition) of the file's object-like macros that the directives of `guard` test,
    and those their definitions name: a .cu, a file of its own, defines them as the file does."""
    todo = [n for line in guard if _DIRECTIVE.match(line) for n in _tested(line)]
    out: dict[str, str] = {}
    while todo:
        name = todo.pop()
        if name in macros and name not in out:
            out[name] = macros[name]
            todo += _NAME.findall(macros[name])
    return tuple(out.items())


def cu_conditionals(scop, defined) -> list[str]:
    """A .cu's copy of the guards: the region's conditionals and the outer ones, after the
    file's definitions of what they test (`#define VARIANT 2`) that the .cu has not `defined`."""
    guards = guard_lines(scop, None) + list(scop.conditionals)
    if not guards:
        return []
    return [f"#ifndef {n}\n#define {n} {body}\n#endif".replace(f"#define {n} \n", f"#define {n}\n")
            for n, body in scop.condition_macros if n not in defined] + guards
