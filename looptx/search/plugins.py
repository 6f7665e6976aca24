"""Searchers that installed packages add (entry-point group `looptx.searchers`): loading one,
and telling a plugin's own failure from looptx's."""
from __future__ import annotations

from looptx.errors import AnnotationError
from looptx.search.base import Searcher
from looptx.search.registry import _entry_points


def load_plugin(ep):
    """The object an entry point names.  A plugin that does not import is the plugin's fault,
    not looptx's: one line (exit 2) that says which one and what to do."""
    try:
        return ep.load()
    except Exception as e:  # noqa: BLE001 - whatever the plugin's import raises
        where, fix = _described(ep)
        raise AnnotationError(f"searcher plugin '{ep.name}' ({where}) cannot be loaded from "
                              f"module '{ep.module}': {type(e).__name__}: {e}",
                              hint=f"fix the plugin or uninstall it: {fix}") from None


def _described(ep) -> tuple[str, str]:
    """Which entry point of which package, and how to remove it."""
    dist = getattr(ep, "dist", None)
    pkg = getattr(dist, "name", None) if dist is not None else None
    where = f"entry point {ep.name} = {ep.value}" + (f" of {pkg} {dist.version}" if pkg else "")
    return where, f"pip uninstall {pkg}" if pkg else "remove its entry point"


def plugin_class(ep) -> type:
    cls = load_plugin(ep)
    if not (isinstance(cls, type) and issubclass(cls, Searcher)):
        raise AnnotationError(f"searcher plugin '{ep.name}' ({ep.value}) is not a "
                              "looptx Searcher subclass",
                              hint="subclass looptx.search.base.Searcher")
    missing = sorted(getattr(cls, "__abstractmethods__", ()))
    if missing:
        # (probe 225 G2: a plugin with `propose` for `_propose` was looptx's internal error)
        where, fix = _described(ep)
        raise AnnotationError(f"searcher plugin '{ep.name}' ({where}) does not define "
                              f"{', '.join(missing)}, which a Searcher must",
                              hint=f"fix the plugin (define {missing[0]}(self, n), as looptx.search.base."
                                   f"Searcher says) or uninstall it: {fix}")
    if not getattr(cls, "name", ""):
        cls.name = ep.name
    return cls


def broken_plugins() -> dict[str, str]:
    """name -> what is wrong, for each installed searcher plugin that cannot be loaded (what
    --list-searchers warns about; a search never loads a plugin it does not use)."""
    from looptx.search.registry import _REGISTRY, _load_builtins
    _load_builtins()
    out = {}
    for ep in _entry_points():
        if ep.name.lower() in _REGISTRY:
            continue
        try:
            plugin_class(ep)
        except AnnotationError as e:
            out[ep.name] = f"{e.what} ({e.hint})"
    return out


def shadowed_plugins() -> list[str]:
    """What is wrong with each entry point that a name given to -a never reaches: one named as a
    built-in searcher, or as an earlier plugin (names are read in any case)."""
    from looptx.search.registry import _REGISTRY, _load_builtins
    _load_builtins()
    out, seen = [], {}
    for ep in _entry_points():
        key = ep.name.lower()
        if key in _REGISTRY:
            out.append(f"searcher plugin '{ep.name}' ({ep.value}) is never used: the built-in searcher "
                       f"'{_REGISTRY[key].name}' has that name (rename the entry point)")
        elif key in seen:
            out.append(f"searcher plugin '{ep.name}' ({ep.value}) is never used: '{seen[key].name}' "
                       f"({seen[key].value}) has that name, read in any case (rename one entry point)")
        else:
            seen[key] = ep
    return out


def plugin_fault(error: BaseException) -> str | None:
    """The one line for an exception a plugin searcher's own code raised (its class is not
    looptx's, and the innermost searcher frame of the traceback is its method); else None: a
    plugin's bug is its author's to fix, not one to report to looptx."""
    tb, culprit = error.__traceback__, None
    while tb is not None:
        obj = tb.tb_frame.f_locals.get("self")
        cls = type(obj)
        if isinstance(obj, Searcher) and not cls.__module__.startswith("looptx."):
            culprit = cls
        tb = tb.tb_next
    if culprit is None:
        return None
    where = f"{culprit.__module__}:{culprit.__qualname__}"
    dist = _distribution(culprit.__module__)
    return (f"looptx: searcher plugin '{culprit.name}' ({where}{' of ' + dist if dist else ''}) raised "
            f"{type(error).__name__}: {error} (fix the plugin or use another searcher; "
            "rerun with --debug for a traceback)")


def _distribution(module: str) -> str | None:
    for ep in _entry_points():
        if str(getattr(ep, "module", "")).split(".")[0] == module.split(".")[0]:
            dist = getattr(ep, "dist", None)
            if dist is not None and getattr(dist, "name", None):
                return f"{dist.name} {dist.version}"
    return None
