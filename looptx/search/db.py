"""SQLite store of searches and their evaluations (one file, several searches).

A search is identified by a key chosen by the caller (e.g. "mm.c|N=512|cuda"); each evaluation is
one row, inserted and committed as soon as it completes, so killing the search process loses at
most what was in flight.  Rows are never updated; the search row holds the searcher's latest
state (JSON) for resuming.  The schema is plain SQL so the file can be explored with `sqlite3`.
"""
from __future__ import annotations

import contextlib
import datetime as _dt
import json
import os
import sqlite3
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Iterable, Mapping

from looptx.errors import LooptxError
from looptx.search.db_checks import not_a_file, off_space

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS looptx_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS searches (
    id               INTEGER PRIMARY KEY,
    search_key       TEXT NOT NULL UNIQUE,
    input_file       TEXT,
    problem          TEXT,      -- JSON: problem size / input parameters
    backend          TEXT,
    searcher         TEXT,
    searcher_options TEXT,      -- JSON
    seed             INTEGER,
    budget           INTEGER,
    time_limit       REAL,
    space            TEXT,      -- JSON description of the parameters
    evaluator        TEXT,      -- JSON: evaluator.describe()
    started          TEXT,      -- ISO 8601 UTC
    finished         TEXT,
    status           TEXT,      -- running | finished | interrupted
    state            TEXT       -- JSON: searcher.state() after the latest round
);
CREATE TABLE IF NOT EXISTS evaluations (
    search_id    INTEGER NOT NULL REFERENCES searches(id) ON DELETE CASCADE,
    eval_index   INTEGER NOT NULL,
    point        TEXT NOT NULL,  -- JSON object
    point_key    TEXT NOT NULL,
    status       TEXT NOT NULL,
    time         REAL,           -- seconds, median of repetitions (status ok)
    times        TEXT,           -- JSON list of seconds
    spread       REAL,
    code_hash    TEXT,
    recipe       TEXT,
    compiler     TEXT,
    flags        TEXT,
    device       TEXT,
    compile_time REAL,
    run_time     REAL,
    error        TEXT,
    duplicate_of INTEGER,        -- eval_index of the evaluation whose measurement this reuses
    info         TEXT,           -- JSON
    timestamp    TEXT NOT NULL,
    PRIMARY KEY (search_id, eval_index)
);
CREATE INDEX IF NOT EXISTS evaluations_key ON evaluations(search_id, point_key);
CREATE INDEX IF NOT EXISTS evaluations_hash ON evaluations(search_id, code_hash);
"""


class SearchError(LooptxError):
    """A results database or recorded search cannot be used as asked."""


class DBWriteError(SearchError):
    """The results database cannot take a row (disk full, read-only, I/O error): what it
    committed before stays, and the search that hit it ends as an interrupted one does."""


# SQLite stores integers in 64 bits: a larger seed or budget is refused before anything runs
MAX_INTEGER = 2 ** 63 - 1


def default_db_path(input_file: str | os.PathLike) -> Path:
    """`dir/mm.c` -> `dir/mm.looptx.db` (the CLI default)."""
    p = Path(input_file)
    return p.with_name(p.stem + ".looptx.db") if p.suffix else p.with_name(p.name + ".looptx.db")


def _inode(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _readonly(e: Exception) -> bool:
    return "readonly" in str(e) or "read-only" in str(e)


def _short(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 60 else text[:60] + " ..."


def _stderr_warning(text: str) -> None:
    import sys
    print(f"looptx: warning: {text}", file=sys.stderr)


def utc_now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="milliseconds")


def _tuplify(v: Any) -> Any:
    # JSON turns tuples (mapping params, tuple-valued params) into lists; points use tuples.
    if isinstance(v, list):
        return tuple(_tuplify(x) for x in v)
    return v


def _dumps(v: Any, sort_keys: bool = True) -> str | None:
    return None if v is None else json.dumps(v, sort_keys=sort_keys, default=_json_default)


def _json_default(o: Any) -> Any:
    if isinstance(o, (set, frozenset)):
        return sorted(o, key=repr)
    if hasattr(o, "item"):          # numpy scalars
        return o.item()
    if hasattr(o, "tolist"):        # numpy arrays
        return o.tolist()
    return repr(o)


def _loads(s: str | None) -> Any:
    return None if s is None else json.loads(s)


@dataclass(frozen=True)
class EvalRecord:
    """One evaluation as stored.  `point` has tuples restored for list values."""

    eval_index: int
    point: dict
    point_key: str
    status: str
    time: float | None = None
    times: tuple[float, ...] = ()
    spread: float | None = None
    code_hash: str | None = None
    recipe: str | None = None
    compiler: str | None = None
    flags: str | None = None
    device: str | None = None
    compile_time: float = 0.0
    run_time: float = 0.0
    error: str | None = None
    duplicate_of: int | None = None
    info: Mapping[str, Any] = field(default_factory=dict)
    timestamp: str = ""

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def value(self) -> float | None:
        return self.time if self.ok else None

    def result(self):
        """The searcher-facing `looptx.search.base.Result` of this evaluation."""
        from looptx.search.base import Result
        return Result(self.status, self.value)


@dataclass(frozen=True)
class SearchInfo:
    key: str
    id: int
    input_file: str | None = None
    problem: Any = None
    backend: str | None = None
    searcher: str | None = None
    searcher_options: Any = None
    seed: int | None = None
    budget: int | None = None
    time_limit: float | None = None
    space: Any = None
    evaluator: Any = None
    started: str | None = None
    finished: str | None = None
    status: str | None = None
    state: Any = None
    n_evals: int = 0


_JSON_SEARCH_FIELDS = {"problem", "searcher_options", "space", "evaluator", "state"}
_SEARCH_FIELDS = [f.name for f in fields(SearchInfo) if f.name not in ("key", "id", "n_evals")]
_EVAL_COLUMNS = ["eval_index", "point", "point_key", "status", "time", "times", "spread",
                 "code_hash", "recipe", "compiler", "flags", "device", "compile_time", "run_time",
                 "error", "duplicate_of", "info", "timestamp"]


class ResultsDB:
    """Open (creating if needed) a results database.  Use from one thread."""

    def __init__(self, path: str | os.PathLike, *, create: bool = True):
        self.path = Path(path)
        if not create and not self.path.exists():
            raise SearchError(f"results database '{self.path}' does not exist",
                              hint="run `looptx search` first or check the path", file=str(path))
        why = not_a_file(self.path)
        if why:
            raise SearchError(f"'{self.path}' {why}",
                              hint="give the path of a file, e.g. NAME.looptx.db", file=str(path))
        folder = self.path.parent
        if create and not self.path.exists() and not folder.is_dir():
            # sqlite says only 'unable to open database file'
            raise SearchError(f"cannot create the results database '{self.path}': the folder "
                              f"'{folder}' does not exist",
                              hint="create the folder first, or give another --db", file=str(path))
        self.warn = None            # told when the file is written again (see _relink)
        self._ino = None
        self._lock_fd = None
        existed = self.path.exists()
        try:
            # isolation_level=None: we issue BEGIN/COMMIT ourselves, one transaction per row.
            self._conn = sqlite3.connect(str(self.path), timeout=30.0, isolation_level=None)
            self._conn.execute("PRAGMA foreign_keys = ON")
            self._init_schema(create)
            # WAL + NORMAL: a commit is a write to the log without fsync (~0.1 ms instead of
            # ~10 ms), still durable when the process is killed (only an OS crash can lose the
            # last commits, never corrupt the file), and readers (`looptx report`) do not block
            # the running search.  Readers (create=False) leave the mode alone: switching it
            # needs write access.
            if create:
                self._conn.execute("PRAGMA journal_mode = WAL")
            self._conn.execute("PRAGMA synchronous = NORMAL")
            self._ino = _inode(self.path)
        except sqlite3.OperationalError as e:
            if create and (not existed or not os.access(self.path, os.R_OK | os.W_OK) or _readonly(e)):
                # sqlite says 'unable to open database file' for a folder it cannot write in
                raise DBWriteError(f"cannot {'create' if not existed else 'write'} the results "
                                   f"database '{self.path}' ({e}): its folder or file is not writable",
                                   hint="give a --db in a writable folder", file=str(path)) from None
            if existed and not os.access(self.path, os.R_OK):
                raise SearchError(f"cannot read '{self.path}': permission denied", file=str(path),
                                  hint="give read permission, or another results database") from None
            raise SearchError(f"'{self.path}' is not a looptx results database ({e})",
                              hint="give the .looptx.db file a search wrote", file=str(path)) from None
        except sqlite3.DatabaseError as e:
            if not create and self.path.stat().st_size == 0:
                # sqlite makes the file on connect: a search stopped before its first commit
                raise SearchError(f"'{self.path}' is empty: the search that made it was stopped before "
                                  "it recorded anything", hint="run the search again without --resume, with "
                                  "the same --seed to draw the same points", file=str(path)) from None
            raise SearchError(f"'{self.path}' is not a looptx results database ({e})",
                              hint="give the .looptx.db file a search wrote", file=str(path)) from None

    def _init_schema(self, create: bool) -> None:
        c = self._conn
        tables = {r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if tables and "looptx_meta" not in tables:
            raise sqlite3.DatabaseError("it holds other tables")
        if "looptx_meta" in tables:
            row = c.execute("SELECT value FROM looptx_meta WHERE key='schema_version'").fetchone()
            if row is None or str(row[0]).strip() != str(SCHEMA_VERSION):
                raise sqlite3.DatabaseError(f"schema version {row and row[0]}, expected "
                                            f"{SCHEMA_VERSION}")
            missing = {"searches", "evaluations"} - tables
            if missing:
                raise sqlite3.DatabaseError(f"it is damaged: its table{'s' if len(missing) > 1 else ''} "
                                            f"{' and '.join(sorted(missing))} {'are' if len(missing) > 1 else 'is'} missing")
            return
        if not create:
            raise sqlite3.DatabaseError("empty database")
        with self._tx():
            for stmt in _SCHEMA.split(";"):
                if stmt.strip():
                    c.execute(stmt)
            c.execute("INSERT OR IGNORE INTO looptx_meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))

    class _Tx:
        def __init__(self, db):
            self.db = db

        def __enter__(self):
            self.db._relink()
            try:
                self.db._conn.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as e:
                raise self.db._write_error(e) from None
            return self.db._conn

        def __exit__(self, et, ev, tb):
            conn = self.db._conn
            if et is None:
                try:
                    conn.execute("COMMIT")
                    return False
                except sqlite3.OperationalError as e:
                    ev = e
            # a full disk may have rolled the transaction back already: a second ROLLBACK
            # would hide why it failed
            if conn.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
            if isinstance(ev, sqlite3.OperationalError):
                raise self.db._write_error(ev) from None
            return False

    def _tx(self):
        return ResultsDB._Tx(self)

    def _write_error(self, e: Exception) -> DBWriteError:
        text = str(e)
        why = " (the file or its folder is read-only)" if _readonly(e) else ""
        return DBWriteError(f"cannot write the results database '{self.path}': {text}{why}",
                            hint="free space or fix the file, then continue with --resume",
                            file=str(self.path))

    def _relink(self) -> None:
        """The file was removed while open: SQLite goes on writing into the unlinked file,
        which is lost at close.  It is written again at its path from the open connection
        (a backup, then the old connection closes and takes its log along), with a warning."""
        if self._ino is None or self._conn is None or self.path.exists():
            return
        tmp = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
        try:
            out = sqlite3.connect(str(tmp), isolation_level=None)
            try:
                self._conn.backup(out)
            finally:
                out.close()
            n = self._conn.execute("SELECT COUNT(*) FROM evaluations").fetchone()[0]
            locked = self._lock_fd is not None
            self._unlock()
            self._conn.close()
            self._conn = None
            os.replace(tmp, self.path)
            self._conn = sqlite3.connect(str(self.path), timeout=30.0, isolation_level=None)
            self._conn.execute("PRAGMA foreign_keys = ON")
            self._conn.execute("PRAGMA journal_mode = WAL")
            self._conn.execute("PRAGMA synchronous = NORMAL")
            self._ino = _inode(self.path)
            if locked:
                self.lock()
        except (sqlite3.Error, OSError) as e:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise DBWriteError(f"the results database '{self.path}' was removed while the search "
                               f"ran, and cannot be written again ({getattr(e, 'strerror', None) or e})",
                               hint="keep the database until the search ends; run the search again",
                               file=str(self.path)) from None
        (self.warn or _stderr_warning)(
            f"the results database '{self.path}' was removed while the search ran: it is written "
            f"again, with the {n} evaluation{'s' if n != 1 else ''} recorded so far, and the "
            "search goes on")

    def lock(self) -> None:
        """Held while a search writes: a second `looptx search` on the same file (a --resume
        started while the first runs) would measure the same points again.  flock is released
        by the system when the process ends, however it ends, and SQLite's own locks are
        another kind (fcntl ranges), so readers (`looptx report`) are not blocked."""
        import fcntl
        if self._lock_fd is not None:
            return
        fd = os.open(self.path, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise SearchError(f"'{self.path}' is in use by another `looptx search`, which is "
                              "recording its results there now",
                              hint="wait for it to end (then --resume goes on from what it "
                                   "measured), or give another --db", file=str(self.path)) from None
        self._lock_fd = fd

    def in_use(self) -> bool:
        """Whether a search holds `lock` on the file now (one recorded as running holds none
        once its process was killed)."""
        import fcntl
        if self._lock_fd is not None:
            return True
        try:
            fd = os.open(self.path, os.O_RDONLY)
        except OSError:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            return False
        except OSError:
            return True
        finally:
            os.close(fd)

    def _unlock(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def close(self) -> None:
        self._unlock()
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- searches ----------------------------------------------------------------------------
    def _search_from_row(self, row) -> SearchInfo:
        cols = ["id", "search_key"] + _SEARCH_FIELDS
        d = dict(zip(cols, row[:len(cols)]))
        kw = {}
        for k in _SEARCH_FIELDS:
            try:
                kw[k] = _loads(d[k]) if k in _JSON_SEARCH_FIELDS else d[k]
            except (TypeError, ValueError) as e:
                raise self._damaged(f"the {k} of search {d['search_key']!r} is not JSON ({e})") from None
        for k, kinds in (("space", dict), ("evaluator", dict), ("problem", dict),
                         ("searcher_options", dict), ("seed", int), ("budget", int),
                         ("time_limit", (int, float)), ("search_key", str)):
            v = d["search_key"] if k == "search_key" else kw[k]
            if v is not None and (not isinstance(v, kinds) or isinstance(v, bool)):
                raise self._damaged(f"the {k} of search {d['search_key']!r} is {_short(v)}")
        # (a resume compares the params with the file's, each a name, a kind and its values)
        params = (kw.get("space") or {}).get("params", [])
        if not isinstance(params, list) or not all(
                isinstance(p, dict) and isinstance(p.get("name"), str) and isinstance(p.get("values"), list)
                and isinstance(p.get("slots", []), list) for p in params):
            raise self._damaged(f"the params of the space of search {d['search_key']!r} are {_short(params)}, "
                                "not a list of {name, kind, values}")
        return SearchInfo(key=d["search_key"], id=d["id"], n_evals=row[len(cols)], **kw)

    def _damaged(self, what: str) -> SearchError:
        return SearchError(f"'{self.path}' is damaged: {what}",
                           hint="restore it from a copy, or give another --db to start a new search",
                           file=str(self.path))

    def _query(self, q: str, args: tuple = ()) -> list:
        # (a file removed with its log between two writes: its reads fail with an I/O error)
        self._relink()
        try:
            return self._conn.execute(q, args).fetchall()
        except sqlite3.DatabaseError as e:       # a malformed page, a column dropped by hand
            raise self._damaged(str(e)) from None

    def _select_searches(self, where: str = "", args: tuple = ()) -> list[SearchInfo]:
        cols = ", ".join(["s.id", "s.search_key"] + [f"s.{f}" for f in _SEARCH_FIELDS])
        q = (f"SELECT {cols}, (SELECT COUNT(*) FROM evaluations e WHERE e.search_id = s.id) "
             f"FROM searches s {where} ORDER BY s.id")
        return [self._search_from_row(r) for r in self._query(q, args)]

    def searches(self) -> list[SearchInfo]:
        return self._select_searches()

    def get_search(self, key: str) -> SearchInfo | None:
        found = self._select_searches("WHERE s.search_key = ?", (key,))
        return found[0] if found else None

    def require_search(self, key: str | None) -> SearchInfo:
        """The search `key`, or the only search when key is None; SearchError otherwise."""
        if key is None:
            all_ = self.searches()
            if len(all_) == 1:
                return all_[0]
            if not all_:
                raise SearchError(f"no search recorded in '{self.path}'", file=str(self.path))
            raise SearchError(f"'{self.path}' holds {len(all_)} searches",
                              hint="name one: " + ", ".join(repr(s.key) for s in all_),
                              file=str(self.path))
        info = self.get_search(key)
        if info is None:
            known = ", ".join(repr(s.key) for s in self.searches()) or "none"
            raise SearchError(f"no search {key!r} in '{self.path}'", hint=f"recorded: {known}",
                              file=str(self.path))
        return info

    def create_search(self, key: str, **values: Any) -> SearchInfo:
        unknown = set(values) - set(_SEARCH_FIELDS)
        if unknown:
            raise TypeError(f"unknown search fields: {sorted(unknown)}")
        values.setdefault("started", utc_now())
        values.setdefault("status", "running")
        cols = ["search_key"] + list(values)
        vals = [key] + [(_dumps(v) if k in _JSON_SEARCH_FIELDS else v) for k, v in values.items()]
        try:
            with self._tx() as c:
                c.execute(f"INSERT INTO searches ({', '.join(cols)}) VALUES "
                          f"({', '.join('?' * len(cols))})", vals)
        except sqlite3.IntegrityError:
            raise SearchError(f"search {key!r} is already recorded in '{self.path}'",
                              hint="resume it with --resume, or use another --db",
                              file=str(self.path)) from None
        return self.get_search(key)

    def update_search(self, key: str, **values: Any) -> None:
        unknown = set(values) - set(_SEARCH_FIELDS)
        if unknown:
            raise TypeError(f"unknown search fields: {sorted(unknown)}")
        if not values:
            return
        sets = ", ".join(f"{k} = ?" for k in values)
        vals = [(_dumps(v) if k in _JSON_SEARCH_FIELDS else v) for k, v in values.items()]
        with self._tx() as c:
            c.execute(f"UPDATE searches SET {sets} WHERE search_key = ?", vals + [key])

    def delete_search(self, key: str) -> None:
        with self._tx() as c:
            row = c.execute("SELECT id FROM searches WHERE search_key = ?", (key,)).fetchone()
            if row is not None:
                c.execute("DELETE FROM evaluations WHERE search_id = ?", (row[0],))
                c.execute("DELETE FROM searches WHERE id = ?", (row[0],))

    # -- evaluations -------------------------------------------------------------------------
    def _search_id(self, key: str) -> int:
        rows = self._query("SELECT id FROM searches WHERE search_key = ?", (key,))
        row = rows[0] if rows else None
        if row is None:
            raise SearchError(f"no search {key!r} in '{self.path}'", file=str(self.path))
        return row[0]

    def add_evaluation(self, key: str, rec: EvalRecord) -> None:
        """Insert and commit one evaluation (its own transaction: durable once this returns)."""
        sid = self._search_id(key)
        # The point keeps the space's parameter order (tables, CSV); point_key is the canonical form.
        row = [rec.eval_index, _dumps(dict(rec.point), sort_keys=False), rec.point_key, rec.status, rec.time,
               _dumps(list(rec.times)), rec.spread, rec.code_hash, rec.recipe, rec.compiler,
               rec.flags, rec.device, rec.compile_time, rec.run_time, rec.error, rec.duplicate_of,
               _dumps(dict(rec.info)), rec.timestamp or utc_now()]
        try:
            with self._tx() as c:
                c.execute(f"INSERT INTO evaluations (search_id, {', '.join(_EVAL_COLUMNS)}) "
                          f"VALUES (?, {', '.join('?' * len(_EVAL_COLUMNS))})", [sid] + row)
        except sqlite3.IntegrityError:
            raise SearchError(f"evaluation {rec.eval_index} of search {key!r} is already recorded",
                              file=str(self.path)) from None

    def add_evaluations(self, key: str, recs: Iterable[EvalRecord]) -> None:
        for r in recs:
            self.add_evaluation(key, r)

    def _eval_from_row(self, row, key: str, params=None) -> EvalRecord:
        d = dict(zip(_EVAL_COLUMNS, row))
        where = f"evaluation {d['eval_index']} of search {key!r}"
        try:
            point, times, info = json.loads(d["point"]), _loads(d["times"]) or [], _loads(d["info"]) or {}
        except (TypeError, ValueError) as e:
            raise self._damaged(f"{where} holds a field that is not JSON ({e})") from None
        number = (int, float)
        checks = (("eval_index", d["eval_index"], int, False), ("point", point, dict, False),
                  ("status", d["status"], str, False), ("time", d["time"], number, True),
                  ("times", times, list, False), ("spread", d["spread"], number, True),
                  ("compile_time", d["compile_time"], number, True),
                  ("run_time", d["run_time"], number, True), ("info", info, dict, False),
                  ("duplicate_of", d["duplicate_of"], int, True))
        for name, v, kinds, optional in checks:
            if (v is None and not optional) or (v is not None and (not isinstance(v, kinds) or isinstance(v, bool))):
                raise self._damaged(f"the {name} of {where} is {_short(v)}")
        if not all(isinstance(t, number) and not isinstance(t, bool) for t in times):
            raise self._damaged(f"the times of {where} are not all numbers: {_short(times)}")
        # (a measured point without a time, or a negative one, would be reported as the best)
        if d["status"] == "ok" and not (d["time"] is not None and 0 <= d["time"] < float("inf")):
            raise self._damaged(f"the time of {where}, a measured point, is {_short(d['time'])}")
        if not all(0 <= t < float("inf") for t in times):
            raise self._damaged(f"the times of {where} are not all finite and 0 or more: {_short(times)}")
        why = off_space(point, params)
        if why:
            raise self._damaged(f"the point of {where} {why}")
        return EvalRecord(
            eval_index=d["eval_index"], point={k: _tuplify(v) for k, v in point.items()},
            point_key=d["point_key"], status=d["status"], time=d["time"], times=tuple(times),
            spread=d["spread"], code_hash=d["code_hash"], recipe=d["recipe"],
            compiler=d["compiler"], flags=d["flags"], device=d["device"],
            compile_time=d["compile_time"] or 0.0, run_time=d["run_time"] or 0.0,
            error=d["error"], duplicate_of=d["duplicate_of"], info=info, timestamp=d["timestamp"])

    def evaluations(self, key: str) -> list[EvalRecord]:
        """All evaluations of a search in eval_index order."""
        sid = self._search_id(key)
        q = f"SELECT {', '.join(_EVAL_COLUMNS)} FROM evaluations WHERE search_id = ? ORDER BY eval_index"
        # a point edited by hand out of the recorded space would otherwise be reported as the
        # best, or fail a resume only once it was written out, at the source file's line
        info = self.get_search(key)
        params = (info.space or {}).get("params") if info is not None else None
        return [self._eval_from_row(r, key, params) for r in self._query(q, (sid,))]

    def count(self, key: str) -> int:
        sid = self._search_id(key)
        return self._query("SELECT COUNT(*) FROM evaluations WHERE search_id = ?", (sid,))[0][0]
