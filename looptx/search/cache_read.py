"""Reading a Kernel Tuner cache file as it is found in the wild, and matching its records to
the points of its parameters.

Kernel Tuner appends to a cache while it tunes, so a file may be unfinished (open), hold a
key twice (two sessions appending to one file), or hold records whose values are only in
their key; a file saved by a Windows editor starts with a BOM.  Each is read the way Kernel
Tuner reads it, and what it would drop silently is said in a note."""
from __future__ import annotations

import codecs
import json
import math
import os
import zlib
from collections import Counter
from collections.abc import Mapping

from looptx.errors import AnnotationError, note_once
from looptx.search.replay_checks import is_gzip, t4_as_cache
from looptx.search.space import Param, Point, Space, infer_kind


def read_json(path: str | os.PathLike, what: str = "a Kernel Tuner cache (.json or .json.gz)") -> dict:
    path = str(path)
    if _is_sqlite(path):
        return _results_db_cache(path)
    try:
        cut = False
        if is_gzip(path):
            text, cut = _gunzipped(path)
        else:
            # utf-8-sig also reads a file without a BOM
            with open(path, "rt", encoding="utf-8-sig") as f:
                text = f.read()
        try:
            data, repeated = _loads(text)
        except json.JSONDecodeError as first:
            try:
                data, repeated = _read_open_cache(text, first, path, what)
            except AnnotationError as e:
                if cut:
                    e.hint = f"the gzip stream ends early, in line {e.line} of the uncompressed text: copy " \
                             "the file again once it is written, or replay a complete one"
                raise
    except FileNotFoundError:
        raise AnnotationError("file not found", hint="check the path", file=path) from None
    except (OSError, ValueError, EOFError) as exc:
        raise AnnotationError(f"not a readable JSON file ({exc})", hint=f"give {what}", file=path) from None
    if not isinstance(data, dict):
        raise AnnotationError("expected a JSON object", hint=f"give {what}", file=path)
    if repeated:
        key, n = next(iter(repeated.items()))
        more = f" (and {len(repeated) - 1} more repeated keys)" if len(repeated) > 1 else ""
        note_once(path, None, f"the key '{key}' appears {n} times in the cache{more}; the last record "
                  "of each is used, as Kernel Tuner reads it")
    if "cache" not in data and isinstance(data.get("results"), list):
        return t4_as_cache(data, path)
    return data


def _gunzipped(path: str) -> tuple[str, bool]:
    """The text of a gzip file, also of one cut short (a copy of a cache still being written):
    what its stream holds up to the cut, which the reader then takes as an unfinished cache."""
    with open(path, "rb") as f:
        raw = f.read()
    chunks, cut = [], False
    while raw:                          # (each member of a concatenated gzip)
        d = zlib.decompressobj(wbits=31)
        chunks.append(d.decompress(raw))
        if not d.eof:
            cut = True
            break
        raw = d.unused_data
    # a cut inside a character leaves its first bytes, which are dropped
    text = codecs.getincrementaldecoder("utf-8-sig")().decode(b"".join(chunks), final=not cut)
    if cut:
        note_once(path, None, "the gzip stream ends early (a file still being written, or cut "
                  "short): what it holds up to there is read")
    return text, cut


def _is_sqlite(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(16) == b"SQLite format 3\0"
    except OSError:
        return False


def _results_db_cache(path: str) -> dict:
    """A looptx results database replays as the Kernel Tuner cache `looptx report
    --kernel-tuner` would write of it (failures included)."""
    from looptx.search.db import SearchError
    from looptx.search.report import kernel_tuner_document
    try:
        return kernel_tuner_document(path)
    except SearchError as e:
        if e.what.startswith(f"'{path}' holds "):      # several searches: which one to replay
            raise AnnotationError(f"{e.what}: a replay takes one", file=path,
                                  hint=f"write one as a cache, `looptx report {path} --search KEY "
                                       "--kernel-tuner CACHE.json`, and replay that; "
                                       + (e.hint or "")) from None
        raise


def _loads(text: str) -> tuple[object, dict[str, int]]:
    """The JSON value, and the keys its `cache` object holds more than once with their counts:
    json keeps the last of them without a word, and the first is a measurement too."""
    repeated = []

    def pairs(items):
        obj = dict(items)
        if len(obj) < len(items):
            repeated.append((obj, Counter(k for k, _ in items)))
        return obj

    data = json.loads(text, object_pairs_hook=pairs)
    cache = data.get("cache") if isinstance(data, dict) else None
    for obj, counts in repeated:
        if obj is cache:
            return data, {k: n for k, n in counts.items() if n > 1}
    return data, {}


def _read_open_cache(text: str, first: json.JSONDecodeError, path: str, what: str):
    """Kernel Tuner appends each result to its cache as one line `"key": {...},` as it is
    measured and closes the JSON only when tuning ends, so an interrupted (or still running)
    session leaves `...},` without the final `}\n}`; Kernel Tuner reads such a file as if
    closed, and so does this.  A session killed in the middle of a write leaves a partial last
    line, which Kernel Tuner's reader (util.read_cache) fails on too (only a cut just before the
    comma, a whole entry, reads); deleting that line makes the file readable by both."""
    body = text.rstrip()
    last = body.rfind("\n") + 1
    line = body.count("\n", 0, last) + 1
    try:
        return _parse_closed(text)
    except json.JSONDecodeError:
        if last and first.pos >= last and _is_open_cache(body[:last]):
            gz = " of the uncompressed file" if is_gzip(str(path)) else ""
            raise AnnotationError("the cache ends in a partly written entry (Kernel Tuner was stopped "
                                  "while writing it)", hint=f"delete the partial last line, line {line}{gz}; "
                                  "the entries before it are complete", file=path, line=line,
                                  col=1) from None
        raise AnnotationError(f"not a readable JSON file ({first.msg})", file=path, line=first.lineno,
                              col=first.colno, hint=f"give {what}") from None


def _is_open_cache(text: str) -> bool:
    try:
        return isinstance(_parse_closed(text)[0], dict)
    except ValueError:
        return False


def _parse_closed(text: str):
    """The open cache `text` closed as Kernel Tuner would close it.  A text ending in `}}}` may
    be closed already, or be open after a last entry whose last field is an object (no comma
    follows the last entry of a session that Kernel Tuner itself cut): both are tried."""
    text = text.strip()
    if not text:
        raise json.JSONDecodeError("empty", text, 0)
    tries = [text] if text[-3:] in ("}\n}", "}}}") else []
    tries.append((text[:-1] if text.endswith(",") else text) + "}\n}")
    for candidate in tries[:-1]:
        try:
            return _loads(candidate)
        except json.JSONDecodeError:
            pass
    return _loads(tries[-1])


def hashable(value):
    """Kernel Tuner accepts any JSON value as a parameter value (its own tests use {}); looptx
    keys points by value, so objects are kept as their JSON text."""
    if isinstance(value, dict) or (isinstance(value, list) and "{" in json.dumps(value)):
        return json.dumps(value, sort_keys=True)
    return value


def widen(params: list[Param], points: list[Point]) -> list[Param]:
    """Values that records hold but the header's `tune_params` does not (a later session that
    reused the cache with longer lists) join their parameter, so those records are not lost."""
    header = Space(params)
    points = [header.normalize(pt) for pt in points]
    out = []
    for p in params:
        seen = list(p.values)
        known = set(seen)
        for pt in points:
            v = pt[p.name]
            if v not in known:
                known.add(v)
                seen.append(v)
        if len(seen) > len(p.values) and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                            for v in seen):
            seen.sort()
        out.append(p if len(seen) == len(p.values) else
                   Param(p.name, tuple(seen), infer_kind(seen) if p.kind != "permutation" else p.kind,
                         p.slots))
    return out


