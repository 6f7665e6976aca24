"""`looptx run`: build, validate and time one variant and the original of one region with the
C backend's evaluator (runtime/evaluators.py); with -D, the code for variable sizes is checked
at those sizes too."""
from __future__ import annotations

import copy
import dataclasses
import re
import os
from typing import Any, Mapping

from looptx.errors import LooptxError, note_once, notes_muted
from looptx.frontend.names import to_user
from looptx.runtime.cpu import RegionRun, build_shared, compiler_version, time_region
from looptx.runtime.verbatim import verbatim_problem
from looptx.runtime.evaluators import CEvaluator, CPayload, _code_hash, original_fails_text, original_source
from looptx.search.evaluate import Prepared, summarize_times

def run_once(path: str, recipe=None, *, defines: Mapping[str, int] | None = None,
             function: str | None = None, bindings: Mapping[str, Any] | None = None,
             repetitions: int = 5, region: int = 0, cflags: str = "-O3",
             build_command: str | None = None, seed: int = 0, rtol: float | None = None,
             unsafe: bool = False, isolate: bool = True, timeout: float = 600.0,
             extra_decls: str | None = None) -> dict:
    """Build, validate and time one variant and the original of one region.

    `recipe`: None (the region's annotation, its params bound from `bindings` or the first
    valid point of the tuning spec), a recipe path/name, or a `Recipe`.  Bad input (an illegal or
    malformed recipe, missing sizes) raises LooptxError, as in `looptx transform`.  The returned
    dict: status ('ok' | 'compile_error' | 'wrong_result' | 'unvalidated' (the variant agrees
    with an original whose results hold NaN/Inf on every data set) | 'crash' | 'timeout' |
    'runtime_error'), error, times, median, spread, max_rel_error, original_times,
    original_median, speedup (original median / variant median, both built with the same flags
    and measured in this call), compiler, flags, recipe (applied text), regions (how many the
    file has).  With `isolate` the builds and runs happen in a child process, so a crashing
    variant yields status 'crash' instead of killing the caller."""
    from looptx.pipeline import default_bindings
    from looptx.recipe.schema import Recipe, find_recipe, load_file

    defines = dict(defines or {})
    ev = CEvaluator(path, sizes=defines, function=function, cflags=cflags,
                    build_command=build_command, repetitions=repetitions, seed=seed, rtol=rtol,
                    region=region, unsafe=unsafe, timeout=timeout, extra_decls=extra_decls)
    prog = ev.program()
    # missing sizes / bad region: bad input, raised here, and so are sizes too big for memory
    from looptx.runtime.inputs import fits_in_memory
    fits_in_memory(ev.signature())
    if bindings is None:
        bindings = default_bindings(prog, region) if recipe is None else {}
    rec = None
    if isinstance(recipe, Recipe):
        rec = recipe
    elif recipe is not None:
        rec = load_file(find_recipe(str(recipe), os.path.dirname(ev.path)), dict(bindings))
    try:
        payload, applied = ev.build(dict(bindings), rec)
    except LooptxError as e:
        from looptx.pipeline import at_point
        at_point(e, bindings if recipe is None else None)
        raise
    _refuse_broken_macro_facts(ev, dict(bindings), rec, payload)
    if isolate:
        import tempfile
        from looptx.runtime.worker import run_isolated
        with tempfile.NamedTemporaryFile("r", prefix="looptx-phase-") as phase:
            r = run_isolated(_run_once_measure, ev, payload, phase.name, timeout=timeout)
            stage = phase.read().strip()
        if r.ok:
            out = r.value
        else:
            status = r.status if r.status in ("crash", "timeout") else "runtime_error"
            out = {"status": status, "error": r.error + (f" while running {stage}" if stage else "")}
    else:
        out = _run_once_measure(ev, payload)
    base = {"status": None, "error": None, "times": (), "median": None, "spread": None,
            "max_rel_error": None, "original_times": (), "original_median": None,
            "speedup": None, "compile_time": 0.0}
    base.update(out)
    if base.get("constant"):
        # results of one value: the comparison proved little (runtime/reference.py)
        note_once(path, prog.scops[region].region_span[0] or None, base.pop("constant"), kind="warning")
    if base["status"] == "ok" and defines:
        problem = _symbolic_problem(ev, dict(bindings), rec, payload, isolate, timeout)
        if problem is not None:
            base.update(zip(("status", "error"), problem))
    base.update({"compiler": compiler_version(payload.toolchain.compiler),
                 "flags": payload.toolchain.flags_text, "recipe": applied,
                 "regions": len(prog.scops), "region": region, "sizes": dict(defines),
                 "code_hash": _code_hash(payload)})
    return base


