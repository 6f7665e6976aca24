"""Command line: `looptx transform | deps | run | search | report`.

Exit codes: 0 success, 1 internal error or failed run, 2 bad input (one line on stderr)."""
from __future__ import annotations

import argparse
import json
import errno
import os
import re
import sys

from looptx import __version__
from looptx.errors import LooptxError, drop_notes, flush_notes, paths_as_given, reset_notes
from looptx.frontend.names import to_user


class _UserNames:
    """A text stream that shows the user's names (the model renames isl-reserved ones)."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, text: str) -> int:
        return self.stream.write(to_user(text))

    def flush(self):
        self.stream.flush()


def _defines(values: list[str] | None, path: str | None = None, spec: str | None = None) -> dict[str, int | str]:
    """--define NAME=VALUE items: an integer, or for a performance param of `path` (or of its
    --spec file) the value's spelling (True, -O3, 'ij'), which `picked` matches against the
    param's values."""
    from looptx.frontend.defines import define_value
    out: dict[str, int | str] = {}
    perf: dict = {"spec": spec}
    for item in values or []:
        name, sep, val = item.partition("=")
        if re.fullmatch(r"\s*[A-Za-z_]\w*\s*\([^()]*\)\s*", name):
            raise LooptxError(f"bad --define '{item}': looptx takes no function-like macro on the command line",
                              hint="write the macro's definition in the file (before the region) and "
                                   "transform it again")
        if not sep or not name.isidentifier():
            raise LooptxError(f"bad --define '{item}'", hint="write --define NAME=INTEGER; a flag "
                              "macro tested with #ifdef (MINI_DATASET) is NAME=1")
        out[name] = define_value(path, name, val, perf)
    return out


def _member_spelled(values: list[str] | None) -> list[str]:
    """--define items with a struct member or element written as in C (`s->n=64`, `g.d[0]=8`)
    under the name looptx reads it by (s__n, g__d__0), which its notes give."""
    out = []
    for item in values or []:
        name, sep, val = item.partition("=")
        if sep and re.fullmatch(r"[A-Za-z_]\w*(\s*(->|\.)\s*[A-Za-z_]\w*|\s*\[\s*\d+\s*\])+\s*", name):
            name = re.sub(r"\s*\[\s*(\d+)\s*\]", r"__\1", re.sub(r"\s*(->|\.)\s*", "__", name.strip()))
        out.append(name + sep + val)
    return out


def _one_value_each(values: list[str] | None) -> None:
    """`-D ni=20 -D ni=30`: which one the user meant is not for looptx to guess (the same
    value twice is only repeated)."""
    seen: dict[str, str] = {}
    for item in values or []:
        name, sep, val = item.partition("=")
        if sep and name in seen and seen[name].strip() != val.strip():
            raise LooptxError(f"--define gives {name} two values: {name}={seen[name]} and {item}",
                              hint=f"give {name} once")
        seen.setdefault(name, val)


def _checked_defines(args) -> dict[str, int | str]:
    """The --define items of the command, each naming something its files use."""
    from looptx.frontend.defines import check_defines
    args.define = _member_spelled(args.define)
    _one_value_each(args.define)
    given = dict(item.partition("=")[::2] for item in args.define or [])
    given = {k: v for k, v in given.items() if k.isidentifier()}
    extra = [getattr(args, "spec", None)]
    if getattr(args, "recipe", None) and args.file:
        from looptx.recipe.schema import find_recipe
        try:
            extra.append(find_recipe(args.recipe, os.path.dirname(os.path.abspath(args.file))))
        except LooptxError:
            pass                    # the command reports a recipe it cannot find
    # the name first: a misspelled one with a value that only a param could take (SCRR=True)
    # is the misspelling
    check_defines(args.file, given, extra=tuple(extra))
    return _defines(args.define, args.file, getattr(args, "spec", None))


def _common(p: argparse.ArgumentParser):
    p.add_argument("file", help="C file with marked regions (#pragma scop or /*@ begin CHiLL ... @*/)")
    p.add_argument("--define", "-D", action="append", metavar="N=V",
                   help="fix a parameter (size) to a value; fixed sizes give tighter code")
    p.add_argument("--function", metavar="NAME", help="work on regions in NAME (or its whole body)")
    _include_option(p)


