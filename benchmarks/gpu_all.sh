#!/usr/bin/env bash
# Everything that needs the GPU, in one call (device time is scarce): the gpu-marked tests, then
# the benchmark.  Uses the wheels of ../shared/wheels copied into .whl/ where there are (pycuda for
# cp312), else the installed looptx[cuda].
set -uo pipefail
cd "$(dirname "$0")/.."
# the maintainers' device machine has no package index: the wheels come in .whl/; elsewhere the
# installed looptx[cuda] (with torch, cupy for the baselines) is used
if ls .whl/*.whl >/dev/null 2>&1; then
  python3 -m pip install -q --no-index --no-deps --target /tmp/site .whl/*.whl || exit 1
fi
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1 LOOPTX_CACHE_DIR=/tmp/lxcache
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
python3 -m pytest -q -m gpu -p no:cacheprovider -n ${JOBS:-1} tests/test_gpu.py 2>&1 | tee "$OUT/pytest_gpu.log" | tail -40
python3 benchmarks/gpu_bench.py --reps 20 2>&1 | tee "$OUT/gpu_bench.log"
