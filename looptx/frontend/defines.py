"""--define names that name nothing: a misspelled size (`-D nn=5` for `n`) would otherwise be
reported as the size that then has no value, without the typo.

Only a name found nowhere is refused: -D also sets macros that the file, its own headers or its
decl_file test (`#ifdef MINI_DATASET`), sizes of struct members (`g__n` for `g->n`), names in a
recipe or a .spec, and the implementation's `_NAMES` for system headers; the build and cpp see
them all, so any of those may be given without being a size of the region."""
from __future__ import annotations

import difflib
import os
import re

from looptx.errors import LooptxError
from looptx.frontend.affine import c_int_value
from looptx.frontend.preprocess import include_dirs
from looptx.frontend.regions import SourceText, blank, scan_comments

_IDENT = re.compile(r"[A-Za-z_]\w*")


def define_value(path: str | None, name: str, value, perf: dict) -> int | str:
    """One --define value: an integer anywhere; any other spelling (True, 'ij', -O3) only for a
    performance param of `path`, which the caller matches against the param's values.  `perf`
    caches the file's performance params across the values of one command."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    text = str(value)
    sign, digits = re.fullmatch(r"\s*([+-]?)\s*(.*?)\s*", text).groups()
    try:
        # as C reads the constant (`010` is 8, `0x10` 16, `10UL` 10), not as Python (`1_000`)
        return -c_int_value(digits) if sign == "-" else c_int_value(digits)
    except ValueError:
        pass
    if "names" not in perf:
        from looptx.pipeline import performance_params
        perf["names"] = (performance_params(path) if path else frozenset()) | _spec_params(perf.get("spec"))
    if name not in perf["names"]:
        if path:
            # a spec that does not read may declare it: the spec's error is the one to fix
            from looptx.pipeline import performance_params
            performance_params(path, strict=True)
        raise LooptxError(f"bad --define '{name}={text}': '{text}' is not an integer",
                          hint="write --define NAME=INTEGER; only a performance param takes "
                               "other values")
    return text
def _spec_params(spec_path: str | None) -> frozenset[str]:
    """The performance params of a `--spec` file (none where it does not read: the command
    that reads it says why)."""
    if not spec_path:
        return frozenset()
    from looptx.frontend.annotations import load_spec_file
    try:
        return frozenset(p.name for p in load_spec_file(spec_path).performance_params)
    except (LooptxError, OSError):
        return frozenset()


_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]([^>"]+)[>"]', re.M)
_IMPORT_SPEC = re.compile(r"\bimport\s+spec\s+([A-Za-z_][\w.]*?)\s*;")   # Orio's `import spec axpy;`
_DECL_FILE = re.compile(r"""\bdecl_file\s*=\s*['"]([^'"]+)['"]""")
_PARAM = re.compile(r"\bparam\s+([A-Za-z_]\w*)")        # Orio's performance and input params
_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)", re.M)
# a name declared with an integer type: where a size is declared (`int n`, `size_t n`, `long m`)
_INT_DECL = re.compile(r"\b(?:int|long|short|size_t|unsigned|signed|Index_t|ssize_t)\s*\*?\s*"
                       r"(?:const\s+)?([A-Za-z_]\w*)\s*[,;)=\[]")
_NOT_NAMES = frozenset("""auto break case char const continue default do double else enum extern
float for goto if inline int long register restrict return short signed sizeof static struct
switch typedef union unsigned void volatile while include define ifdef ifndef endif pragma scop
endscop""".split())


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return None


def _texts(path: str, text: str) -> list[str]:
    """The file and what it brings in: its headers found beside it or in the -I folders (as
    cpp finds them), recursively, and its Orio decl_file."""
    out, seen, todo = [text], {os.path.abspath(path)}, [(path, text)]
    while todo:
        where, body = todo.pop()
        base = os.path.dirname(os.path.abspath(where))
        names = _INCLUDE.findall(body) + _DECL_FILE.findall(body) + [f"{n}.spec" for n in _IMPORT_SPEC.findall(body)]
        for name in names:
            for d in [base] + include_dirs():
                found = os.path.normpath(os.path.join(d, name))
                if os.path.isfile(found):
                    break
            else:
                continue
            if found in seen:
                continue
            seen.add(found)
            got = _read(found)
            if got is not None:
                out.append(got)
                todo.append((found, got))
    return out


def _is_found(name: str, words: set[str]) -> bool:
    if name in words or name.startswith("_") or name.startswith("lx_"):
        return True
    parts = name.split("__")
    # `g__n` for g->n; `grid_points__2` and `a__0_1` for the elements a region reads once
    return len(parts) > 1 and all(p in words or re.fullmatch(r"\d+(?:_\d+)*", p) for p in parts if p)


_SCALAR_TYPE = r"(?:double|float|int|long|short|char|unsigned|signed|void|size_t|\w+_t|const|restrict|__restrict__|__restrict)"


def _refuse_pointer(path: str, text: str, code: str, name: str, value, headers: str = "") -> None:
    """A name the file declares only as a pointer or an array (`double *dbyt`, which the
    function reads as `*dbyt` before the region): -D cannot give what it points to, and the
    build would only see a macro that changes nothing."""
    if re.search(rf"^[ \t]*#[ \t]*(?:define|ifn?def|if|elif)\b[^\n]*\b{re.escape(name)}\b", code, re.M):
        return
    e = re.escape(name)
    # the type names of the file and its headers too (f2c.h's `integer *n`, `doublereal *dx`)
    typedefs = dict((m.group(2), m.group(1)) for m in re.finditer(r"\btypedef\s+([\w\s]+?)\s+(\w+)\s*;",
                                                                  headers + "\n" + code))
    types = f"(?:{_SCALAR_TYPE[3:-1]}{''.join('|' + re.escape(t) for t in typedefs)})"
    pointer = re.search(rf"\b{types}\s*\*+\s*(?:(?:const|restrict|__restrict__|__restrict)\s+)*{e}\s*[,;)=\[]", code)
    array = re.search(rf"\b{types}\s+{e}\s*\[", code)
    scalar = re.search(rf"\b{types}\s+(?:(?:const)\s+)*{e}\s*[,;)=]", code)
    if not (pointer or array) or scalar:
        return
    m = pointer or array
    line, col = SourceText(text, path).pos(m.start())
    word = re.match(r"\w+", m.group(0)).group(0)
    integer = re.match(r"(?:int|long|short|unsigned|signed|size_t|\w+_t)\b", typedefs.get(word, word)) is not None
    hint = (f"a size the region reads as *{name} or {name}[0] is given as --define {name}__0={value}; "
            "otherwise drop this --define" if integer else
            "drop this --define: it gives integer sizes and macros, and what a pointer points to comes "
            "from the harness's seeded inputs")
    raise LooptxError(f"-D {name}={value}: '{name}' is {'a pointer' if pointer else 'an array'} in "
                      f"{os.path.basename(path)}, not a size", hint=hint, file=path, line=line, col=col)


def _loop_counter(name: str, code: str) -> bool:
    """Whether `name` only counts loops of the file (no #define, no integer parameter of it),
    so that -D of it fixes nothing: not a name to suggest."""
    e = re.escape(name)
    if re.search(rf"^[ \t]*#[ \t]*(?:define|ifn?def|if|elif)\b[^\n]*\b{e}\b", code, re.M) \
            or re.search(rf"[(,]\s*(?:const\s+)?(?:(?:unsigned|signed|int|long|short|size_t)\s+)+{e}\s*[,)]", code):
        return False
    return re.search(rf"\bfor\s*\(\s*(?:(?:unsigned|signed|int|long|short|size_t|register)\s+)*{e}\s*=", code) is not None


def _suggestion(name: str, code: str, perf: frozenset[str]) -> str | None:
    likely = set(_DEFINE.findall(code)) | set(_INT_DECL.findall(code)) | set(perf)
    same_case = [n for n in sorted(likely) if n.lower() == name.lower()]
    if same_case:
        return same_case[0]                       # `-D Ni=3` for PolyBench's NI
    for pool, cutoff in ((likely, 0.5 if len(name) <= 3 else 0.6), (set(_IDENT.findall(code)) - _NOT_NAMES, 0.6)):
        # two-letter params (TI, TJ) are one letter apart, a ratio of 0.5
        close = [c for c in difflib.get_close_matches(name, sorted(pool), n=5, cutoff=cutoff)
                 if not _loop_counter(c, code)]
        if close:
            return close[0]
    return None


def _recipe_params(extra: tuple[str | None, ...]) -> frozenset[str]:
    """The `$NAME` params of a YAML recipe and the variables a CHiLL script sets."""
    names: set[str] = set()
    for t in (_read(p) or "" for p in extra if p):
        names.update(re.findall(r"\$\{?([A-Za-z_]\w*)", t))
        names.update(re.findall(r"^[ \t]*(?:local[ \t]+)?([A-Za-z_]\w*)[ \t]*=(?!=)", t, re.M))
    return frozenset(names)


def _first_use(name: str, code: str) -> int | None:
    m = re.search(rf"(?<![\w.>\\]){re.escape(name)}\b", code)
    return m.start() if m else None


def _first_region(text: str, path: str) -> int | None:
    """Where the sizes a --define could fix are used (a file that does not scan is reported
    by the command itself)."""
    from looptx.frontend.regions import scan
    try:
        regions = scan(text, path).regions
    except LooptxError:
        return None
    return regions[0].outer[0] if regions else None


def check_defines(path: str | None, defines: dict, *, perf: frozenset[str] = frozenset(),
                  extra: tuple[str | None, ...] = ()) -> None:
    """Refuses a --define whose name appears nowhere the build or the model could use it.
    `extra`: other files of the command (a recipe, a .spec) that may name it."""
    if not path or not defines:
        return
    text = _read(path)
    if text is None:
        return                                   # the command reports the missing file
    words: set[str] = set()
    texts = _texts(path, text)
    for t in texts + [_read(p) or "" for p in extra if p]:
        words.update(_IDENT.findall(t))
    code = None
    for name, value in defines.items():
        if name in perf:
            continue
        if _is_found(name, words):
            _refuse_let(path, text, name, value)
            code = code if code is not None else blank(text, [(c.start, c.end) for c in scan_comments(text)])
            _refuse_pointer(path, text, code, name, value, "\n".join(texts[1:]))
            continue
        src = SourceText(text, path)
        code = blank(text, [(c.start, c.end) for c in scan_comments(text)])
        close = _suggestion(name, code, perf | frozenset(_PARAM.findall("\n".join(texts))) | _recipe_params(extra))
        where: dict = {"file": path}
        at = (_first_use(close, code) or _first_use(close, text)) if close else _first_region(text, path)
        if at is not None:
            where["line"], where["col"] = src.pos(at)
        base = os.path.basename(path)
        hint = f"did you mean '{close}'? --define {close}={value}" if close else \
            f"give --define only for names that {base} uses"
        if close and _plain_define(close, code):
            # a build keeps the file's value, so `transform` refuses that -D (preprocess.Overridden)
            hint = (f"did you mean '{close}'? {base} #defines it, so a build keeps its value: change the "
                    f"#define, or give --define {close}={value} to `looptx run` or `search`, whose harness "
                    f"uses it")
        raise LooptxError(f"-D {name}={value}: '{name}' is not a size or parameter of {base}", hint=hint, **where)


def _refuse_let(path: str, text: str, name: str, value) -> None:
    """A `let` of an Orio spec is evaluated as the annotation is read, into the params set from
    it (`let SIZE = 2500; ... param N = SIZE;`): a -D of it would change nothing but the name."""
    let = re.search(rf"\blet\s+{re.escape(name)}\s*=", text)
    if let is None or re.search(rf"\bparam\s+{re.escape(name)}\b", text) or \
            re.search(rf"^[ \t]*#[ \t]*define[ \t]+{re.escape(name)}\b", text, re.M):
        return
    users = list(dict.fromkeys(m.group(1) for m in re.finditer(
        rf"\bparam\s+([A-Za-z_]\w*)\s*(?:\[\s*\])?\s*=[^;]*\b{re.escape(name)}\b", text)))
    line, col = SourceText(text, path).pos(let.start())
    raise LooptxError(f"-D {name}={value}: '{name}' is a `let` of the annotation, whose value the params set "
                      f"from it took when the annotation was read", file=path, line=line, col=col,
                      hint=f"give those params instead: {' '.join(f'--define {u}={value}' for u in users)}"
                      if users else "change the let in the annotation")


def _plain_define(name: str, code: str) -> bool:
    """Whether the file #defines `name` without an #ifndef default."""
    return bool(re.search(rf"^[ \t]*#[ \t]*define[ \t]+{re.escape(name)}\b", code, re.M)) and \
        not re.search(rf"^[ \t]*#[ \t]*(?:ifndef[ \t]+{re.escape(name)}\b|if[ \t]+!defined)", code, re.M)
