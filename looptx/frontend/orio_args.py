"""The `arg` names each PerfTuning section accepts.  An unknown name (a misspelling such as
`arg repetition`) would otherwise be ignored silently."""
from __future__ import annotations

import difflib

from looptx.errors import AnnotationError


# The args each section knows (Orio's tune_info.py, plus looptx's own: performance_counter
# timeout, validation rtol); `def search` args are checked by the searcher, which owns its options.
KNOWN_ARGS = {
    "build": ("build_command", "libs", "prebuild_command", "postbuild_command", "postrun_command",
              "batch_command", "status_command", "num_procs", "timer_file", "CC", "CXX", "FC",
              "CFLAGS", "CXXFLAGS", "FCFLAGS", "CLIBS", "CXXLIBS", "FCLIBS"),
    "performance_counter": ("method", "repetitions", "random_seed", "timing_array_size", "timeout"),
    "power": ("method", "repetitions", "random_seed", "power_array_size"),
    "input_vars": ("decl_file", "init_file"),
    "performance_test_code": ("skeleton_code_file", "skeleton_test_code"),
    "validation": ("validation_file", "expected_output", "rtol"),
    "other": ("device_spec_file",),
}


def check_arg_names(args: dict, arg_where: dict) -> None:
    """An arg a section does not know (a misspelling such as `arg repetition`) would be ignored
    silently: report it where it is written, with the closest known name."""
    for section, names in args.items():
        known = KNOWN_ARGS.get(section)
        if known is None:
            continue
        for name in names:
            if name in known:
                continue
            f, line, col = arg_where[(section, name)]
            close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
            if not close:
                close = [k for k in known if k.lower() == name.lower()]
            hint = f"did you mean '{close[0]}'?" if close else \
                f"def {section} knows: {', '.join(known)}"
            raise AnnotationError(f"unknown arg '{name}' in def {section}", hint=hint,
                                  file=f, line=line, col=col)
