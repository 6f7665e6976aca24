"""Every file of tests/bad_annotations/ is a malformed PerfTuning annotation.

Line 1 of each file says `// expect: LINE:COL WORD`: parsing must raise AnnotationError whose
`str()` is one line `FILE:LINE:COL: error: ...` with that position and containing WORD.
"""
from __future__ import annotations

import pathlib
import re

import pytest

from looptx.errors import AnnotationError
from looptx.frontend.annotations import parse_tuning_spec

HERE = pathlib.Path(__file__).parent
CORPUS = sorted((HERE / "bad_annotations").glob("*.c"))
_BEGIN = re.compile(r"/\*@\s*begin\s+PerfTuning\s*\(")
_END = re.compile(r"\)\s*@\*/")


def _pos(text: str, off: int) -> tuple[int, int]:
    line = text.count("\n", 0, off) + 1
    return line, off - (text.rfind("\n", 0, off) + 1) + 1


def find_perftuning(text: str, file: str) -> tuple[str, int, int]:
    """Stand-in for the lead's region scanner: the body text and where it starts."""
    m = _BEGIN.search(text)
    assert m, f"{file}: no PerfTuning annotation"
    end = _END.search(text, m.end())
    if end is None:
        line, col = _pos(text, m.start())
        raise AnnotationError("PerfTuning annotation is never closed", hint="end it with ') @*/'",
                              file=file, line=line, col=col)
    line, col = _pos(text, m.end())
    return text[m.end():end.start()], line, col


def parse_file(path: pathlib.Path):
    text = path.read_text()
    body, line, col = find_perftuning(text, str(path))
    return parse_tuning_spec(body, file=str(path), line=line, col=col, base_dir=str(path.parent))


def test_corpus_is_large_enough():
    assert len(CORPUS) >= 10


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_bad_annotation(path: pathlib.Path):
    first = path.read_text().splitlines()[0]
    m = re.fullmatch(r"// expect: (\d+):(\d+) (\S+)", first)
    assert m, f"{path.name}: first line must be '// expect: LINE:COL WORD'"
    line, col, word = int(m.group(1)), int(m.group(2)), m.group(3)
    with pytest.raises(AnnotationError) as info:
        parse_file(path)
    err = info.value
    msg = str(err)
    assert "\n" not in msg
    assert msg.startswith(f"{path}:{line}:{col}: error: "), msg
    assert (err.file, err.line, err.col) == (str(path), line, col)
    assert word in msg, msg
    assert err.exit_code == 2
