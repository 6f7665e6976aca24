"""What `--resume` needs before it measures: a recorded search to continue, and the same space.
Both are checked with messages that say what is missing or what changed, because the
user's usual mistake is a mistyped path or a `-D` given to one run and not the other."""
from __future__ import annotations

import json
import os
from typing import Any, Iterable

from looptx.search.db import ResultsDB, SearchError


def check_db_folder(db: str) -> None:
    """Before anything is printed or measured: sqlite would say only 'unable to open'."""
    folder = os.path.dirname(db) or "."
    if not os.path.exists(db) and not os.path.isdir(folder):
        raise SearchError(f"cannot create the results database '{db}': the folder '{folder}' "
                          "does not exist", hint="create the folder first, or give another --db",
                          file=db)
    from looptx.search.lifecycle import folder_unwritable
    # SQLite writes its log (-wal) beside the file, so even an existing database needs this
    why = folder_unwritable(folder)
    if why:
        raise SearchError(f"cannot write the results database '{db}': its folder '{folder}' is "
                          f"not writable ({why})", hint="give a --db in a writable folder", file=db)
    from looptx.outputs import cannot_create
    why = None if os.path.exists(db) else cannot_create(db)
    if why:
        raise SearchError(f"cannot write the results database '{db}': {why}", hint="give another --db", file=db)


def recorded_settings(db: str, key: str, sibling_keys: Iterable[str]):
    """What the results database recorded of the search that --resume continues, or None."""
    from dataclasses import replace
    if not os.path.exists(db):
        return None
    with ResultsDB(db, create=False) as rdb:
        info = rdb.get_search(key)
        if info is not None:
            # one interrupted before its first evaluation recorded its settings all the same
            return info
        # a size the search never reached (interrupted between two sizes) goes on with the
        # settings it recorded for the others: searcher, budget, seed, batch, time limit
        other = next((o for o in map(rdb.get_search, sibling_keys) if o is not None), None)
    if other is None:
        return None
    state = other.state if isinstance(other.state, dict) else {}
    return replace(other, key=key, n_evals=0, status=None,
                   state={"batch_size": state["batch_size"]} if state.get("batch_size") else None)


def check_resume_target(db: str, keys: Iterable[str], path: str) -> None:
    """`--resume` given on the command line: the database must hold a search of this file,
    else the intent to continue would be dropped without a word (a fresh search would start).
    Sizes not searched yet (an interrupted multi-size run) start fresh."""
    keys = list(keys)
    if not os.path.exists(db):
        raise SearchError(f"--resume: the results database '{db}' does not exist, so there is no "
                          "search to continue",
                          hint="check the --db path, or drop --resume to start a new search",
                          file=path)
    with ResultsDB(db, create=False) as rdb:
        recorded = rdb.searches()
    # one interrupted before its first evaluation recorded its seed and budget all the same
    if any(i.key in keys for i in recorded):
        return
    base = os.path.basename(path)
    others = sorted({i.key.split("|", 1)[0] for i in recorded if i.n_evals})
    held = (f"it holds searches of {', '.join(others)}" if others else "it holds no search")
    same_file = [i.key for i in recorded if i.n_evals and i.key.split("|", 1)[0] == base]
    if same_file:
        held = (f"it holds {base} only for other sizes or backend "
                f"({'; '.join(k.split('|', 1)[1] for k in same_file)})")
    raise SearchError(f"--resume: '{db}' holds no search of {base} to continue ({held})",
                      hint="check the --db path and the -D sizes, or drop --resume to start a new search",
                      file=path)


def _values(p: dict) -> list:
    return json.loads(json.dumps(p.get("values", []), default=str))


def _shown(v: Any) -> str:
    if isinstance(v, list):
        return ",".join(str(x) for x in v)
    return str(v)


def space_change(stored: list[dict], now: list[dict]) -> tuple[str, str]:
    """(what changed, how to resume) between the params a search was recorded with and the
    params of this run."""
    old = {p["name"]: p for p in stored}
    new = {p["name"]: p for p in now}
    changes, fixes = [], []
    for name in old.keys() - new.keys():
        changes.append(f"param {name} was removed")
    for name in new.keys() - old.keys():
        changes.append(f"param {name} is new")
    for name in (n for n in new if n in old):
        a, b = _values(old[name]), _values(new[name])
        if a == b:
            continue
        if len(a) == 1 and len(b) > 1 and a[0] in b:
            changes.append(f"-D {name}={_shown(a[0])} was given to the first run")
            fixes.append(f"-D {name}={_shown(a[0])}")
        elif len(b) == 1 and len(a) > 1 and b[0] in a:
            changes.append(f"-D {name}={_shown(b[0])} is given now, not to the first run")
        else:
            gone = [v for v in a if v not in b]
            added = [v for v in b if v not in a]
            parts = ([f"{', '.join(_shown(v) for v in added)} added"] if added else []) + \
                    ([f"{', '.join(_shown(v) for v in gone)} removed"] if gone else [])
            changes.append(f"the values of {name} changed ({'; '.join(parts) or 'reordered'})")
    if not changes:
        changes.append("the kinds of its params changed")
    what = "; ".join(changes)
    if fixes and len(fixes) == len(changes):
        how = "resume with " + " ".join(fixes)
    else:
        how = "resume with the same annotations and -D options as the first run, or start a new --db"
    return what, how


def constraint_change(stored: list, now: list) -> str | None:
    """What changed in the constraints' texts ('constraint NAME: TEXT' each), or None."""
    if list(stored) == list(now):
        return None
    old = dict(_split_constraint(c) for c in stored)
    new = dict(_split_constraint(c) for c in now)
    changes = [f"{name} was removed" for name in old if name not in new]
    changes += [f"{name} is new ({new[name]})" for name in new if name not in old]
    changes += [f"{name} was {old[name]!r} and is now {new[name]!r}" for name in new
                if name in old and old[name] != new[name]]
    return "; ".join(changes) or "the constraints were reordered"


def _split_constraint(text: str) -> tuple[str, str]:
    name, _, expr = str(text).partition(": ")
    return name, expr


def settings_change(stored: dict, now: dict | None) -> str | None:
    """'NAME old -> new' for each measurement setting (repetitions, timeout, rtol) that
    differs from the recorded one, or None."""
    if not isinstance(stored, dict) or now is None:
        return None
    shown = {"repetitions": "repetitions", "timeout": "timeout (s)", "rtol": "validation rtol"}
    changes = [f"{shown.get(k, k)} {stored.get(k)!r} -> {now.get(k)!r}"
               for k in sorted(set(stored) | set(now)) if stored.get(k) != now.get(k)]
    return "; ".join(changes) or None