def _refuse_broken_macro_facts(ev: CEvaluator, bindings, rec, payload: CPayload) -> None:
    """A known fact on #defined sizes (`N % 4 == 0`) that the sizes this run builds with break
    (an #ifndef default of 10): the output stops such a build with #error, so there is no code
    to validate; run says so, as it does for a -D that breaks it, instead of a wrong result."""
    variant = ev.variant(bindings, rec)[0]
    scop = variant.scop
    if not scop.macro_facts:
        return
    values = {p: v for p, v in payload.signature.values if p in scop.params}
    if not variant.context.intersect_params(scop.params_where(f"{p} = {int(v)}" for p, v in values.items())).is_empty():
        return
    sizes = ", ".join(f"{to_user(p)}={v}" for p, v in values.items())
    raise LooptxError(f"the known facts {', '.join(scop.macro_facts)} do not hold at the sizes this run builds "
                      f"with ({sizes}), and the output stops such a build with #error",
                      hint="give sizes that meet them with --define, or drop the facts",
                      file=rec.file if rec is not None and rec.file else ev.path,
                      line=next((st.line for st in rec.steps if st.name == "known"), None) if rec is not None else None)


def _symbolic_problem(ev: CEvaluator, bindings, rec, fixed: CPayload, isolate: bool,
                      timeout: float) -> tuple[str, str] | None:
    """The status and what is wrong, at the given sizes, with the code `looptx transform` writes without -D,
    where the sizes the file declares are variables: it is not the code for fixed sizes that
    run measured (isl simplifies bounds and guards differently).  None when it is right, when
    there is no such code (the region needs its sizes fixed), or when at these sizes it runs
    the region as written (a runtime fact fails)."""
    from looptx.pipeline import fragment_inputs
    sev = copy.copy(ev)
    sev.symbolic, sev.repetitions = tuple(fragment_inputs(ev.path, None)[1]), 1
    try:
        with notes_muted():
            payload, _ = sev.build(bindings, rec)
            scop = sev.program().scops[sev.region]
            # a step may take a #define at its value too (a copy's buffer, a full unroll), and
            # make its code for a fact of its own (a reordered pair of rows: poly/row_leave.py)
            made = sev.variant(bindings, rec)[0].scop
            baked = made.baked
    except LooptxError as e:
        # said, or a user who validated with -D meets the refusal only at `looptx transform`
        if e.step is not None:
            note_once(e.file or ev.path, e.line, f"without -D, `looptx transform` refuses this recipe (step "
                      f"{e.step} ({e.step_name}): {e.what}); what ran here is the code for these sizes, which "
                      "`looptx transform` writes with the same -D")
        return None
    values = dict(payload.signature.values)
    if any(a.is_scalar and a.name in ev.sizes and a.ctype.split()[-1] in ("double", "float")
           for a in scop.arrays):
        # a -D of a floating variable (NPB SP's `-D c1c2=-1`) is a value, not a size: the code
        # for variable sizes would read it from the random data the harness gives it
        return None
    if payload.source == fixed.source or not scop.facts_hold(values) or not made.facts_hold(values) or \
            any(n in values and values[n] != v for n, v in (*scop.baked, *baked)):
        # a #defined size taken at its value: that code stops the build at any other (#error)
        return None
    prepared = Prepared(point={}, status="ok", payload=payload)
    if isolate:
        from looptx.runtime.worker import run_isolated
        r = run_isolated(sev.measure, prepared, timeout=timeout)
        status, error = (r.value.status, r.value.error) if r.ok else (r.status, r.error)
    else:
        m = sev.measure(prepared)
        status, error = m.status, m.error
    if status == "ok":
        return None
    sizes = ", ".join(f"{k}={v}" for k, v in ev.sizes.items())
    what = error if status == "wrong_result" else f"{status.replace('_', ' ')}: {error}"
    text = f"the code for variable sizes (what `looptx transform` writes without -D) fails at {sizes}: {what}"
    if status == "timeout" or (error or "").endswith("SIGKILL"):
        # killed from outside (the kernel's OOM killer, a time limit): no evidence the code is wrong
        return status, text + "; it was killed from outside or ran out of time, which says nothing of its results: free memory and run again"
    # what was found: its results, or a build that fails (a pragma gcc refuses there)
    return ("compile_error" if status == "compile_error" else "wrong_result"), text


def _stage(phase_file: str | None, what: str) -> None:
    """Says what the child runs now: a crash kills it before it can say anything else, and a
    crash of the original (undefined behaviour in the user's code) is not the variant's fault."""
    if phase_file:
        with open(phase_file, "w") as f:
            f.write(what)


