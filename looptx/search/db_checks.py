"""Checks of a results database that sqlite does not make: what the path names, and rows that
are well formed but cannot belong to the search that holds them."""
from __future__ import annotations

import json
import os
import stat
from typing import Any


def not_a_file(path) -> str | None:
    """Why `path` cannot hold a database ('is a folder, ...'), or None.  sqlite says only 'unable to
    open database file' of a folder, and of /dev/null only that the disk failed when it first
    writes, halfway through a search."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None                  # missing: created, or said by the caller
    if stat.S_ISDIR(mode):
        return "is a folder, not a results database"
    if not stat.S_ISREG(mode):
        return "is not a regular file (a device, a pipe or a socket), so it cannot hold a results database"
    return None


def _short(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 60 else text[:60] + " ..."


def off_space(point: dict, params) -> str | None:
    """How `point` lies outside the space `params` (a search's recorded space), or None;
    None too for a space recorded in another form."""
    if not isinstance(params, list) or not all(
            isinstance(p, dict) and isinstance(p.get("name"), str) and isinstance(p.get("values"), list)
            for p in params):
        return None
    names = [p["name"] for p in params]
    missing = [n for n in names if n not in point]
    if missing:
        return f"lacks {', '.join(missing)}"
    extra = [k for k in point if k not in names]
    if extra:
        return f"holds {', '.join(extra)}, no param of the search"
    for p in params:
        v = json.loads(json.dumps(point[p["name"]], default=str))
        if v not in p["values"]:
            return f"has {p['name']} = {_short(v)}, not one of its values"
    return None
