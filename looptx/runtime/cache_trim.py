"""Keeps the build cache (runtime/cpu.cache_dir) under a size: each search fills it with a
library per variant, and nothing else removes them.  Past `LOOPTX_CACHE_MAX_MB` (default
2048), the builds used longest ago go first, down to three quarters of it; a build used in
the last day stays, as another looptx may be about to load it.  The folder is looked at most
once an hour (a stamp file records when), from the process that adds a build."""
from __future__ import annotations

import os
import time

DEFAULT_MAX_MB = 2048
_STAMP = ".last_trim"
_KEEP_S = 86400.0
_EVERY_S = 3600.0


def limit_bytes() -> int | None:
    """The cache's size limit; None where `LOOPTX_CACHE_MAX_MB` is 0 (no limit) or unreadable."""
    text = os.environ.get("LOOPTX_CACHE_MAX_MB", "").strip()
    try:
        mb = float(text) if text else DEFAULT_MAX_MB
    except ValueError:
        return None
    return int(mb * 2 ** 20) if mb > 0 else None


def touch(path: str) -> None:
    """A build found in the cache counts as used now (its atime may not be kept: noatime)."""
    try:
        os.utime(path)
    except OSError:
        pass


def maybe_trim(folder: str, now: float | None = None) -> int:
    """Trims `folder` when its stamp is older than an hour; the bytes removed."""
    now = time.time() if now is None else now
    stamp = os.path.join(folder, _STAMP)
    try:
        if now - os.stat(stamp).st_mtime < _EVERY_S:
            return 0
    except OSError:
        pass
    try:
        with open(stamp, "w"):
            pass
        os.utime(stamp, (now, now))
    except OSError:
        return 0
    limit = limit_bytes()
    return trim(folder, limit, now) if limit is not None else 0


def trim(folder: str, limit: int, now: float) -> int:
    """Removes the builds (a `lx_<key>.so` with its `.c`) used longest ago until the folder
    holds at most three quarters of `limit`, if it holds more than `limit`."""
    builds: dict[str, list] = {}
    total = 0
    with os.scandir(folder) as entries:
        for e in entries:
            if not e.name.startswith("lx_") or not e.is_file(follow_symlinks=False):
                continue
            st = e.stat(follow_symlinks=False)
            total += st.st_size
            key = e.name.split(".")[0]
            entry = builds.setdefault(key, [0.0, 0, []])
            entry[0] = max(entry[0], st.st_mtime)
            entry[1] += st.st_size
            entry[2].append(e.path)
    if total <= limit:
        return 0
    removed = 0
    for used, size, paths in sorted(builds.values(), key=lambda b: b[0]):
        if total - removed <= 0.75 * limit or now - used < _KEEP_S:
            break
        for p in paths:
            try:
                os.unlink(p)
            except OSError:
                pass
        removed += size
    return removed
