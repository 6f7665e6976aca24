"""The transformed file as a whole, through the compiler's syntax check.

`looptx run` builds each region alone in its harness, so text the output writes around the
regions (a region's first line, the code between regions, the declarations it moves) is never
compiled there: a region that began one character late printed `*{ ... }` and every region
still ran ok.  Where the file as written passes `-fsyntax-only`, the output `looptx transform`
writes for it (the same recipe, no --define) must pass it too.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile

from looptx.errors import LooptxError, notes_muted


def _syntax_errors(compiler: str, path: str, folder: str, flags: list[str]) -> str | None:
    """The compiler's first error line for `path`, or None when it passes."""
    try:
        p = subprocess.run([compiler, "-fsyntax-only", "-w", "-x", "c", "-iquote", folder, *flags, path],
                           capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return None                 # no verdict: the check says nothing
    if p.returncode == 0:
        return None
    lines = [ln for ln in p.stderr.splitlines() if "error" in ln]
    return (lines[0] if lines else p.stderr.strip().splitlines()[-1] if p.stderr.strip() else "it fails").strip()


def whole_file_problem(path: str, recipe, function: str | None, compiler: str = "gcc",
                       openmp: bool = False) -> str | None:
    """Why the transformed file fails the syntax check that the file as written passes; None
    when it passes, or when there is no verdict (the file as written fails it too, or holds
    annotated code: an Orio fragment, a header the machine lacks; the recipe needs --define to
    transform; the output's own #error for a #define value its facts exclude)."""
    from looptx.pipeline import transform_file
    cc = shutil.which(compiler) or shutil.which("gcc")
    if cc is None:
        return None
    with open(path, encoding="utf-8", errors="replace") as f:
        if "/*@" in f.read():
            return None             # Orio's and CHiLL's annotations hold code in comments: fragments
    folder = os.path.dirname(os.path.abspath(path))
    flags = ["-fopenmp"] if openmp else []
    if _syntax_errors(cc, path, folder, flags) is not None:
        return None
    try:
        # (its notes are of sizes the user did not ask for)
        with notes_muted():
            text = transform_file(path, recipe=recipe, function=function)
    except LooptxError:
        return None
    with tempfile.TemporaryDirectory(prefix="looptx-whole-") as tmp:
        out = os.path.join(tmp, os.path.basename(path))
        with open(out, "w", encoding="utf-8") as f:
            f.write(text)
        error = _syntax_errors(cc, out, folder, flags)
    if error is None or "#error" in error:
        return None                 # (the output's own checks of the file's #define values)
    return (f"the transformed file does not compile where the file as written does ({error.replace(out, 'output')}): "
            "every region validated alone, but the code written around them is wrong")
