"""A .cu defines the sizes it was made for (`#ifndef NI / #define NI 1000`), but it does not
include the user's header, where a build flag may choose other values: PolyBench's
`-DMINI_DATASET` selects `# ifdef MINI_DATASET / # define NI 20` in gemm.h.  Built with that
flag, the .cu would keep 1000 and copy the caller's 20 x 25 arrays as 1000 x 1100 ones.  So the
.cu stops such a build: every macro whose `#ifdef` (or `#if defined(X)`, `#elif defined(X)`)
block in the file or its local headers sets one of its sizes to another value must stay
undefined."""
from __future__ import annotations

import os
import re

from looptx.frontend.preprocess import include_dirs

_INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
_DEFINED = re.compile(r"^\s*#\s*(?:(ifdef)\s+([A-Za-z_]\w*)|(if|elif)\s+defined\s*\(?\s*([A-Za-z_]\w*)\s*\)?\s*$)")
_OPEN = re.compile(r"^\s*#\s*if(?:n?def)?\b")
_DEFINE = re.compile(r"^\s*#\s*define\s+([A-Za-z_]\w*)\s+\(?\s*(-?\d+)\s*\)?\s*$")


def _texts(path: str, seen: set[str]) -> list[str]:
    """The file and the local headers it includes (`#include "..."`), each once."""
    path = os.path.abspath(path)
    if path in seen or not os.path.isfile(path):
        return []
    seen.add(path)
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return []
    out = [text]
    here = os.path.dirname(path)
    for name in _INCLUDE.findall(text):
        for d in [here] + include_dirs():
            if os.path.isfile(os.path.join(d, name)):
                out += _texts(os.path.join(d, name), seen)
                break
    return out


def choosing_macros(path: str, sizes: dict[str, int]) -> list[str]:
    """The macros whose blocks would give one of `sizes` another value, in file order.  (A
    build made with --define MINI_DATASET=1 and compiled without the flag is not caught: the
    harnesses that build a .cu do not pass the flags the file was transformed with.)"""
    out: list[str] = []
    for text in _texts(path, set()):
        stack: list[str | None] = []
        for line in text.splitlines():
            m = _DEFINED.match(line)
            if m and (m.group(1) or m.group(3) == "if"):
                stack.append(m.group(2) or m.group(4))
            elif m and m.group(3) == "elif" and stack:
                stack[-1] = m.group(4)
            elif _OPEN.match(line):
                stack.append(None)
            elif re.match(r"^\s*#\s*(?:else|elif)\b", line) and stack:
                stack[-1] = None
            elif re.match(r"^\s*#\s*endif\b", line) and stack:
                stack.pop()
            else:
                d = _DEFINE.match(line)
                if d and d.group(1) in sizes and int(d.group(2)) != int(sizes[d.group(1)]):
                    out += [x for x in stack if x and x not in sizes and x not in out]
    return out


def dataset_guard(path: str, sizes: dict[str, int]) -> list[str]:
    """`#if defined(MINI_DATASET) || ...` / `#error` lines for the .cu, or none."""
    chosen = choosing_macros(path, sizes) if path else []
    if not chosen:
        return []
    shown = ", ".join(f"{k}={v}" for k, v in sizes.items())
    return [f"#if {' || '.join(f'defined({x})' for x in chosen)}",
            f'#error "this .cu was made for the sizes {shown}; a build flag chooses others: transform '
            f'again with that flag (--define {chosen[0]}=1)"', "#endif"]
