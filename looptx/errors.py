"""Errors that reach the user.

Every bad input becomes one `LooptxError` carrying where it happened (a source position or a
recipe step) and what to do about it; the CLI prints `str(error)` as the single line on stderr
and exits with `error.exit_code`.  Anything else that escapes is an internal bug (exit 1).
"""
from __future__ import annotations

import threading
from contextlib import contextmanager


class LooptxError(Exception):
    """Bad input: exit code 2, one line `FILE:LINE:COL: error: WHAT (HOW TO FIX)`."""

    exit_code = 2

    def __init__(self, what: str, *, hint: str | None = None, file: str | None = None,
                 line: int | None = None, col: int | None = None,
                 step: int | None = None, step_name: str | None = None):
        super().__init__(what)
        self.what = what
        self.hint = hint
        self.file = file
        self.line = line
        self.col = col
        self.step = step
        self.step_name = step_name

    def located(self, *, file=None, line=None, col=None, step=None, step_name=None):
        """Fill in location fields that are still unknown (inner code rarely knows the file)."""
        if self.file is None and file is not None:
            self.file = file
        if self.line is None and line is not None:
            self.line, self.col = line, col
        if self.step is None and step is not None:
            self.step, self.step_name = step, step_name
        return self

    def __str__(self) -> str:
        where = []
        if self.file:
            where.append(self.file)
            if self.line is not None:
                where.append(str(self.line))
                if self.col is not None and self.step is None:
                    where.append(str(self.col))
        prefix = ":".join(where)
        if self.step is not None:
            step = f"step {self.step}" + (f" ({self.step_name})" if self.step_name else "")
            prefix = f"{prefix}: {step}" if prefix else step
        text = f"error: {self.what}"
        if self.hint:
            text += f" ({self.hint})"
        line = f"{prefix}: {text}" if prefix else text
        from looptx.frontend.names import to_user
        return to_user(" ".join(line.split("\n")))


class SourceError(LooptxError):
    """The C input (region, construct, declaration) is not supported or malformed."""


class RecipeError(LooptxError):
    """A recipe is malformed, names something unknown, or has a bad argument."""


class LegalityError(RecipeError):
    """A recipe step would violate a dependence of the original program."""


class InternalStepError(RecipeError):
    """A step looptx cannot carry out, for want of a case its code generation handles, not
    because the input is wrong: the user reports it (exit code 1), and a search passes the
    point over as it does a refused one."""

    exit_code = 1


class AnnotationError(LooptxError):
    """A PerfTuning / CHiLL annotation or .spec file is malformed."""


class RunError(LooptxError):
    """A build or run of generated code failed: exit code 1, not a user input error."""

    exit_code = 1


def read_utf8(path: str, error: type[LooptxError], what: str) -> str:
    """The text of a file the user wrote (OSError propagates).  A byte that is not UTF-8 is
    bad input, located at its line and column (in characters, as an editor counts them)."""
    with open(path, "rb") as f:
        data = f.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        head = data[:e.start]
        line_start = head.rfind(b"\n") + 1
        col = len(head[line_start:].decode("utf-8", "replace")) + 1
        raise error(f"the {what} is not UTF-8 text (byte 0x{data[e.start]:02x})",
                    hint=f"save the {what} in UTF-8", file=path, line=head.count(b"\n") + 1,
                    col=col) from None


_noted: set[tuple[str, int | None, str]] = set()
_pending: list[str] = []
_spellers: list = []
_as_given: dict[str, str] = {}     # absolute path -> the path as the command line gave it


def paths_as_given(*paths: str | None) -> None:
    """Notes name these files as the user wrote them, as errors do (a search loads its file
    by its absolute path)."""
    import os
    _as_given.update({os.path.abspath(p): p for p in paths if p})


@contextmanager
def spelled_as_written(spell):
    """Errors and notes raised inside name looptx's own variables (`g__n`, `lx_row`) as the user
    wrote them: `spell` maps a message's text."""
    _spellers.append(spell)
    try:
        yield
    except LooptxError as e:
        e.what = spell(e.what)
        if e.hint:
            e.hint = spell(e.hint)
        raise
    finally:
        _spellers.pop()


def note_once(file: str, line: int | None, text: str, col: int | None = None, per_line: bool = False,
              kind: str = "note") -> None:
    """Queues `FILE:LINE[:COL]: note: TEXT` (`kind`: 'warning' for what makes code much
    slower), once per file and text (a file is read again for
    each size of a search), or once per line too (`per_line`: what one region's output does),
    for `flush_notes`.  Only the main process speaks (build workers load the same file again and
    would repeat it), and a run that ends in a bad input drops its notes: that error is the one
    line on stderr."""
    import multiprocessing
    import os
    if multiprocessing.parent_process() is not None:
        return
    for spell in reversed(_spellers):
        text = spell(text)
    key = (os.path.abspath(file), line if per_line else None, text)
    if key not in _noted:
        _noted.add(key)
        file = _as_given.get(key[0], file)
        where = f"{file}:{line}:{col}" if line and col else f"{file}:{line}" if line else file
        _pending.append(f"{where}: {kind}: {text}")


def flush_notes() -> None:
    import sys
    for line in _pending:
        print(line, file=sys.stderr)
    _pending.clear()


def drop_notes() -> None:
    _pending.clear()


def withdraw_notes(keep) -> None:
    """Drop the queued notes that `keep(line)` refuses: what the reading of a file said about
    a region that the output leaves as written after all."""
    _pending[:] = [ln for ln in _pending if keep(ln)]


def reset_notes() -> None:
    """A new command (several run in one process under the tests) says its notes again."""
    _pending.clear()
    _noted.clear()
    _as_given.clear()


class notes_muted:
    """Notes queued inside are dropped, and may be said again later: an internal build (run's
    check of the code for variable sizes) would speak of sizes the user did not ask for."""

    def __enter__(self):
        self._pending, self._noted = len(_pending), set(_noted)

    def __exit__(self, *exc):
        del _pending[self._pending:]
        _noted.intersection_update(self._noted)
        return False


_DEFERRING = threading.local()


@contextmanager
def signals_deferred():
    """Signal handlers that would raise (a search's Ctrl-C and SIGTERM) only note the signal
    while this runs: where isl calls back into Python (the AST builder's at_each_domain), an
    exception raised in a callback is swallowed by islpy and can leave isl's state freed twice
    (a segfault); where a finished search reports and writes its best file, it is completed."""
    _DEFERRING.depth = getattr(_DEFERRING, "depth", 0) + 1
    try:
        yield
    finally:
        _DEFERRING.depth -= 1


def signals_are_deferred() -> bool:
    """Whether this thread is inside signals_deferred()."""
    return getattr(_DEFERRING, "depth", 0) > 0
