#!/usr/bin/env bash
# The issue-5/6 GPU search runs, in one device call: an exhaustive search of an annotated GPU
# space (recorded as a Kernel Tuner cache for replay), then each searcher with SEARCH_BUDGET
# evaluations, every run with its own cold nvcc cache so that wall times compare.
#   SRC=examples/gpu/matmul_search.c TAG=matmul SEARCHERS="random surf+ ..." SEQ=1 (surf+ at bs 1)
#   EXHAUSTIVE=0 (skip the exhaustive run) or EXH_DB=path/exhaustive.db (reuse one)  PYTEST="tests/test_gpu.py ..." (gpu tests afterwards)
# Expects ../shared/wheels in .whl/ and, for images without scikit-learn/rich, their wheels in .whl2/.
set -uo pipefail
cd "$(dirname "$0")/.."
# the maintainers' device machine has no package index: the wheels come in .whl/; elsewhere the
# installed looptx[cuda] (with torch, cupy for the baselines) is used
if ls .whl/*.whl >/dev/null 2>&1; then
  python3 -m pip install -q --no-index --no-deps --target /tmp/site .whl/*.whl || exit 1
fi
for pair in sklearn:scikit_learn scipy:scipy joblib:joblib threadpoolctl:threadpoolctl \
            rich:rich markdown_it:markdown_it_py mdurl:mdurl pygments:pygments yaml:pyyaml; do
  mod=${pair%%:*}; whl=${pair##*:}
  python3 -c "import $mod" 2>/dev/null || { ls .whl2/${whl}-*.whl >/dev/null 2>&1 &&
    python3 -m pip install -q --no-index --no-deps --target /tmp/site .whl2/${whl}-*.whl; }
done
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
SRC=${SRC:-examples/gpu/matmul_search.c}
TAG=${TAG:-matmul}
BUDGET=${SEARCH_BUDGET:-60}
SEARCHERS=${SEARCHERS-random surf+ surf annealing genetic greedy_ils simplex pso}
FINAL=${OUT:-/tmp/out}; OUT=/tmp/gpu-search-$TAG; mkdir -p "$OUT" "$FINAL"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"

run() {   # run NAME ALGO BATCH [extra...]
  local name=$1 algo=$2 bs=$3; shift 3
  local t0=$(date +%s.%N)
  LOOPTX_CACHE_DIR=/tmp/lx-$TAG-$name python3 -m looptx search $SRC --backend cuda -a "$algo" \
      --batch-size "$bs" --db "$OUT/$name.db" --no-progress --top 5 "$@" > "$OUT/$name.log" 2>&1
  local rc=$?
  local t1=$(date +%s.%N)
  echo "$name $(python3 -c "print(f'{$t1 - $t0:.1f}')") rc=$rc" | tee -a "$OUT/walltimes.txt"
  cp "${SRC%.c}.best.cu" "$OUT/$name.best.cu" 2>/dev/null
  tail -2 "$OUT/$name.log"
}

if [ -n "${EXH_DB:-}" ]; then
  cp "$EXH_DB" "$OUT/exhaustive.db"     # an earlier exhaustive run to compare against
elif [ "${EXHAUSTIVE:-1}" = 1 ]; then
  run exhaustive exhaustive 16 --budget 100000
  python3 -m looptx report "$OUT/exhaustive.db" --kernel-tuner "$OUT/${TAG}_cuda.json" --top 10 > "$OUT/exhaustive.report" 2>&1
  gzip -kf "$OUT/${TAG}_cuda.json"
fi
for a in $SEARCHERS; do run "${a/+/plus}" "$a" 8 --budget "$BUDGET"; done
[ "${SEQ:-0}" = 1 ] && run surfplus_seq surf+ 1 --budget "$BUDGET"
[ -n "${PYTEST:-}" ] && python3 -m pytest -q -m gpu -p no:cacheprovider -n ${JOBS:-8} $PYTEST 2>&1 | tail -15 | tee "$OUT/pytest.log"
python3 benchmarks/gpu_search_summary.py "$OUT" | tee "$OUT/summary.txt"
# few files come back from the device: one archive, the summary and the recorded space
tar czf "$FINAL/$TAG.tgz" -C "$OUT" . && cp "$OUT/summary.txt" "$FINAL/$TAG-summary.txt"
cp "$OUT/${TAG}_cuda.json.gz" "$FINAL/" 2>/dev/null; true
