"""Which searchers a recorded search ran with, as the best file's header names them.  Only a
switch of searcher (a `--resume` with another `--algorithm`) stores the list, under the
search row's evaluator description; a search that never switched is its recorded searcher."""
from __future__ import annotations

import contextlib
import json

from looptx.search.options import options_to_record, recorded_options


def _options_record(searcher, given) -> dict | None:
    options = dict(given) if given is not None else getattr(searcher, "opts", None)
    return None if options is None else options_to_record(type(searcher), options)


def searcher_label(searcher, given) -> str:
    name = getattr(searcher, "name", None) or type(searcher).__name__
    options = {k: v for k, v in (_options_record(searcher, given) or {}).items() if not k.startswith("_")}
    return f"{name} {json.dumps(options, sort_keys=True, default=str)}" if options else name


def history(info) -> tuple[str, ...]:
    """The searchers a recorded search ran with, oldest first (only a switch records them)."""
    ev = info.evaluator if isinstance(info.evaluator, dict) else {}
    if ev.get("searchers"):
        return tuple(ev["searchers"])
    if not info.searcher:
        return ()
    cls = None
    with contextlib.suppress(Exception):
        from looptx.search.registry import get_searcher
        cls = get_searcher(info.searcher)
    options = recorded_options(cls, info.searcher_options) if cls is not None else (info.searcher_options or {})
    options = {k: v for k, v in options.items() if not k.startswith("_")}
    return (f"{info.searcher} {json.dumps(options, sort_keys=True, default=str)}" if options
            else info.searcher,)
