"""The build cache stays under its size limit: the builds used longest ago go first, and one
used in the last day stays (another looptx may be about to load it)."""
import os

from looptx.runtime import cache_trim
from looptx.runtime.cpu import Toolchain, build_shared


def _build(folder, key, size, age, now):
    for ext in (".c", ".so"):
        p = folder / f"lx_{key}{ext}"
        p.write_bytes(b"x" * (size // 2))
        os.utime(p, (now - age, now - age))


def test_trim_removes_the_oldest_builds_down_to_three_quarters(tmp_path):
    now = 1_000_000_000.0
    for k, age in enumerate((9, 8, 7, 6, 5)):
        _build(tmp_path, f"k{k}", 1000, age * 86400, now)
    _build(tmp_path, "fresh", 1000, 60, now)
    removed = cache_trim.trim(str(tmp_path), 4000, now)
    left = sorted(p.name for p in tmp_path.iterdir())
    assert removed == 3000 and left == ["lx_fresh.c", "lx_fresh.so", "lx_k3.c", "lx_k3.so", "lx_k4.c", "lx_k4.so"]
    assert cache_trim.trim(str(tmp_path), 4000, now) == 0          # under the limit: nothing


def test_a_build_of_the_last_day_is_kept_over_the_limit(tmp_path):
    now = 1_000_000_000.0
    for k in range(4):
        _build(tmp_path, f"k{k}", 1000, 3600 * (k + 1), now)
    assert cache_trim.trim(str(tmp_path), 1000, now) == 0 and len(list(tmp_path.iterdir())) == 8


def test_builds_trim_at_most_once_an_hour_and_hits_count_as_use(tmp_path, monkeypatch):
    monkeypatch.setenv("LOOPTX_CACHE_MAX_MB", "0.001")          # about 1 kB
    now = 1_000_000_000.0
    _build(tmp_path, "old", 4000, 3 * 86400, now)
    assert cache_trim.maybe_trim(str(tmp_path), now) == 4000
    _build(tmp_path, "old2", 4000, 3 * 86400, now)
    assert cache_trim.maybe_trim(str(tmp_path), now + 60) == 0     # stamped a minute ago
    assert cache_trim.maybe_trim(str(tmp_path), now + 7200) == 4000
    monkeypatch.setenv("LOOPTX_CACHE_MAX_MB", "0")
    _build(tmp_path, "old3", 4000, 3 * 86400, now)
    assert cache_trim.maybe_trim(str(tmp_path), now + 3 * 7200) == 0
    tc = Toolchain(compiler="gcc", flags=("-O1",))
    src = "void f(double *a) { a[0] = 1.0; }\n"
    first = build_shared(src, tc, cache=str(tmp_path / "b"))
    assert first.ok and not first.cached
    os.utime(first.path, (now, now))
    again = build_shared(src, tc, cache=str(tmp_path / "b"))
    assert again.cached and os.stat(again.path).st_mtime > now
