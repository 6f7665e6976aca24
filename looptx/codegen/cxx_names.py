"""C names that C++ reserves: a `.cu` is C++, so an array a C file calls `new` or `class`
(Pluto's 1dheat.c: `double A[N], new[N];`) must be renamed there.  Parameter names are not
part of a C function's linkage, so the host function may take `new_` for the caller's `new`.
The generated code itself uses none of these words (`asm`, which its barrier uses, is GNU C
too, and not on the list), so every one of them in the text came from the user's names."""
from __future__ import annotations

import re

CXX_ONLY = frozenset("""
    alignas alignof and and_eq bitand bitor bool catch char8_t char16_t char32_t class compl
    concept consteval constexpr constinit const_cast co_await co_return co_yield decltype delete
    dynamic_cast explicit export false friend mutable namespace new noexcept not not_eq nullptr
    operator or or_eq private protected public reinterpret_cast requires static_assert
    static_cast template this thread_local throw true try typeid typename using virtual wchar_t
    xor xor_eq
""".split())

# comments and literals first, so that a word inside them is left alone
_TOKENS = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|[A-Za-z_]\w*', re.S)


def renames(text: str) -> dict[str, str]:
    """C++-only keywords used as names in `text`, each with a name the text does not use."""
    words = {m.group(0) for m in _TOKENS.finditer(text) if m.group(0)[0].isalpha() or m.group(0)[0] == "_"}
    out = {}
    for w in sorted(words & CXX_ONLY):
        new = w + "_"
        while new in words or new in out.values():
            new += "_"
        out[w] = new
    return out


def cxx_safe(text: str) -> str:
    """`text` with the C++-only keywords it uses as names renamed, and a comment saying so."""
    table = renames(text)
    if not table:
        return text
    body = _TOKENS.sub(lambda m: table.get(m.group(0), m.group(0)), text)
    said = ", ".join(f"{a} -> {b}" for a, b in table.items())
    return f"/* C++ reserves some of the C names: {said} */\n" + body
