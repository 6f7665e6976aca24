"""`looptx search` command-line values that no search could use, or that conflict: bad
input, reported before any work."""
from __future__ import annotations

import re

from looptx.errors import LooptxError
from looptx.search.db import MAX_INTEGER
from looptx.search.replay_checks import COMMAND_LINE


def check_args(args) -> None:
    """Command-line values that no search could use: bad input, reported before any work."""
    def bad(option, what, hint):
        # cli.py would put a replay's cache before the error: it is the command line's
        raise LooptxError(f"{option} {what}", hint=hint, file=COMMAND_LINE if args.replay else None)
    if args.budget is not None and args.budget < 1:
        bad("--budget", f"must be at least 1, got {args.budget}", "give the number of evaluations")
    # the results database stores them as SQLite's 64-bit integers
    # (a replay records nothing)
    if args.budget is not None and args.budget > MAX_INTEGER and not args.replay:
        bad("--budget", f"must be at most 2**63-1, got {args.budget}", "give the number of evaluations")
    if args.seed is not None and args.seed > MAX_INTEGER and not args.replay:
        bad("--seed", f"must be between 0 and 2**63-1, got {args.seed}", "e.g. 1")
    if args.time_limit is not None and not args.time_limit > 0:
        bad("--time-limit", f"must be a positive number of seconds, got {args.time_limit}",
            "e.g. 600, or inf for no limit")
    if args.workers is not None and args.workers < 1:
        bad("--workers", f"must be at least 1, got {args.workers}", "one worker per device")
    if args.batch_size is not None and args.batch_size < 1:
        bad("--batch-size", f"must be at least 1, got {args.batch_size}", "e.g. 8")
    if args.seed is not None and args.seed < 0:
        bad("--seed", f"must be 0 or more, got {args.seed}", "e.g. 1")
    if args.top is not None and args.top < 1:
        bad("--top", f"must be at least 1, got {args.top}", "e.g. 10")
    for option, value in (("--t1", getattr(args, "t1", None)), ("--objective", getattr(args, "objective", None))):
        if value is not None and not args.replay:
            bad(option, "works with --replay only: a search measures the file's variants",
                f"add --replay CACHE, or drop {option}")
    if getattr(args, "cflags", None) is not None and (args.backend == "cuda" or args.replay):
        bad("--cflags", "works with the C backend only: " + ("a replay builds nothing" if args.replay
                                                             else "the CUDA backend builds with nvcc"),
            "drop --cflags")
    ex = args.executor
    if ex is not None and ex != "local-dask" and not re.match(r"^(dask|tcp|tls)://([^/\s:\[\]]+|\[[0-9a-fA-F:.]+\]):\d+$", ex):
        bad("--executor", f"'{ex}' is not a Dask scheduler address",
            "write dask://HOST:PORT (or tcp://, tls://), or local-dask")
    # A scheduler's own workers measure: --workers would be dropped.  With local-dask it is
    # the size of the cluster looptx starts, as --workers alone means (README).
    if ex is not None and ex != "local-dask" and args.workers is not None:
        bad("--workers", f"with --executor {ex}: the scheduler's workers measure, so it would be ignored",
            "drop --workers and start one worker per device on the scheduler, or drop --executor "
            "to measure on a local cluster of N workers")
