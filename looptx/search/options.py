"""Searcher options for `looptx search`: from the annotation's `def search` and from
`--option KEY=VALUE` on the command line (which wins), checked by the searcher that gets them.

Warnings about options that looptx accepts but does not use are queued and printed only once
the input is known to be good (`flush_warnings`): a bad input prints its one error line alone.
"""
from __future__ import annotations

import re
import sys
from typing import Any, Mapping

from looptx.errors import AnnotationError, LooptxError

# `def search` args that are settings of the search itself, not of a searcher: each has its own
# command-line option.
STANDARD = {"algorithm": "--algorithm", "total_runs": "--budget", "time_limit": "--time-limit",
            "seed": "--seed", "resume": "--resume", "batch_size": "--batch-size",
            "workers": "--workers"}
# Orio search args with nothing to do here (Z3 constraint solving, CUDA instruction-mix
# statistics): accepted so that Orio files run, with a warning.
ORIO_ONLY = {"use_z3", "cudacfg_instmix"}

# Stored next to a search's options in the results database: the searcher's options_version
# when they were recorded (absent: version 1).
VERSION_KEY = "_options_version"

_queued: list[str] = []
_said: set[str] = set()       # printed already in this command (a resume of several sizes)


def reset_warnings() -> None:
    _queued.clear()
    _said.clear()


def flush_warnings() -> None:
    for line in _queued:
        print(line, file=sys.stderr)
    _said.update(_queued)
    _queued.clear()


def _warn(line: str) -> None:
    if line not in _queued and line not in _said:
        _queued.append(line)


queue_warning = _warn      # for the search command's own warnings (flushed with these)


def parse_option_args(items: list[str] | None) -> dict[str, tuple[Any, str]]:
    """`--option KEY=VALUE` items -> {KEY: (value, the item as written)}.  VALUE is read by the
    annotation's safe evaluator (1, 0.5, [1, 2], True, 'ts'); a value that names something
    (a bare word such as ts, or align,pairs) is the text itself."""
    from looptx.frontend.expr import compile_expr
    out: dict[str, tuple[Any, str]] = {}
    for item in items or []:
        key, sep, text = item.partition("=")
        key = key.strip()
        if not sep or not key.isidentifier():
            raise LooptxError(f"bad --option '{item}'", hint="write --option KEY=VALUE, e.g. "
                              "--option cooling_factor=0.9")
        if key.lower() in STANDARD:
            raise LooptxError(f"--option {item}: '{key}' is not a searcher option",
                              hint=f"use {STANDARD[key.lower()]}")
        try:
            expr = compile_expr(text)
            value = text.strip() if expr.names else expr({})
        except AnnotationError as e:
            raise LooptxError(f"bad --option '{item}': {e.what}",
                              hint="VALUE is a Python literal, e.g. 2, 0.5, [1, 2], True or "
                                   "'text'") from None
        out[key] = (value, item)
    return out


def options_for(cls, options: Mapping[str, Any], spec=None) -> dict:
    """The annotation's search options that concern `cls`: an option prefixed with another
    searcher's name (`annealing_cooling_factor` while `--algorithm random` overrides the spec)
    is dropped with a warning; anything else is for `cls` to accept or reject."""
    from looptx.search.registry import get_searcher
    kept, dropped = {}, {}
    for key, value in options.items():
        if key.lower() in ORIO_ONLY:
            _warn(_where(spec, key) + f"warning: Orio's search option {key} has no effect in "
                  "looptx; ignored")
            continue
        parts = key.lower().split("_")
        other = None
        for n in range(len(parts) - 1, 0, -1):
            try:
                c = get_searcher("_".join(parts[:n]))
            except LooptxError:
                continue
            other = c if c is not cls else None
            break
        if other is not None:
            dropped.setdefault(other.name, []).append(key)
            continue
        # the options of the annotation's own algorithm, one looptx does not have (Orio's
        # `dlmt_steps` of algorithm 'DLMT'), which the command line replaced
        named = str(dict(getattr(spec, "search", None) or {}).get("algorithm") or "")
        if named and parts[0] == named.lower() and len(parts) > 1 and not _known_searcher(named):
            dropped.setdefault(named, []).append(key)
            continue
        kept[key] = value
    for name, keys in dropped.items():
        _warn(_where(spec, keys[0]) + f"warning: option{'s' if len(keys) > 1 else ''} {', '.join(keys)} "
              f"of searcher '{name}' ignored by '{cls.name}'")
    return kept


def _known_searcher(name: str) -> bool:
    from looptx.search.registry import get_searcher
    try:
        get_searcher(name)
        return True
    except LooptxError:
        return False


def with_command_line(cls, options: Mapping[str, Any], given: Mapping[str, tuple[Any, str]],
                      spec=None) -> dict:
    """The annotation's options with the command line's on top (an option the command line
    sets, under whatever spelling, is taken from the command line only); warns about the ones
    that `cls` accepts and ignores."""
    def canon(raw):
        return cls.canonical_option(raw) or raw.lower()
    cli = {}
    for key, (value, item) in given.items():
        if key.lower() in ORIO_ONLY:
            _warn(f"looptx: warning: --option {item}: Orio's search option {key} has no effect "
                  "in looptx; ignored")
            continue
        cli[key] = value
    mine = {canon(k) for k in cli}
    merged = {k: v for k, v in options.items() if canon(k) not in mine}
    merged.update(cli)
    for raw, why in cls.ignored_options(merged):
        where = f"looptx: warning: --option {given[raw][1]}: " if raw in cli else _where(spec, raw) + "warning: "
        _warn(f"{where}option '{raw}' has no counterpart in searcher '{cls.name}' ({why}); ignored")
    return merged


def _where(spec, raw: str) -> str:
    if spec is None:
        return "looptx: "
    w = spec.where("search", raw)
    return ":".join(str(x) for x in (w.get("file") or spec.file, w.get("line"), w.get("col"))
                    if x is not None) + ": "


def locate_option(e: LooptxError, cls, spec=None,
                  given: Mapping[str, tuple[Any, str]] | None = None) -> LooptxError:
    """A searcher's error about one of its options, located at the `--option` or the `arg`
    that sets it."""
    m = re.search(r"option '([^']+)'", e.what)
    name = m.group(1).lower() if m else None
    if name is not None:
        for key, (_, item) in (given or {}).items():
            if key.lower() == name or cls.canonical_option(key) == name:
                e.what = f"--option {item}: {e.what}"
                return e
    if spec is None:
        return e
    if name is not None:
        for raw in spec.search:
            r = raw.lower()
            if r == name or r.endswith("_" + name):
                return e.located(**spec.where("search", raw))
    return e.located(file=spec.file, line=spec.line)


def options_to_record(cls, options: Mapping[str, Any]) -> dict:
    """`options` as the results database keeps them: with the meaning they have today."""
    out = dict(options)
    if getattr(cls, "options_version", 1) > 1:
        out[VERSION_KEY] = cls.options_version
    return out


def recorded_options(cls, stored: Mapping[str, Any] | None) -> dict:
    """Options a results database kept for searcher `cls`, read with today's meaning."""
    given = dict(stored or {})
    version = given.pop(VERSION_KEY, 1)
    upgrade = getattr(cls, "upgrade_options", None)
    return upgrade(given, int(version)) if upgrade is not None else given
