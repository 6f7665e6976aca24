"""The C backend of the search: `CEvaluator` (the Evaluator protocol of looptx.search.evaluate)
(`looptx run`, which builds, validates and times one variant against the original, is
runtime/run_once.py).

    ev = CEvaluator("mm.c", sizes={"N": 256}, recipe_path="tile.yaml", cflags="-O3")
    p = ev.prepare({"T": 32})        # Prepared: 'ok' with the region TU as payload, or pruned
    m = ev.measure(p)                # Measurement: 'ok' | 'compile_error' | 'wrong_result'

prepare() binds the recipe (the region's CHiLL annotation when no recipe path is given) with the
point, checks legality, generates the region block and wraps it into a translation unit
(`looptx.runtime.harness`).  The code hash covers that text plus the compiler and its flags, so
points that generate identical code are measured once.  A `build_command` may hold `@NAME@`
placeholders (Orio style): they are filled from the point, so a point can tune the flags.

measure() compiles (cached), computes the reference once per process by running the *original*
region (compiled at -O1) on the seeded inputs, runs the variant on the same inputs, compares
every written argument (`harness.compare`: norm-wise relative error) and checks that read-only
arrays were left alone; then it times `repetitions` calls in-process, each from reset data.
A variant that fails validation is 'wrong_result' and never gets a time.
"""
from __future__ import annotations

import dataclasses
import hashlib
import os
import re
import time
from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np

from looptx.errors import LegalityError, LooptxError, note_once
from looptx.runtime.cpu import (BuildResult, RegionRun, Toolchain, build_shared, compiler_version,
                                cpu_model, time_region)
from looptx.runtime.harness import RegionSignature, compare_detail, region_source
from looptx.runtime.reference import (CONSTANT_HINT, DATASETS, Reference, choose_reference, constant_text,
                                      split_defines, unvalidated_hint, unvalidated_text)
from looptx.search.evaluate import DEFAULT_PREPARE_TIMEOUT, Measurement, Prepared, summarize_times

__all__ = ["CEvaluator", "CPayload"]

# The reference is the original region compiled as literally as possible: no FMA contraction,
# no fast-math, a low optimisation level.
REFERENCE_FLAGS = ("-O1", "-ffp-contract=off", "-fno-fast-math")
_PLACEHOLDER = re.compile(r"@(\w+)@")

# Per-process caches (evaluators are pickled to workers; these never travel with them).
_PROGRAMS: dict = {}
_REFERENCES: dict = {}
_REFERENCE_BUILDS: dict = {}     # the original region's library, built once per process


@dataclass(frozen=True)
class CPayload:
    """What measure() needs: the region TU, its signature and the toolchain to build it with."""

    source: str
    signature: RegionSignature
    toolchain: Toolchain
    compile_time: float = 0.0      # of the build done in prepare() (the pool builds in parallel)
    build_error: str | None = None  # that build's failure, reported by measure() as compile_error
    carried: tuple = ()             # the point's values of params the build's -D flags carry


# C++ compilers and the C compiler of their family: a build command of Orio's CHiLL files
# names g++, but the harness is C (VLA parameters, restrict), which a C++ compiler rejects
_CXX = re.compile(r"(?P<pre>(?:.*[-/])?)(?P<cxx>g\+\+|c\+\+|clang\+\+|icpc|icpx)(?P<post>-[\d.]+)?")
_C_OF = {"g++": "gcc", "c++": "cc", "clang++": "clang", "icpc": "icc", "icpx": "icx"}


# what a build command of Orio's CUDA-CHiLL files links for CUDA: Orio's object of its own
# transformed code (rose__orio_chill_.o), the CUDA runtime and driver libraries and their paths
_CUDA_LINK = re.compile(r"rose_\w*\.o|-lcuda(rt)?|-[IL]\S*cuda\S*")


