"""The registry of searchers: built-ins by name and Orio alias, and installed plugins
(entry-point group `looptx.searchers`)."""
from __future__ import annotations

import importlib
import importlib.metadata

from looptx.errors import AnnotationError


def _same_searcher(a: str, b: str) -> bool:
    if a.lower() == b.lower():
        return True
    try:
        return get_searcher(a) is get_searcher(b)
    except AnnotationError:
        return False


_REGISTRY: dict[str, type] = {}
_BUILTINS = ("exhaustive", "random", "simplex", "annealing", "greedy_ils", "pso", "genetic", "surf")
_loaded = False


def register_searcher(cls, *aliases: str) -> type:
    """Make `cls` available under its `name` and the given aliases (case-insensitive)."""
    for alias in (cls.name, *aliases):
        _REGISTRY[alias.lower()] = cls
    return cls


def _load_builtins() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        for mod in _BUILTINS:
            importlib.import_module(f"looptx.search.{mod}")
        # Orio's MSimplex starts the simplex again from new points; looptx's simplex restarts
        # from a fresh random point at each convergence, which is the same search.
        _REGISTRY.setdefault("msimplex", _REGISTRY["simplex"])


def _entry_points():
    try:
        return list(importlib.metadata.entry_points(group="looptx.searchers"))
    except Exception:  # noqa: BLE001 - a broken installed plugin must not break the built-ins
        return []


def get_searcher(name: str) -> type:
    """The searcher class for a name: built-in or Orio name (any case), or an installed
    plugin (entry-point group `looptx.searchers`)."""
    _load_builtins()
    key = str(name).lower()
    if key == "msimplex":
        from looptx.search.options import _warn
        _warn("looptx: note: Orio's MSimplex runs as simplex, which restarts from a fresh random "
              "point at each convergence (a multi-start simplex)")
    if key in _REGISTRY:
        return _REGISTRY[key]
    for ep in _entry_points():
        if ep.name.lower() == key:
            from looptx.search.plugins import plugin_class
            return plugin_class(ep)
    if key in _ORIO_ONLY:
        raise AnnotationError(f"'{name}' is an Orio searcher ({_ORIO_ONLY[key]}) that looptx does "
                              "not provide",
                              hint="use one of: " + _usable_searchers())
    import difflib
    names = sorted(set(_REGISTRY) | {ep.name.lower() for ep in _entry_points()})
    close = difflib.get_close_matches(key, names, n=1, cutoff=0.6)
    mean = f"did you mean '{_REGISTRY[close[0]].name if close[0] in _REGISTRY else close[0]}'? " \
        if close else ""
    raise AnnotationError(f"unknown searcher '{name}'",
                          hint=mean + "available: " + _usable_searchers())


# Orio searchers with no counterpart here: refused by name rather than as a typo.
_ORIO_ONLY = {"direct": "DIviding RECTangles", "firefly": "firefly algorithm"}


def available_searchers(hidden: bool = False) -> list[str]:
    """Names of the built-in searchers (default first among equals: surf+) and plugins;
    `hidden` adds the variants kept out of the main list (randomlocal), which work all the
    same and so belong in what an unknown name is told."""
    _load_builtins()
    names = []
    # built-ins in their modules' order, whichever module a caller imported first
    rank = {f"looptx.search.{m}": k for k, m in enumerate(_BUILTINS)}
    classes = sorted(_REGISTRY.values(), key=lambda c: rank.get(c.__module__, len(rank)))
    for cls in classes:
        if (cls.listed or hidden) and cls.name not in names:
            names.append(cls.name)
    for ep in _entry_points():
        if ep.name.lower() not in {n.lower() for n in names}:      # (the first of a name is used)
            names.append(ep.name)
    return names


def _usable_searchers() -> str:
    """The names an unknown one is told of: those that load."""
    from looptx.search.plugins import broken_plugins
    broken = broken_plugins()
    return ", ".join(n for n in available_searchers(hidden=True) if n not in broken)
