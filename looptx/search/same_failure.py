"""Stop a search whose builds all fail the same way.

A build command that cannot work for any point (a missing library, an object file from another
tool, an unknown flag) otherwise spends the whole budget failing.  Orio stops at the first
failed build; Kernel Tuner goes on only past the failures it knows depend on the parameters
(too many resources).  looptx goes on past failures that differ, and stops after
SAME_FAILURE_LIMIT builds in a row, none of them passing, failed with one and the same error.
Different parameter values that all hit one limit usually print different figures, so they
differ here too and the search goes on.
"""
from __future__ import annotations

import re
from typing import Sequence

from looptx.search.evaluate import MEASURE_STATUSES

__all__ = ["SAME_FAILURE_LIMIT", "repeated_build_failure", "stop_line"]

SAME_FAILURE_LIMIT = 5

# Variants are built in their own temporary folders: their paths, and the line and column of
# an error in the generated file, differ between points with one and the same fault.
_DIRS = re.compile(r"(?:/[^\s/:'\"`()]+)+/")
_POSITION = re.compile(r"(\.\w+)(?::\d+){1,2}(?=[:\s)])|(\.\w+)\((\d+)\)")
_TEMP_NAME = re.compile(r"\b(?:tmp|lx)[\w]*?[0-9a-z]{6,}\b")


def _normalized(error: str) -> str:
    text = _DIRS.sub("", " ".join(error.split()))
    text = _POSITION.sub(lambda m: m.group(1) or m.group(2), text)
    return _TEMP_NAME.sub("TMP", text)


def repeated_build_failure(records: Sequence, first: int = 0, tuned_flags: bool = False) -> tuple[int, str] | None:
    """(count, error) when the search has no success and the last SAME_FAILURE_LIMIT points
    measured from records[first] on (a resumed search's own) failed to build with one error;
    else None.  Duplicates and points pruned before a build do not count.  `tuned_flags`: the
    build command takes params (`gcc @CF@`): failures that all had the same flags may be that
    value's own (`-fno-such-flag` in one of CF's values), so they stop nothing."""
    if any(r.status == "ok" for r in records):
        return None
    builds = [r for r in records[first:] if r.duplicate_of is None and r.status in MEASURE_STATUSES]
    last = builds[-SAME_FAILURE_LIMIT:]
    if len(last) < SAME_FAILURE_LIMIT or any(r.status != "compile_error" or not r.error for r in last):
        return None
    if len({_normalized(r.error) for r in last}) != 1:
        return None
    if tuned_flags and len({r.flags for r in last}) == 1:
        return None
    return len(builds), " ".join(last[0].error.split())


def stop_line(records: Sequence, first: int, budget: int, db: str = "the database") -> str:
    """What the search command prints when a search stopped for a repeated build failure."""
    count, error = repeated_build_failure(records, first) or (len(records) - first, "")
    error = error if len(error) <= 300 else error[:300] + " ..."
    # the database records the code and build command: once they are fixed, neither a rerun
    # nor --resume may continue the search it holds
    return (f"stopped after {len(records)} of {budget} evaluations: the last {SAME_FAILURE_LIMIT} "
            f"builds failed with the same error and none passed, so the build command or the code "
            f"is at fault, not the params ({error}); fix it and run again with a new --db, or "
            f"remove {db} first, which records the search as it was (--resume goes on past a "
            f"failure that the params do cause)")