def record_point(rec: Mapping, key: str, params: list[Param]) -> Point | None:
    """The point of a record: its parameter fields, else its key; None where neither names one."""
    if all(p.name in rec for p in params):
        return {p.name: hashable(rec[p.name]) for p in params}
    return _key_point(key, params)


def record_doubts(rec: Mapping, key: str, params: list[Param]) -> str | None:
    """What is odd in a record whose point is read anyway: fields that differ from what its
    key reads as (the fields win), or parameter fields it lacks (the key gives them)."""
    missing = [p.name for p in params if p.name not in rec]
    if missing:
        return f"lacks the field{'s' if len(missing) > 1 else ''} {', '.join(missing)} (read from its key)"
    by_key = _key_point(key, params)
    fields = {p.name: hashable(rec[p.name]) for p in params}
    differ = [n for n in fields if by_key is not None and _same(fields[n]) != _same(by_key[n])]
    if differ:
        return "holds " + ", ".join(f"{n}={fields[n]!r}" for n in differ) + \
               f" where its key reads {', '.join(f'{n}={by_key[n]!r}' for n in differ)} (its fields are used)"
    return None


def _same(value):
    # JSON keeps a mapping param's tuple as a list
    return tuple(map(_same, value)) if isinstance(value, (list, tuple)) else value


def _key_texts(value) -> list[str]:
    """How a key may spell `value`: Kernel Tuner joins str() of the values as it tuned them, so
    an object (kept here as its JSON text, `hashable`) reads as Python's repr, {'a': 1}, and a
    list (kept as a tuple) as [16, 1]; looptx's own caches write str() of the tuple."""
    texts = [str(value)]
    if isinstance(value, tuple):
        texts.append(str(list(value)))
    elif isinstance(value, str) and value[:1] in "{[":
        try:
            texts.append(str(json.loads(value)))
        except ValueError:
            pass
    return texts


def _key_point(key: str, params: list[Param]) -> Point | None:
    # Kernel Tuner's key joins str() of the values with commas; a tuple value has commas of
    # its own ("(16, 1),1"), so the key is matched value by value, not split
    def match(rest: str, k: int):
        if k == len(params):
            return {} if rest == "" else None
        for v in params[k].values:
            for text in _key_texts(v):
                if rest == text and k == len(params) - 1 or rest.startswith(text + ","):
                    tail = match(rest[len(text) + 1:], k + 1)
                    if tail is not None:
                        return {params[k].name: v, **tail}
        return None
    point = match(key, 0)
    return point if point is not None else _key_with_new_values(key, params)


def _key_with_new_values(key: str, params: list[Param]) -> Point | None:
    """A key that holds a value the header does not list (a later session tuned longer lists):
    the value is read as its parameter's type, so `widen` adds it as it does for a record that
    has the value in its fields.  Only plain numbers and strings are read this way; a value
    that cannot be told apart from its neighbours in the key leaves the record out."""
    pieces = key.split(",")
    if len(pieces) != len(params):
        return None
    point = {}
    for p, text in zip(params, pieces):
        known = [v for v in p.values if text in _key_texts(v)]
        if known:
            point[p.name] = known[0]
            continue
        if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in p.values):
            try:
                v = json.loads(text) if text.strip() == text else None
            except ValueError:
                return None
            if not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v):
                return None
            point[p.name] = next((u for u in p.values if u == v), v)
        elif all(isinstance(v, str) for v in p.values) and text.strip() == text and text:
            point[p.name] = text
        else:
            return None
    return point