def _include_option(p: argparse.ArgumentParser):
    p.add_argument("-I", "--include-dir", action="append", metavar="DIR",
                   help="search DIR for the file's #include headers, as gcc -I does")


# timed runs of one variant: past this a run is taken for a typo (a kernel of a millisecond
# would take a quarter of an hour)
MAX_REPETITIONS = 10 ** 6


def _runs(text: str) -> int:
    """A count of timed runs: a median needs one at least."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"{n} runs time nothing: give 1 or more")
    if n > MAX_REPETITIONS:
        raise argparse.ArgumentTypeError(f"{n} runs is more than looptx times ({MAX_REPETITIONS})")
    return n


def _include_path(dirs: list[str] | None) -> str | None:
    """The -I folders, checked, for LOOPTX_INCLUDE_PATH (search workers inherit it)."""
    for d in dirs or []:
        if not os.path.isdir(d):
            raise LooptxError(f"include folder '{d}' does not exist", hint="give -I an existing folder")
    return os.pathsep.join(os.path.abspath(d) for d in dirs) if dirs else None


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="looptx", description="Loop transformations with exact "
                                 "dependence checks; C and CUDA output; autotuning.")
    ap.add_argument("--version", action="version", version=f"looptx {__version__}")
    ap.add_argument("--debug", action="store_true", help="show tracebacks of internal errors")
    sub = ap.add_subparsers(dest="command", required=True)

    t = sub.add_parser("transform", help="apply a recipe and write C or CUDA")
    _common(t)
    t.add_argument("--recipe", "-r", metavar="R", help="YAML recipe file or a name under recipes/")
    t.add_argument("--target", choices=["c", "cuda"], default="c")
    t.add_argument("-o", "--output", metavar="OUT", help="output file (default, or -: stdout)")
    t.add_argument("--show-steps", action="store_true",
                   help="print the loop tree after every step (to stderr when the code goes to stdout)")
    t.add_argument("--unsafe", action="store_true", help="skip dependence checks (marked in the output)")
    t.add_argument("--standalone", action="store_true",
                   help="with --target cuda: add a main() that fills the inputs and times the kernels")

    r = sub.add_parser("run", help="build, validate against the original and time one variant")
    _common(r)
    r.add_argument("--recipe", "-r", metavar="R", help="YAML recipe file or a name under recipes/")
    r.add_argument("--target", choices=["c", "cuda"], default="c")
    r.add_argument("--repetitions", type=_runs, default=5, help="timed runs (median reported)")
    r.add_argument("--cflags", default=None,
                   help="C compiler flags (C target; default: the PerfTuning block's build command, else -O3)")
    r.add_argument("--unsafe", action="store_true", help="skip dependence checks")

    s = sub.add_parser("search", help="autotune an annotated file (Orio PerfTuning block)",
                       description="Search the performance parameters of an annotated file; every "
                       "variant is validated against the original and timed; results go to a "
                       "SQLite database as they are measured.")
    s.add_argument("file", nargs="?", help="annotated C file (not needed with --replay)")
    s.add_argument("--backend", choices=["c", "cuda"], default="c")
    s.add_argument("--algorithm", "--searcher", "--strategy", "-a", metavar="NAME",
                   help="searcher (default: the annotation's, else surf+); see --list-searchers")
    s.add_argument("--option", "-O", action="append", metavar="KEY=VALUE",
                   help="a searcher option (repeatable), as `arg KEY = VALUE;` in def search, "
                        "which it overrides: -O cooling_factor=0.9 -O x0=[0,1]; VALUE is a "
                        "Python literal, a bare word is text (-O acquisition=ei); works with "
                        "--replay; on --resume, options that differ from the recorded ones are "
                        "used, with a warning")
    s.add_argument("--budget", type=int, metavar="N", help="evaluations in total (Orio total_runs)")
    s.add_argument("--time-limit", type=float, metavar="S",
                   help="wall-clock limit in SECONDS (Orio's time_limit was in minutes)")
    s.add_argument("--seed", type=int, metavar="K", help="searcher and input-data seed (default 0)")
    s.add_argument("--db", metavar="PATH", help="results database (default FILE.looptx.db)")
    s.add_argument("--resume", action="store_true", help="continue the search recorded in the database")
    s.add_argument("--executor", metavar="ADDR",
                   help="dask://HOST:PORT (a Dask scheduler: one single-threaded worker per GPU) "
                        "or local-dask")
    s.add_argument("--workers", type=int, metavar="N",
                   help="measure on a local Dask cluster of N workers (one per device)")
    s.add_argument("--batch-size", type=int, metavar="B",
                   help="points asked per round (default: the annotation's batch_size, else 1)")
    s.add_argument("--replay", metavar="CACHE", help="replay the searcher on a recorded space "
                   "(Kernel Tuner cache .json or .json.gz) instead of measuring")
    s.add_argument("--t1", metavar="T1", help="with --replay: the space's T1 definition (its Values and Conditions)")
    s.add_argument("--objective", metavar="NAME[:max|:min]",
                   help="with --replay: the recorded value to optimise (default: the cache's "
                        "'objective', else time); GFLOP/s-, GFLOPS/W- and score-like names are "
                        "maximised, others minimised, unless :max or :min says otherwise")
    s.add_argument("--spec", metavar="SPEC", help="a .spec file with the tuning spec (overrides the annotation)")
    s.add_argument("--recipe", "-r", metavar="R", help="YAML recipe with $PARAMS (overrides the annotation)")
    s.add_argument("--top", type=int, default=None, help="rows of the final table (10)")
    s.add_argument("--no-progress", action="store_true", help="no progress bar")
    s.add_argument("--list-searchers", action="store_true", help="print the searcher names and exit")
    s.add_argument("--cflags", default=None, help="build with gcc and these flags instead of the PerfTuning "
                   "block's build command (C backend; e.g. a file written for icc)")
    s.add_argument("--define", "-D", action="append", metavar="N=V", help="fix a size")
    s.add_argument("--function", metavar="NAME", help="work on regions in NAME")
    _include_option(s)

    rp = sub.add_parser("report", help="tables, CSV/JSON export and a convergence plot of a results database")
    rp.add_argument("db", help="results database (FILE.looptx.db)")
    rp.add_argument("--csv", nargs="?", const="-", metavar="OUT", help="CSV of every evaluation (stdout without OUT)")
    rp.add_argument("--json", nargs="?", const="-", metavar="OUT", help="JSON of every evaluation (stdout without OUT)")
    rp.add_argument("--plot", metavar="PNG", help="convergence plot (best time found vs evaluations)")
    rp.add_argument("--kernel-tuner", metavar="CACHE",
                    help="write the search as a Kernel Tuner cache (.json; time is the mean of the runs, as in Kernel Tuner)")
    rp.add_argument("--search", metavar="KEY", help="one search of the database (default: all)")
    rp.add_argument("--top", type=int, default=10, help="rows per table")

    d = sub.add_parser("deps", help="print the exact dependences of each region")
    _common(d)
    d.add_argument("--json", action="store_true", help="machine-readable output")
    return ap


def _transform_inputs(args) -> list[tuple[str, str]]:
    """The files `transform` reads, which its -o must not name."""
    from looptx.outputs import files_read_by
    inputs = [(args.file, "the input file")]
    if args.recipe:
        from looptx.recipe.schema import find_recipe
        try:
            inputs.append((find_recipe(args.recipe, os.path.dirname(os.path.abspath(args.file))),
                           "the recipe"))
        except LooptxError:
            pass                    # the command reports a recipe it cannot find
    return inputs + files_read_by(args.file, args.include_dir or ())


def cmd_transform(args) -> int:
    from looptx.outputs import refuse_overwrite
    from looptx.pipeline import transform_file
    if args.standalone and args.target != "cuda":
        # a C output has no main() to add: the flag would be dropped without a word
        raise LooptxError("--standalone adds a main() to the CUDA output only",
                          hint="add --target cuda, or drop --standalone")
    refuse_overwrite("-o", args.output, _transform_inputs(args))
    # the loop trees go to stdout beside a file, to stderr where stdout is the code
    trees = _UserNames(sys.stdout if args.output and args.output != "-" else sys.stderr)
    text = transform_file(args.file, recipe=args.recipe, defines=_checked_defines(args),
                          function=args.function, unsafe=args.unsafe, target=args.target,
                          show_steps=trees if args.show_steps else None, prints=trees,
                          standalone=args.standalone, warn=_UserNames(sys.stderr))
    if args.output and args.output != "-":      # `-o -`: stdout, as Unix tools read it
        try:
            from looptx.frontend.encoding import write_like
            write_like(args.output, text, args.file)
        except OSError as e:
            raise LooptxError(f"cannot write the output: {e.strerror}", file=args.output,
                              hint="give -o a path in an existing, writable folder") from None
    else:
        from looptx.frontend.encoding import output_encoding
        encoding = output_encoding(args.file)
        if encoding != "utf-8" and hasattr(sys.stdout, "buffer"):
            sys.stdout.flush()
            sys.stdout.buffer.write(text.encode(encoding))
            sys.stdout.buffer.flush()
        else:
            sys.stdout.write(text)
    return 0


def cmd_run(args) -> int:
    from looptx.pipeline import build_command_of, fragment_inputs, script_function, tuning_spec
    from looptx.runtime.build_flags import check_compiler, check_flags
    from looptx.recipe.schema import find_recipe, load_file
    from looptx.search.report import format_time
    decls, defines = fragment_inputs(args.file, _checked_defines(args))
    # Read before the C file, as transform does: a script that does not parse must be blamed
    # itself, not through the "no region" its unread procedure() would cause.
    recipe = load_file(find_recipe(args.recipe, os.path.dirname(os.path.abspath(args.file))), defines=defines) \
        if args.recipe else None
    args.function = script_function(args.file, recipe, args.function)
    if args.target == "c":
        from looptx.runtime.run_once import run_once
        status, region, n_regions = 0, 0, 1
        # an annotated file is built as its search builds it (-fopenmp, @CFLAGS@, libs)
        build_command = None if args.cflags is not None else build_command_of(args.file)
        if args.cflags is not None:
            check_flags(f"gcc {args.cflags}", None, cli=True)
        if build_command is not None:
            spec = tuning_spec(args.file)
            check_compiler(build_command, spec)
            check_flags(build_command, spec, chosen=defines)
        while region < n_regions:
            # Every region is built, checked and run: a recipe's steps on a later region must
            # not go unchecked because the first one validated.
            r = run_once(args.file, recipe, defines=defines, function=args.function,
                         repetitions=args.repetitions, cflags=args.cflags or "-O3", unsafe=args.unsafe,
                         region=region, extra_decls=decls, build_command=build_command)
            n_regions = r["regions"]
            where = args.file if n_regions == 1 else f"{args.file} region {region}"
            region += 1
            if r["status"] == "compile_error" and r.get("original_status") == "compile_error":
                # (at the annotation's build command where its flags are the ones used)
                at = tuning_spec(args.file).where("build", "build_command") if build_command is not None \
                    else dict(file=args.file)
                raise LooptxError(f"the region as written does not compile with these flags either: "
                                  f"{' '.join(str(r.get('error')).split())}",
                                  hint="check --cflags (or the annotation's build command)", **at)
            if r["status"] != "ok":
                print(to_user(f"{where}: {r['status']}: {r.get('error')}"))
                status = 1
                continue
            # a region of a microsecond or less read "0.000 ms" in a fixed unit
            print(f"{where}: ok  median {format_time(r['median'])} over {len(r['times'])} runs "
                  f"(original {format_time(r['original_median'])}, speed-up {r['speedup']:.2f}x)  "
                  f"max rel err {r['max_rel_error']:.1e}  [{r['compiler']} {r['flags']}]")
        if status == 0:
            from looptx.runtime.cpu import Toolchain
            from looptx.runtime.whole_file import whole_file_problem
            tc = Toolchain.from_options(args.cflags or "-O3", build_command)
            problem = whole_file_problem(args.file, recipe, args.function, tc.compiler,
                                         openmp=any("openmp" in f for f in tc.flags))
            if problem is not None:
                print(to_user(f"{args.file}: compile_error: {problem}"))
                status = 1
        return status
    from looptx.pipeline import load, variants_for
    from looptx.runtime.cuda import run_region, variable_size_problem
    program = load(args.file, defines=defines, function=args.function, extra_decls=decls)
    variants, _ = variants_for(program, recipe, unsafe=args.unsafe)
    _cuda_installed()
    status = 0
    for i, v in variants.items():
        r = run_region(program, i, v, defines, repetitions=args.repetitions)
        if r["status"] == "ok" and defines:
            problem = variable_size_problem(args.file, recipe, defines, i, function=args.function,
                                            extra_decls=decls, unsafe=args.unsafe)
            if problem is not None:
                r.update(status="wrong_result", error=problem)
        if r["status"] == "ok":
            from looptx.runtime.verbatim import misreading
            problem = misreading(args.file, defines, i, function=args.function, extra_decls=decls)
            if problem is not None:
                r.update(status="wrong_result", error=problem)
        for w in r.get("warnings", []):
            print(to_user(f"looptx: warning: {w}"), file=sys.stderr)
        if r["status"] != "ok":
            print(to_user(f"{args.file} region {i}: {r['status']}: {r.get('error')}"))
            status = 1
            continue
        print(f"{args.file} region {i}: ok  kernels {format_time(r['median'])} (median of "
              f"{len(r['times'])})  transfers in {format_time(r['transfer_in'])} out "
              f"{format_time(r['transfer_out'])}  max rel err {r['max_rel_error']:.1e}  [{r['device']}]")
    return status


def _cuda_installed() -> None:
    """A missing optional dependency is a setup the user fixes (exit 2), as `search --backend
    cuda` says it; checked after the file and recipe, which `transform --target cuda` reads
    without a GPU.  A device that fails at run time stays a failed run."""
    import importlib.util
    if importlib.util.find_spec("pycuda") is None:
        raise LooptxError("--target cuda needs pycuda to run the kernels",
                          hint="pip install 'looptx[cuda]' on a machine with an NVIDIA GPU; or run the "
                               "same recipe with --target c, which runs its cuda steps' loops on the CPU and "
                               "validates them, and use `looptx transform --target cuda` to write the .cu")
    from looptx.runtime.cuda import nvcc_path
    if nvcc_path() is None:
        raise LooptxError("--target cuda needs nvcc, which was not found",
                          hint="install the CUDA toolkit or put nvcc on PATH")


def cmd_deps(args) -> int:
    from looptx.report_deps import deps_json, deps_text
    from looptx.pipeline import fragment_inputs, load
    decls, defines = fragment_inputs(args.file, _checked_defines(args))
    program = load(args.file, defines=defines, function=args.function, extra_decls=decls)
    if args.json:
        sys.stdout.write(to_user(json.dumps(deps_json(program), indent=2)) + "\n")
    else:
        sys.stdout.write(to_user(deps_text(program)))
    return 0


def cmd_search(args) -> int:
    from looptx.search.command import run
    if args.list_searchers:
        from looptx.search.registry import available_searchers
        from looptx.search.plugins import broken_plugins, shadowed_plugins
        broken = broken_plugins()
        # listed names must be usable: say why one is not
        for what in list(broken.values()) + shadowed_plugins():
            print(f"looptx: warning: {what}", file=sys.stderr)
        print("\n".join(n for n in available_searchers(hidden=True) if n not in broken))
        return 0
    # a replay checks each -D against the cache's params and recorded values itself, string
    # values included (search/replay_checks.fixed_values); there is no FILE to read them from
    args.define = _member_spelled(args.define)
    _one_value_each(args.define)
    args.defines = {} if args.replay else _checked_defines(args)
    return run(args)


def cmd_report(args) -> int:
    from looptx.search.report import report_command
    return report_command(args)


COMMANDS = {"transform": cmd_transform, "deps": cmd_deps, "run": cmd_run, "search": cmd_search,
            "report": cmd_report}


def _flag_values(argv: list[str]) -> list[str]:
    """`--cflags -O2`: argparse takes a value that starts with '-' for another option, so a
    single compiler flag given as its own word is joined to its option (`--cflags=-O2`)."""
    out, k = [], 0
    while k < len(argv):
        if argv[k] == "--cflags" and k + 1 < len(argv) and argv[k + 1].startswith("-"):
            out.append(f"--cflags={argv[k + 1]}")
            k += 2
            continue
        out.append(argv[k])
        k += 1
    return out


# what the system says of a path it refuses, not of a fault of looptx's
_PATH_ERRNOS = {getattr(errno, n) for n in ("ENAMETOOLONG", "EACCES", "EPERM", "EROFS", "EISDIR", "ENOSPC",
                                             "EDQUOT") if hasattr(errno, n)}


def _regular_inputs(args) -> None:
    """The input file and the recipe are read more than once (a pipe, `<(cat f.c)`, would be
    empty the second time, and a FIFO would wait for a writer that is gone)."""
    for what, path in (("input", getattr(args, "file", None)), ("recipe", getattr(args, "recipe", None))):
        if path and os.path.exists(path) and not os.path.isfile(path):
            kind, fix = ("a directory", "give a file") if os.path.isdir(path) else \
                ("not a regular file (a pipe or a device)", "save it to a file first: looptx reads it more than once")
            raise LooptxError(f"the {what} is {kind}", hint=fix, file=path)


_OUTPUT_ERRNOS = {getattr(errno, n) for n in ("ENOSPC", "EDQUOT", "EIO", "EFBIG") if hasattr(errno, n)}


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--debug" in argv[1:]:
        # the internal-error message says "rerun with --debug": after the command works too
        argv.remove("--debug")
        argv.insert(0, "--debug")
    args = parser().parse_args(_flag_values(argv))
    reset_notes()
    paths_as_given(getattr(args, "file", None), getattr(args, "recipe", None))
    saved = os.environ.get("LOOPTX_INCLUDE_PATH")
    try:
        given_dirs = _include_path(getattr(args, "include_dir", None))
        if given_dirs:
            os.environ["LOOPTX_INCLUDE_PATH"] = given_dirs
        _regular_inputs(args)
        rc = COMMANDS[args.command](args)
        flush_notes()
        return rc
    except LooptxError as e:
        if getattr(args, "debug", False):
            import traceback
            traceback.print_exc()
        # (a replay's or a report's error is about the cache or the database it reads)
        given = getattr(args, "file", None) or getattr(args, "replay", None) \
            or (args.db if args.command == "report" else None)
        if given and (e.file is None or os.path.abspath(e.file) == os.path.abspath(given)):
            e.file = given          # as the user wrote it (workers load it by absolute path)
        drop_notes() if e.exit_code == 2 else flush_notes()
        print(str(e), file=sys.stderr)
        return e.exit_code
    except KeyboardInterrupt:
        print("looptx: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as e:                      # an internal bug: short message, exit 1
        flush_notes()
        if getattr(args, "debug", False):
            import traceback
            traceback.print_exc()
        from looptx.search.plugins import plugin_fault
        fault = plugin_fault(e)
        if fault:
            print(fault, file=sys.stderr)
            return 1                # a failed run: neither looptx's bug nor the user's input
        if isinstance(e, OSError) and not e.filename and e.errno in _OUTPUT_ERRNOS or sys.stdout is None:
            # stdout to a full disk (> /dev/full), or closed (>&-): not looptx's bug
            why, fix = ("it is closed", "run it with stdout open") if sys.stdout is None else \
                (e.strerror, "free space, or write it elsewhere")
            print(f"looptx: error: cannot write the output to stdout: {why} ({fix})", file=sys.stderr)
            return 2
        if isinstance(e, OSError) and e.filename and e.errno in _PATH_ERRNOS:
            # a path the user gave that the system refuses (a name too long, /sys): bad input
            print(f"{e.filename}: error: {e.strerror} (give another path, or check its permissions)", file=sys.stderr)
            return 2
        where = f" while processing {args.file}" if getattr(args, "file", None) else ""
        print(f"looptx: internal error{where}: {type(e).__name__}: {e} "
              f"(please report it; rerun with --debug for a traceback)", file=sys.stderr)
        return 1
    finally:
        if saved is None:
            os.environ.pop("LOOPTX_INCLUDE_PATH", None)
        else:
            os.environ["LOOPTX_INCLUDE_PATH"] = saved


if __name__ == "__main__":
    sys.exit(main())
