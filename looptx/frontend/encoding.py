"""Reading a C file that is not all UTF-8.

gcc takes any byte inside a comment or a string literal, and older sources often hold a Latin-1
name or accent there; such a file is read with those bytes as Latin-1 characters, with a note,
and its output written in Latin-1, the same bytes (in UTF-8 where other characters are UTF-8).  A byte that is not UTF-8 in the code itself cannot be a C
token: it is reported at its line and column, as an editor counts them."""
from __future__ import annotations

import functools
import os
import re

from looptx.errors import SourceError, note_once
from looptx.frontend.regions import SourceText, quiet_spans

_BAD = re.compile(r"[\udc80-\udcff]")


@functools.lru_cache(maxsize=8)
def _bytes(path: str, stamp: tuple) -> bytes | None:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def _source_bytes(path: str) -> bytes | None:
    """The file's bytes, read once for the questions below (its line ends, encoding, mark)
    while it is unchanged."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return _bytes(path, (st.st_mtime_ns, st.st_size))


def line_end(path: str) -> str | None:
    """The line end the file `path` is written with, where it is not a newline alone: its
    output is written so (looptx reads it with newlines).  '' for a file of both CRLF and LF
    lines, whose output text holds each line's own end already (crlf_lines)."""
    data = _source_bytes(path)
    if data is None:
        raise FileNotFoundError(path)
    head = data[:1 << 16]
    if crlf_lines(path) is not None:
        return ""
    return "\r\n" if b"\r\n" in head else "\r" if b"\r" in head and b"\n" not in head else None


def crlf_lines(path: str) -> frozenset[int] | None:
    """The lines (from 1) that end in CRLF, of a file where others end in LF alone; None for a
    file of one kind of line end."""
    data = _source_bytes(path)
    if data is None:
        return None
    lines = data.split(b"\n")[:-1]
    crlf = frozenset(k for k, ln in enumerate(lines, 1) if ln.endswith(b"\r"))
    return crlf if crlf and len(crlf) < len(lines) else None


def output_encoding(path: str) -> str:
    """The encoding that writes the file's own bytes back: Latin-1 for a file whose bytes past
    ASCII are none of them UTF-8 (each is one Latin-1 character, read as such), else UTF-8 (a
    file of both kinds is written back in UTF-8, with the note read_c_source gives)."""
    data = _source_bytes(path)
    if data is None:
        return "utf-8"
    text = data.decode("utf-8", errors="surrogateescape")
    return "latin-1" if _BAD.search(text) and not any("\x80" <= c < "\udc80" or c > "\udcff" for c in text
                                                     if c >= "\x80") else "utf-8"


def with_bom(text: str, source: str) -> str:
    """`text` after the byte-order mark `source` starts with, if it does (read_c_source drops
    it): an editor that wrote one keeps it."""
    data = _source_bytes(source)
    return "\ufeff" + text if data is not None and data.startswith(b"\xef\xbb\xbf") else text


def write_like(path: str, text: str, source: str, newline: str | None = None) -> None:
    """Write `text` to `path` in the encoding, line ends and byte-order mark of the C file `source`."""
    with open(path, "w", newline=newline if newline is not None else line_end(source),
              encoding=output_encoding(source)) as f:
        f.write(with_bom(text, source))


def read_c_source(path: str) -> str:
    """The text of the C file `path` (OSError propagates)."""
    with open(path, "rb") as f:
        data = f.read()
    # Windows (and classic Mac OS, CR alone) line ends: pycparser takes no carriage return;
    # a newline in its place keeps every line and column as an editor shows them
    text = data.decode("utf-8", errors="surrogateescape").replace("\r\n", "\n").replace("\r", "\n")
    # an editor's byte-order mark is no character of the code (gcc skips it too); kept, it
    # would follow looptx's header comment into the middle of the output
    text = text[1:] if text.startswith("\ufeff") else text
    bad = [m.start() for m in _BAD.finditer(text)]
    if not bad:
        return text
    spans = [(s, e) for _, s, e in quiet_spans(text)]
    src = SourceText(text, path)
    for at in bad:
        if not any(s <= at < e for s, e in spans):
            byte = ord(text[at]) - 0xDC00
            line, col = src.pos(at)
            raise SourceError(f"the file is not UTF-8 text (byte 0x{byte:02x} in the code)",
                              hint="save it as UTF-8, e.g. iconv -f latin1 -t utf-8", file=path,
                              line=line, col=col)
    line = src.pos(bad[0])[0]
    mixed = output_encoding(path) == "utf-8"
    note_once(path, line, f"the file is not UTF-8 text: {len(bad)} byte(s) in comments or strings "
              "(the first on this line) are read as Latin-1" + (" and written back in UTF-8, as the file's "
                                                                  "other characters are" if mixed else ""))
    return _BAD.sub(lambda m: chr(ord(m.group()) - 0xDC00), text)
