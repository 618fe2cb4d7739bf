#!/usr/bin/env bash
# One device call: install the carried wheels, run the GPU test suite (or the given test files),
# then the benchmarks (or the given sections).  Logs land in $OUT: test.log, bench.log (and
# bench.json, written by benchmarks/run.py).
# wheels: bash ../shared/gpu/fetch-wheels.sh greenlet==3.5.6 nvidia-cuda-cccl==13.3.5.0.6 (once, on the
# developer machine; the CCCL headers: the GPU image lacks them, and without them sorting falls
# back from CUB's kernels to the generated radix sort)
# usage: bash scripts/gpu_run.sh ["<test files>" ["<benchmark sections>"]]
#   env: JOBS (pytest workers, 16), BENCH=0 (no benchmarks), BENCH_ARGS (more run.py arguments),
#        TAIL / BTAIL (lines of each log echoed, 60 / 80), SHARD=k/n (the k-th of n disjoint
#        parts of the suite: the whole GPU suite no longer fits one 10-minute call),
#        TEST_TIMEOUT / BENCH_TIMEOUT (seconds, 420 / 150: a step cut off still leaves its log,
#        and the verbose test log names every failure as it happens)
# Dask wheels (dask, distributed, dask-cuda, ...) carried in .whl: npgpu's Dask backend entry
# point is registered by a dist-info beside them (the checkout runs from PYTHONPATH, uninstalled).
set -uo pipefail
cd "$(dirname "$0")/.."
source .whl/setup.sh || exit 1
export NPGPU_CACHE_DIR=/tmp/npgpu-cache
export NPGPU_TEST_SHARD=${SHARD:-}
ep=/tmp/site/npgpu-0.0.dist-info
mkdir -p "$ep" && printf 'Metadata-Version: 2.1\nName: npgpu\nVersion: 0.0\n' > "$ep/METADATA" \
  && sed -n '/^\[project.entry-points/,/^$/p' pyproject.toml | grep -v '^#' \
  | sed -e 's/^\[project.entry-points."\(.*\)"\]/[\1]/' -e 's/"//g' > "$ep/entry_points.txt"
tests=${1:-${TESTS:-tests}}
timeout "${TEST_TIMEOUT:-420}" python3 -m pytest -v -n "${JOBS:-16}" -rs --durations=150 \
  -p no:cacheprovider $tests > "$OUT/test.log" 2>&1
grep -E '(FAILED|ERROR) tests/' "$OUT/test.log" | sort -u | head -40
grep -v -E '(PASSED|SKIPPED|XFAIL|FAILED|ERROR) tests/' "$OUT/test.log" | tail -"${TAIL:-60}"
if [ "${BENCH:-1}" != 0 ]; then
  timeout "${BENCH_TIMEOUT:-150}" python3 benchmarks/run.py ${2:+--only $2} ${BENCH_ARGS:-} \
    > "$OUT/bench.log" 2>&1
  grep -v '^\[' "$OUT/bench.log" | tail -"${BTAIL:-80}"
fi