def c_build_command(command: str | None, path: str) -> str | None:
    """The build command for C code: an Orio CUDA file's names nvcc, which builds the .cu, so
    the C code is built with the default compiler instead (with a note); one that names a C++
    compiler builds it with that compiler's C sibling and the same flags (with a note)."""
    words = command.split() if command else []
    cuda = [w for w in words[1:] if _CUDA_LINK.fullmatch(w)]
    if cuda:
        # Orio's CHiLL files link the object Orio builds of its own transformed CUDA code, and
        # the CUDA runtime; looptx's C code is the region itself and calls no CUDA
        note_once(path, None, f"the C backend leaves {' '.join(cuda)} out of the build command: "
                  "looptx's C code is the region itself and calls no CUDA")
        words = [w for w in words if w not in cuda]
        command = " ".join(words)
    if words and os.path.basename(words[0]) == "nvcc":
        note_once(path, None, f"the build command '{command}' is for CUDA: the C backend builds "
                  "the C code with gcc -O3 (--backend cuda builds the .cu)")
        return None
    m = _CXX.fullmatch(words[0]) if words else None
    if m:
        cc = m.group("pre") + _C_OF[m.group("cxx")] + (m.group("post") or "")
        kept = [w for w in words[1:] if not re.match(r"-std=(c|gnu)\+\+", w)]
        note_once(path, None, f"the build command names the C++ compiler '{words[0]}': looptx's C is built "
                  f"with {cc} and the same flags{' (the C++ -std dropped)' if len(kept) < len(words) - 1 else ''}")
        return " ".join([cc] + kept)
    return command


def _load_program(path: str, sizes: Mapping[str, int], function, extra_decls, symbolic=None,
                  picks: Mapping[str, str] | None = None):
    from looptx.pipeline import load

    try:
        mtime = os.stat(path).st_mtime_ns
    except OSError:
        mtime = None
    picks = dict(picks or {})
    # the model with variable sizes reads only a fragment's stand-ins among the sizes: one
    # parse (and the dependences and recipes applied on it) serves every -D of a session
    keyed = sizes if symbolic is None else {k: v for k, v in sizes.items() if k in symbolic}
    key = (path, mtime, tuple(sorted(keyed.items())), function, extra_decls, symbolic,
           tuple(sorted(picks.items())))
    prog = _PROGRAMS.get(key)
    if prog is None:
        # picks travel as `transform` passes them: the annotation's default point reads them
        if symbolic is None:
            prog = load(path, defines={**sizes, **picks}, function=function, extra_decls=extra_decls)
        else:
            given = {k: v for k, v in sizes.items() if k in symbolic}
            prog = load(path, defines={**given, **picks}, function=function,
                        extra_decls=extra_decls, soft=frozenset(given))
        if len(_PROGRAMS) > 16:
            _PROGRAMS.clear()
        _PROGRAMS[key] = prog
    return prog


def _region_recipe(program, region: int, recipe, bindings: Mapping[str, Any]):
    """The recipe for one region: the given one (its steps on this region's statements) or the
    region's CHiLL annotation bound with the point.  Only this region's recipe is bound, so a
    point need not name the params of other regions."""
    from looptx.pipeline import annotation_recipe, split_by_region

    if recipe is not None:
        return split_by_region(recipe, program).get(region)
    return annotation_recipe(program, region, bindings)


# the last variants made: `looptx run -D` checks the code for variable sizes by building that
# model's variant and then asking for it again (for the values it baked in), and where the
# dependence analysis is slow (a blocked dgemm: 10 s) applying a recipe is most of a run
_RECENT: list = []


def _variant(program, region: int, rec, unsafe: bool):
    from looptx.pipeline import apply_checked
    from looptx.recipe.team import as_written

    scop = program.scops[region]
    if rec is None or not rec.steps:
        return scop.cached(("as_written", unsafe), lambda: as_written(scop, checked=not unsafe)), None
    for s, r, u, made in _RECENT:
        if s is scop and u == unsafe and r == rec:
            return made
    try:
        made = apply_checked(scop, rec, unsafe=unsafe), rec.describe()
    except LooptxError as e:
        from looptx.pipeline import in_script_form
        in_script_form(e, rec)
        raise
    _RECENT[:] = [(scop, rec, unsafe, made)] + _RECENT[:1]
    return made