def _original_fails(mo) -> dict:
    # measure() says so itself where the original fails as the variant did
    return {"status": "unvalidated", "error": mo.error if mo.info.get("original_fails") else original_fails_text(mo.error)}


def _at_o1(ev: CEvaluator, payload: CPayload, error: str | None) -> str | None:
    """A wrong result that the same code built with -O1 does not give (gcc 12's -O3 vectorizer
    miscompiles a unrolled `B[i + 1][j + 1] = B[i][j] + A[i][j]`) is the optimisation's, not
    the transformation's: said with the error."""
    flags = payload.toolchain.flags
    opt = [f for f in flags if f.startswith("-O")]
    if not opt or opt == ["-O1"] or opt == ["-O0"]:
        return error
    if any(f in ("-fopenmp", "-qopenmp", "-fopenacc") for f in flags) and \
            re.search(r"^\s*#\s*pragma\s+(omp|acc)\b", payload.source, re.M):
        # threads that race may agree with the reference on one run and not on the next
        return (f"{error}; the code runs loops in threads (its OpenMP/OpenACC pragmas), so a race may give "
                "this: run again with OMP_NUM_THREADS=1 to tell")
    low = dataclasses.replace(payload.toolchain, flags=tuple(f for f in flags if not f.startswith("-O")) + ("-O1",))
    m1 = ev.measure(Prepared(point={}, status="ok", payload=dataclasses.replace(payload, toolchain=low)))
    if not m1.ok:
        return error
    return (f"{error}; built with -O1 instead of {opt[-1]}, the same code gives the right result: the "
            "compiler's optimisations change it (a compiler bug, or undefined behaviour they rely on); "
            "try --cflags -O2, or add -fno-tree-vectorize")


def _run_once_measure(ev: CEvaluator, payload: CPayload, phase_file: str | None = None) -> dict:
    sig = payload.signature
    _stage(phase_file, "the original region (the reference run, built with -O1)")
    try:
        ev.reference_data(sig, payload.toolchain.compiler)
    except RuntimeError:
        pass                    # measure() reports a reference that does not build
    _stage(phase_file, "the variant")
    m = ev.measure(Prepared(point={}, status="ok", payload=payload))
    out = {"status": "unvalidated" if m.info.get("unvalidated") else m.status, "error": m.error,
           "constant": m.info.get("constant"), "times": m.times, "median": m.time,
           "spread": m.spread, "max_rel_error": m.info.get("max_rel_error"),
           "compile_time": m.compile_time}
    orig = CPayload(original_source(ev.program(), ev.region, sig), sig, payload.toolchain)
    if m.status == "compile_error" and not build_shared(orig.source, orig.toolchain, cache=ev.cache_dir).ok:
        # the flags or the compiler, not looptx's code: the user's to fix
        out["original_status"] = "compile_error"
    if not m.ok:
        if m.info.get("original_fails"):
            out["original_status"] = "wrong_result"
        elif m.status == "wrong_result":
            out["error"] = _at_o1(ev, payload, m.error)
        return out
    _stage(phase_file, "the region as written (a check of looptx's reading of its C)")
    misread = verbatim_problem(ev, sig, payload.toolchain)
    if misread is not None:
        out.update(status="wrong_result", error=misread)
        return out
    # The original with the same flags gives the speed-up.  It is validated like any variant
    # (a wrong original means the -O1 reference and the optimised build disagree), then both
    # are timed again *interleaved*, one call each in turn, so that frequency changes or a busy
    # neighbour during the measurement affect both alike.
    _stage(phase_file, "the original region built with the variant's flags")
    mo = ev.measure(Prepared(point={}, status="ok", payload=orig))
    out["original_status"] = mo.status
    if not mo.ok:
        out.update(_original_fails(mo))
        return out
    inputs, _ = ev.reference(sig, payload.toolchain.compiler)
    runs = [RegionRun(build_shared(x.source, x.toolchain, cache=ev.cache_dir).path, sig, inputs)
            for x in (payload, orig)]
    tv, to = [], []
    _stage(phase_file, "the timed runs of the variant and the original")
    for _ in range(max(1, ev.repetitions)):
        tv += time_region(runs[0], 1, 0)
        to += time_region(runs[1], 1, 0)
    med, spread = summarize_times(tv)
    omed, _ = summarize_times(to)
    out.update({"times": tuple(tv), "median": med, "spread": spread,
                "original_times": tuple(to), "original_median": omed,
                "speedup": omed / med if med > 0 else None})
    return out
