"""Every recipe step on the core corpus: gcc, seeded inputs, a dividing and a non-dividing size
set; accepted steps must give bit-identical outputs (exact legality keeps each element's update
order)."""
import zlib

import pytest

from difftest import check_same, corpus_program, kernel_files, size_sets
from recipe_cases import candidates, transform_text

KINDS = ["permute", "tile", "split", "unroll", "fuse", "distribute", "skew", "shift", "peel", "reverse",
         "registers", "datacopy"]
MIN_ACCEPTED = {"fuse": 2, "distribute": 3}
# steps with a size a problem size may or may not divide (a tile, an unroll factor, a copy's
# tile); the others are checked at the second, non-dividing (odd) size set only
SIZED = {"tile", "unroll", "datacopy"}


# The kinds with the most candidates run on a fixed half of the corpus each (a different half
# per kind, so that every kernel meets most kinds): the whole sweep took a third of CI's time
# on two cores.  tests/test_fuzz_regressions.py and the probes' tests cover the steps elsewhere.
HALVED = {"tile", "unroll", "peel", "split", "shift", "skew", "reverse", "datacopy"}


def _kernels(kind: str):
    files = kernel_files()
    if kind not in HALVED:
        return files
    return [k for k in files if zlib.crc32(f"{kind}:{k.stem}".encode()) % 2 == 0]


@pytest.mark.parametrize("kind", KINDS)
def test_step_on_corpus(kind):
    accepted, rejected, tried = [], [], 0
    for k in _kernels(kind):
        prog = corpus_program(k)
        for step in candidates(prog, kind):
            tried += 1
            text, err = transform_text(prog, [step])
            if text is None:
                rejected.append((k.stem, step, str(err)))
                continue
            # sizes that do and do not divide the step's sizes where it has any; the others
            # check at the non-dividing set (the second) only
            for sizes in size_sets(k) if kind in SIZED else size_sets(k)[-1:]:
                check_same(k, text, sizes)
            accepted.append((k.stem, step))
    assert len(accepted) >= MIN_ACCEPTED.get(kind, 8), (kind, len(accepted), rejected[:10])
    print(f"{kind}: tried {tried}, accepted {len(accepted)}, rejected {len(rejected)}")