class CEvaluator:
    """Evaluator of one region of a C file on this CPU (picklable: plain attributes only)."""

    backend = "c"
    # its timings are wall time on this machine's cores (search/driver.py keeps them apart
    # from the batch's preparation)
    times_on_cpu = True

    def __init__(self, path: str, *, sizes: Mapping[str, int], recipe_path: str | None = None,
                 function: str | None = None, cflags: str = "-O3", build_command: str | None = None,
                 repetitions: int = 5, timeout: float = 60.0, seed: int = 0,
                 rtol: float | None = None, region: int = 0, warmup: int = 1,
                 compiler: str | None = None, extra_decls: str | None = None,
                 unsafe: bool = False, cache_dir: str | None = None,
                 symbolic: tuple[str, ...] | None = None):
        self.path = os.path.abspath(path)
        self.given_path = path          # what the points' errors name, as every message does
        # `-D SCR=True` picks a performance param's value, as in `looptx transform`
        self.sizes, self.picks = split_defines(self.path, sizes)
        self.recipe_path = os.path.abspath(recipe_path) if recipe_path else None
        self.function = function
        self.cflags = cflags
        self.build_command = c_build_command(build_command, self.path)
        self.compiler = compiler
        self.repetitions = int(repetitions)
        self.warmup = int(warmup)
        self.timeout = float(timeout)
        self.seed = int(seed)
        self.rtol = rtol
        self.region = int(region)
        self.extra_decls = extra_decls
        self.unsafe = bool(unsafe)
        self.cache_dir = cache_dir
        # None: every size is a constant of the model.  Else the model is the one `looptx
        # transform` makes without -D: sizes are variables given at run time, and only the
        # names in `symbolic` (a fragment's input_params) stand in for undeclared ones.
        self.symbolic = None if symbolic is None else tuple(symbolic)
        # the data set the parent's check_reference() found the original finite on (None: not
        # checked), so that workers do not try the others again
        self.dataset: int | None = None
        self._reference_checked = False
        self._carried_names: frozenset[str] | None = None
        if build_command is None:
            try:
                Toolchain.from_options(cflags, None, compiler)   # fail here, not once per point
            except ValueError as e:
                raise LooptxError(f"bad compiler flags '{cflags}': {e}",
                                  hint="quote flags as in a shell command line") from None

    # -- helpers ----------------------------------------------------------------------------
    def toolchain(self, point: Mapping[str, Any] | None = None) -> Toolchain:
        if self.build_command is None:
            return Toolchain.from_options(self.cflags, None, self.compiler)
        text = self.build_command
        missing = [n for n in _PLACEHOLDER.findall(text) if point is None or n not in point]
        if missing:
            raise LooptxError(f"the build command names @{missing[0]}@, which the point does not "
                              "give", hint=f"add a param {missing[0]} or remove the placeholder")
        # `@NAME@` and Orio's `@CFLAGS` (no closing @) are both filled from the point
        from looptx.frontend.tuning import substitute_params
        text = substitute_params(text, point or {})
        try:
            return Toolchain.from_options(None, text)
        except ValueError as e:
            raise LooptxError(f"bad build command '{text}': {e}") from None

    def program(self, point: Mapping[str, Any] | None = None):
        """The parsed file; with `point`, parsed with the values of the params the build
        command's -D flags carry (`-DKV=@U@`), which the region may read through the macro."""
        return _load_program(self.path, self.sizes, self.function, self.extra_decls, self.symbolic,
                             {**self.picks, **dict(self.carried(point))})

    def carried(self, point: Mapping[str, Any] | None) -> tuple:
        """(param, value) of the point for each param a -D flag of the build command carries:
        the point's program, and the original it is checked against, are parsed with them."""
        if not point:
            return ()
        if self._carried_names is None:
            from looptx.frontend.fragments import build_macro_params
            prog = _load_program(self.path, self.sizes, self.function, self.extra_decls, self.symbolic, self.picks)
            self._carried_names = build_macro_params(prog.markup, self.path)
        return tuple(sorted((k, point[k]) for k in self._carried_names if k in point))

    def signature(self, counts: Mapping[str, int] | None = None) -> RegionSignature:
        prog = self.program()
        if not 0 <= self.region < len(prog.scops):
            raise LooptxError(f"the file has {len(prog.scops)} region(s); there is no region "
                              f"{self.region}", file=self.path)
        return RegionSignature.from_scop(prog.scops[self.region], prog.int_macros, self.sizes, counts)

    def build(self, point: Mapping[str, Any], recipe=None) -> tuple[CPayload, str | None]:
        """(payload, applied recipe text) for a point; raises LooptxError for a bad point.
        `recipe` (a Recipe) overrides the evaluator's recipe_path / the annotation."""
        sig = self.signature()
        tc = self.toolchain(point)
        variant, applied = self.variant(point, recipe)
        from looptx.pipeline import c_block
        # a variant asked for again (the code for variable sizes at each -D of a session) is
        # printed once: its code does not depend on the sizes
        lines = variant._cache.get("c_block")
        if lines is None:
            lines = variant._cache["c_block"] = tuple(c_block(variant))
        return CPayload(region_source(sig, list(lines)), sig, tc, carried=self.carried(point)), applied

    def recipe_for(self, point: Mapping[str, Any], recipe=None):
        """The region's recipe bound with a point, its steps' arguments checked and nothing
        applied (RecipeError where a step rejects the point's values)."""
        if recipe is None and self.recipe_path is not None:
            from looptx.recipe.schema import load_file
            recipe = load_file(self.recipe_path, dict(point))
        return recipe, _region_recipe(self.program(point), self.region, recipe, dict(point))

    def variant(self, point: Mapping[str, Any], recipe=None):
        """(Variant, applied recipe text) of the region for a point (LooptxError if bad)."""
        from looptx.pipeline import in_file_numbers, recipe_bases
        prog = self.program(point)
        recipe, rec = self.recipe_for(point, recipe)
        try:
            return _variant(prog, self.region, rec, self.unsafe)
        except LooptxError as e:
            in_file_numbers(e, recipe_bases(recipe, prog)[self.region] if recipe is not None else 0)
            raise

    def built_or_pruned(self, point: dict):
        """(build(point), None), or (None, a pruned Prepared) when the point is illegal or bad."""
        try:
            return self.build(point), None
        except LooptxError as e:
            if e.file == self.path:
                e.file = self.given_path
            return None, Prepared(point=point, status="illegal" if isinstance(e, LegalityError) else "invalid",
                                  error=str(e))

    # -- the protocol -----------------------------------------------------------------------
    def prepare(self, point: dict) -> Prepared:
        t0 = time.perf_counter()
        built, pruned = self.built_or_pruned(point)
        if pruned is not None:
            return pruned
        payload, applied = built
        # Compiling here fills the build cache from the driver's parallel prepare pool, so the
        # serialized measure() step only loads the library.  The measurement timeout is for the
        # run: heavily unrolled code may take minutes to compile, so the compiler gets what is
        # left of the prepare budget, and a failed build reaches measure() as its result.
        left = lambda: max(self.timeout, DEFAULT_PREPARE_TIMEOUT - (time.perf_counter() - t0) - 10.0)
        b = build_shared(payload.source, payload.toolchain, cache=self.cache_dir, timeout=left())
        if b.timed_out:
            b = dataclasses.replace(b, error=f"{b.error}, the rest of the {DEFAULT_PREPARE_TIMEOUT:g} s a point "
                                    f"may take to generate and build (its code took "
                                    f"{time.perf_counter() - t0 - b.compile_time:.0f} s)")
        if b.ok:
            self.reference_build(payload.signature, payload.toolchain.compiler, left(), payload.carried)
        payload = dataclasses.replace(payload, compile_time=b.compile_time,
                                      build_error=None if b.ok else b.error)
        return Prepared(point=point, status="ok", code_hash=_code_hash(payload), recipe=applied,
                        payload=payload)

    def measure(self, prepared: Prepared) -> Measurement:
        t0 = time.perf_counter()
        p = prepared.payload
        if not prepared.ok or not isinstance(p, CPayload):
            return Measurement(status="runtime_error", error="measure() got a point that was not "
                               f"prepared for the C backend (status {prepared.status})")
        info = {"compiler": p.toolchain.compiler, "flags": p.toolchain.flags_text}
        if p.build_error is not None:
            return Measurement(status="compile_error", error=p.build_error, compile_time=p.compile_time,
                               info=info, run_time=time.perf_counter() - t0)
        build = build_shared(p.source, p.toolchain, cache=self.cache_dir, timeout=self.timeout)
        if not build.ok:
            return Measurement(status="compile_error", error=build.error,
                               compile_time=build.compile_time, info=info,
                               run_time=time.perf_counter() - t0)
        info["cached_build"] = build.cached
        ref = self.reference_data(p.signature, p.toolchain.compiler, p.carried)
        m = measure_library(build, p.signature, ref.inputs, ref.outputs, repetitions=self.repetitions,
                            warmup=self.warmup, rtol=self.rtol, info=info)
        m = unvalidated(m, ref, p.signature, self.unsafe)
        if m.status == "wrong_result" and not m.info.get("unvalidated"):
            m = self._unless_original_fails(m, p)
        return dataclasses.replace(m, compile_time=build.compile_time + p.compile_time,
                                   run_time=time.perf_counter() - t0)

    def _unless_original_fails(self, m: Measurement, p: CPayload) -> Measurement:
        """Before blaming the variant: the original built the same way may disagree with the
        -O1 reference too (gcc 12's -O3 vectorizer on `b[i][j] = b[i-1][j-1] + 1`); then no
        variant built so can be validated, and the point is unvalidated, not wrong."""
        build = build_shared(original_source(self.program(dict(p.carried)), self.region, p.signature), p.toolchain,
                             cache=self.cache_dir, timeout=self.timeout)
        if not build.ok:
            return m
        ref = self.reference_data(p.signature, p.toolchain.compiler, p.carried)
        mo = measure_library(build, p.signature, ref.inputs, ref.outputs, repetitions=1, warmup=0, rtol=self.rtol)
        if mo.status != "wrong_result":
            return m
        return dataclasses.replace(m, error=original_fails_text(mo.error), info={**dict(m.info), "unvalidated": True,
                                                                                 "original_fails": True})

    def describe(self) -> dict:
        """What measures (recorded with a search).  The driver asks first, in its own process,
        so the original is run here once: a reference that cannot validate any variant stops
        the search before it measures points that could only fail."""
        self.check_reference()
        tc = Toolchain.from_options(self.cflags, None, self.compiler) if self.build_command is None \
            else None
        compiler = tc.compiler if tc else (self.build_command.split() or ["gcc"])[0]
        return {"compiler": compiler_version(compiler),
                "flags": tc.flags_text if tc else self.build_command,
                "device": f"cpu: {cpu_model()}", "backend": "c",
                **({"inputs": DATASETS[self.dataset]} if self.dataset else {})}

    # -- the reference ----------------------------------------------------------------------
    def reference_build(self, sig: RegionSignature, compiler: str, timeout: float,
                        carried: tuple = ()) -> BuildResult:
        key = (self.path, tuple(sorted(self.sizes.items())), self.function, self.extra_decls,
               self.symbolic, self.region, compiler, sig, self.cache_dir, carried)
        hit = _REFERENCE_BUILDS.get(key)
        if hit is not None and os.path.exists(hit.path):
            return hit
        src = original_source(self.program(dict(carried)), self.region, sig)
        b = build_shared(src, Toolchain(compiler, REFERENCE_FLAGS), cache=self.cache_dir,
                         timeout=timeout)
        if b.ok:
            if len(_REFERENCE_BUILDS) > 8:
                _REFERENCE_BUILDS.clear()
            _REFERENCE_BUILDS[key] = b
        return b

    def reference(self, sig: RegionSignature, compiler: str = "gcc"):
        """(inputs, outputs of the original region at -O1) for this evaluator's sizes and seed;
        computed once per process."""
        ref = self.reference_data(sig, compiler)
        return ref.inputs, ref.outputs

    def reference_data(self, sig: RegionSignature, compiler: str = "gcc", carried: tuple = ()) -> Reference:
        """The original's run on the first data set that keeps its results finite
        (runtime/reference.py); computed once per process."""
        key = (self.path, tuple(sorted(self.sizes.items())), self.function, self.extra_decls,
               self.symbolic, self.region, self.seed, compiler, sig, self.dataset, carried)
        hit = _REFERENCES.get(key)
        if hit is not None:
            return hit
        b = self.reference_build(sig, compiler, self.timeout, carried)
        if not b.ok:
            raise RuntimeError(f"the original region does not compile: {b.error}")

        def run(inputs):
            r = RegionRun(b.path, sig, inputs)
            r.reset()
            r.call()
            return r.outputs()
        hit = choose_reference(sig, self.seed, run, None if self.dataset is None else (self.dataset,))
        if len(_REFERENCES) > 8:
            _REFERENCES.clear()
        _REFERENCES[key] = hit
        return hit

    def check_reference(self) -> None:
        """LooptxError (bad input) when the original's results hold NaN/Inf on every data set:
        no variant could be validated.  Run once per evaluator, in a child process (the
        original is the user's code); one that crashes or does not build is left to measure()
        to report per point."""
        if self._reference_checked:
            return
        self._reference_checked = True
        sig = self.signature()
        try:
            compiler = self.toolchain(None).compiler
        except LooptxError:
            compiler = (self.build_command or "gcc").split()[0]
        from looptx.runtime.worker import run_isolated
        # run_isolated's own start method: isl and CUDA are initialised here, and a fork of
        # them may deadlock (runtime/worker.py)
        r = run_isolated(_reference_verdict, self, sig, compiler, timeout=max(self.timeout, 120.0))
        if not r.ok or r.value is None:
            return
        dataset, problem, hint, weak = r.value
        if weak is not None:
            line = self.program().scops[self.region].region_span[0] or None
            note_once(self.path, line, weak, kind="warning")
        if problem is not None:
            line = self.program().scops[self.region].region_span[0] or None
            raise LooptxError(f"cannot validate any variant of region {self.region}: {problem}",
                              hint=hint, file=self.path, line=line,
                              col=_indent(self.path, line))
        self.dataset = dataset


