"""SQLite store of searches and their evaluations (one file, several searches).

A search is identified by a key chosen by the caller (e.g. "mm.c|N=512|cuda"); each evaluation is
one row, inserted and committed as soon as it completes, so killing the search process loses at
most what was in flight.  Rows are never updated; the search row holds the searcher's latest
state (JSON) for resuming.  The schema is plain SQL so the file can be explored with `sqlite3`.
"""
from __future__ import annotations

import datetime as _dt
import json
import os
import sqlite3
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Iterable, Mapping

from looptx.errors import LooptxError

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


def default_db_path(input_file: str | os.PathLike) -> Path:
    """`dir/mm.c` -> `dir/mm.looptx.db` (the CLI default)."""
    p = Path(input_file)
    return p.with_name(p.stem + ".looptx.db") if p.suffix else p.with_name(p.name + ".looptx.db")


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
        folder = self.path.parent
        if create and not self.path.exists() and not folder.is_dir():
            # sqlite says only 'unable to open database file'
            raise SearchError(f"cannot create the results database '{self.path}': the folder "
                              f"'{folder}' does not exist",
                              hint="create the folder first, or give another --db", file=str(path))
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
            if row is None or int(row[0]) != SCHEMA_VERSION:
                raise sqlite3.DatabaseError(f"schema version {row and row[0]}, expected "
                                            f"{SCHEMA_VERSION}")
            return
        if not create:
            raise sqlite3.DatabaseError("empty database")
        with self._tx():
            for stmt in _SCHEMA.split(";"):
                if stmt.strip():
                    c.execute(stmt)
            c.execute("INSERT OR IGNORE INTO looptx_meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))

    class _Tx:
        def __init__(self, conn):
            self.conn = conn

        def __enter__(self):
            self.conn.execute("BEGIN IMMEDIATE")
            return self.conn

        def __exit__(self, et, ev, tb):
            self.conn.execute("ROLLBACK" if et else "COMMIT")

    def _tx(self):
        return ResultsDB._Tx(self._conn)

    def close(self) -> None:
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
        kw = {k: (_loads(d[k]) if k in _JSON_SEARCH_FIELDS else d[k]) for k in _SEARCH_FIELDS}
        return SearchInfo(key=d["search_key"], id=d["id"], n_evals=row[len(cols)], **kw)

    def _select_searches(self, where: str = "", args: tuple = ()) -> list[SearchInfo]:
        cols = ", ".join(["s.id", "s.search_key"] + [f"s.{f}" for f in _SEARCH_FIELDS])
        q = (f"SELECT {cols}, (SELECT COUNT(*) FROM evaluations e WHERE e.search_id = s.id) "
             f"FROM searches s {where} ORDER BY s.id")
        return [self._search_from_row(r) for r in self._conn.execute(q, args)]

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
        row = self._conn.execute("SELECT id FROM searches WHERE search_key = ?", (key,)).fetchone()
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

    @staticmethod
    def _eval_from_row(row) -> EvalRecord:
        d = dict(zip(_EVAL_COLUMNS, row))
        point = {k: _tuplify(v) for k, v in json.loads(d["point"]).items()}
        return EvalRecord(
            eval_index=d["eval_index"], point=point, point_key=d["point_key"], status=d["status"],
            time=d["time"], times=tuple(_loads(d["times"]) or ()), spread=d["spread"],
            code_hash=d["code_hash"], recipe=d["recipe"], compiler=d["compiler"],
            flags=d["flags"], device=d["device"], compile_time=d["compile_time"] or 0.0,
            run_time=d["run_time"] or 0.0, error=d["error"], duplicate_of=d["duplicate_of"],
            info=_loads(d["info"]) or {}, timestamp=d["timestamp"])

    def evaluations(self, key: str) -> list[EvalRecord]:
        """All evaluations of a search in eval_index order."""
        sid = self._search_id(key)
        q = f"SELECT {', '.join(_EVAL_COLUMNS)} FROM evaluations WHERE search_id = ? ORDER BY eval_index"
        return [self._eval_from_row(r) for r in self._conn.execute(q, (sid,))]

    def count(self, key: str) -> int:
        sid = self._search_id(key)
        return self._conn.execute("SELECT COUNT(*) FROM evaluations WHERE search_id = ?",
                                  (sid,)).fetchone()[0]
