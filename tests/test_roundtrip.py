"""Identity round trip: every corpus kernel regenerated from the model prints bit-identical
results to the original, at a dividing and an odd size set."""
import functools

import pytest

from difftest import check_same, kernel_files, region_function, size_sets
from looptx.pipeline import transform_file


@functools.lru_cache(maxsize=None)
def regenerated(kernel) -> str:
    """The kernel's identity transform, made once per process for both of its size sets."""
    return transform_file(str(kernel), function=region_function(kernel))


CASES = [(k, i) for k in kernel_files() for i in range(2)]


@pytest.mark.parametrize("kernel,which", CASES, ids=[f"{k.stem}-{i}" for k, i in CASES])
def test_identity_round_trip(kernel, which):
    sizes = size_sets(kernel)[which]
    out = regenerated(kernel)
    check_same(kernel, out, sizes)


def test_corpus_is_large_enough():
    assert len(kernel_files()) >= 20
