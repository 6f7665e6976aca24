"""Command line: `looptx transform | deps | run | search | report`.

Exit codes: 0 success, 1 internal error or failed run, 2 bad input (one line on stderr)."""
from __future__ import annotations

import argparse
import json
import os
import sys

from looptx import __version__
from looptx.errors import LooptxError


def _defines(values: list[str] | None) -> dict[str, int]:
    out = {}
    for item in values or []:
        name, sep, val = item.partition("=")
        if not sep or not name.isidentifier():
            raise LooptxError(f"bad --define '{item}'", hint="write --define NAME=INTEGER")
        try:
            out[name] = int(val, 0)
        except ValueError:
            raise LooptxError(f"bad --define '{item}': '{val}' is not an integer",
                              hint="write --define NAME=INTEGER") from None
    return out


def _common(p: argparse.ArgumentParser):
    p.add_argument("file", help="C file with marked regions (#pragma scop or /*@ begin CHiLL ... @*/)")
    p.add_argument("--define", "-D", action="append", metavar="N=V",
                   help="fix a parameter (size) to a value; fixed sizes give tighter code")
    p.add_argument("--function", metavar="NAME", help="work on regions in NAME (or its whole body)")


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
    t.add_argument("-o", "--output", metavar="OUT", help="output file (default: stdout)")
    t.add_argument("--show-steps", action="store_true", help="print the loop tree after every step")
    t.add_argument("--unsafe", action="store_true", help="skip dependence checks (marked in the output)")
    t.add_argument("--standalone", action="store_true",
                   help="with --target cuda: add a main() that fills the inputs and times the kernels")

    d = sub.add_parser("deps", help="print the exact dependences of each region")
    _common(d)
    d.add_argument("--json", action="store_true", help="machine-readable output")
    return ap


def cmd_transform(args) -> int:
    from looptx.pipeline import transform_file
    text = transform_file(args.file, recipe=args.recipe, defines=_defines(args.define),
                          function=args.function, unsafe=args.unsafe, target=args.target,
                          show_steps=sys.stdout if args.show_steps else None,
                          standalone=args.standalone, warn=sys.stderr)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


def cmd_deps(args) -> int:
    from looptx.report_deps import deps_json, deps_text
    from looptx.pipeline import load
    program = load(args.file, defines=_defines(args.define), function=args.function)
    if args.json:
        json.dump(deps_json(program), sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(deps_text(program))
    return 0


COMMANDS = {"transform": cmd_transform, "deps": cmd_deps}


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return COMMANDS[args.command](args)
    except LooptxError as e:
        if getattr(args, "debug", False):
            import traceback
            traceback.print_exc()
        if e.file is None and getattr(args, "file", None):
            e.file = args.file
        print(str(e), file=sys.stderr)
        return e.exit_code
    except KeyboardInterrupt:
        print("looptx: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as e:                      # an internal bug: short message, exit 1
        if getattr(args, "debug", False):
            import traceback
            traceback.print_exc()
        where = f" while processing {args.file}" if getattr(args, "file", None) else ""
        print(f"looptx: internal error{where}: {type(e).__name__}: {e} "
              f"(please report it; rerun with --debug for a traceback)", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