def _indent(path: str, line: int | None) -> int | None:
    """The column of the first character of `line` (where the region's first statement starts)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = next((t for i, t in enumerate(f, 1) if i == line), None)
    except OSError:
        return None
    return None if text is None else len(text) - len(text.lstrip()) + 1


def _reference_verdict(ev: CEvaluator, sig: RegionSignature, compiler: str):
    """(data set, None) or (data set, why nothing validates); None if the original does not
    build (in a child process: see check_reference)."""
    if not ev.reference_build(sig, compiler, ev.timeout).ok:
        return None
    ref = ev.reference_data(sig, compiler)
    weak = f"{constant_text(ref)} ({CONSTANT_HINT})" if ref.constant and ref.proves(ev.unsafe) else None
    return ref.dataset, None if ref.proves(ev.unsafe) else unvalidated_text(ref), unvalidated_hint(ref), weak


def unvalidated(m: Measurement, ref: Reference, sig: RegionSignature, unsafe: bool = False) -> Measurement:
    """A measurement that passed against a reference with NaN/Inf in its results (or, under
    --unsafe, of one value) is no ok: it becomes a 'wrong_result' with info['unvalidated']
    (`looptx run` prints 'unvalidated').  Results of one value otherwise keep the ok, with
    info['constant'] saying what the comparison showed."""
    if m.ok and ref.constant and ref.validatable and not unsafe:
        return dataclasses.replace(m, info={**dict(m.info), "constant": f"{constant_text(ref)} ({CONSTANT_HINT})"})
    if not m.ok or ref.proves(unsafe):
        return m
    agreeing = sum(int(np.size(ref.outputs[b.name])) - b.count for b in ref.nonfinite)
    text = f"{unvalidated_text(ref, agreeing)} ({unvalidated_hint(ref)})"
    return dataclasses.replace(m, status="wrong_result", time=None, spread=None, error=text,
                               info={**dict(m.info), "unvalidated": True})


def original_fails_text(error: str | None) -> str:
    """The code as written disagrees with itself between -O1 and these flags (undefined
    behaviour gcc optimises on, a subscript past its extent, a compiler's own bug): nothing to
    compare against."""
    return (f"the original region built with these flags fails validation ({error}): the code as "
            "written gives other results at other optimisation levels (undefined behaviour, such as a "
            "subscript past its declared extent, a floating-point sensitivity, or a compiler bug); try "
            "--cflags -O1 or -O2, or sizes under which every subscript stays inside its extent")


def original_source(program, region: int, sig: RegionSignature) -> str:
    from looptx.pipeline import c_block
    from looptx.recipe.team import as_written
    scop = program.scops[region]
    # the reference build and each measurement ask for it: generating it is most of their time
    block = scop.cached("original_block", lambda: tuple(c_block(as_written(scop, checked=False))))
    return region_source(sig, block)


def _code_hash(p: CPayload) -> str:
    h = hashlib.sha256()
    h.update(p.source.encode())
    h.update(b"\0" + p.toolchain.key().encode())
    return h.hexdigest()


def _validate(run: RegionRun, sig: RegionSignature, ref: Mapping, rtol) -> tuple[str | None, float]:
    """(error text or None, worst norm-wise relative error over the written arguments)."""
    worst, error = 0.0, None
    outs = run.outputs()
    for name in sig.results:
        c = compare_detail(ref[name], outs[name], sig.arg(name).ctype, rtol)
        worst = max(worst, c.norm_rel_error)
        if not c.ok and error is None:
            error = "wrong result in " + c.describe(name)
    if error is None:
        changed = run.inputs_intact()
        if changed is not None:
            error = f"the variant wrote to the read-only array '{changed}'"
    return error, worst


def measure_library(build: BuildResult, sig: RegionSignature, inputs, ref, *, repetitions: int = 5,
                    warmup: int = 1, rtol=None, info: Mapping | None = None) -> Measurement:
    """Validate then time a built region library (in this process)."""
    info = dict(info or {})
    run = RegionRun(build.path, sig, inputs)
    run.reset()
    run.call()                               # first run: validated, and warms the caches
    error, err = _validate(run, sig, ref, rtol)
    info["max_rel_error"] = err
    if error is not None:
        return Measurement(status="wrong_result", error=error, info=info)
    times = time_region(run, repetitions, max(0, warmup - 1))
    error, err2 = _validate(run, sig, ref, rtol)  # the last timed run, from reset data, too
    info["max_rel_error"] = max(err, err2)
    if error is not None:
        return Measurement(status="wrong_result", times=tuple(times),
                           error=error + " (after repeated runs)", info=info)
    med, spread = summarize_times(times)
    return Measurement(status="ok", time=med, times=tuple(times), spread=spread, info=info)
