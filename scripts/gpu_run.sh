#!/usr/bin/env bash
# One device call: install the carried wheels, run the GPU test suite (or the given test files),
# then the benchmarks (or the given sections).  Logs land in $OUT: test.log, bench.log (and
# bench.json, written by benchmarks/run.py).
# wheels: bash ../shared/gpu/fetch-wheels.sh greenlet==3.5.6 (once, on the developer machine)
# usage: bash scripts/gpu_run.sh ["<test files>" ["<benchmark sections>"]]
#   env: JOBS (pytest workers, 16), BENCH=0 (no benchmarks), BENCH_ARGS (more run.py arguments),
#        TAIL / BTAIL (lines of each log echoed, 60 / 80), SHARD=k/n (the k-th of n disjoint
#        parts of the suite: the whole GPU suite no longer fits one 10-minute call)
set -uo pipefail
cd "$(dirname "$0")/.."
source .whl/setup.sh || exit 1
export NPGPU_CACHE_DIR=/tmp/npgpu-cache
export NPGPU_TEST_SHARD=${SHARD:-}
tests=${1:-${TESTS:-tests}}
python3 -m pytest -q -n "${JOBS:-16}" -rs --durations=25 -p no:cacheprovider $tests 2>&1 | tee "$OUT/test.log" | tail -"${TAIL:-60}"
if [ "${BENCH:-1}" != 0 ]; then
  python3 benchmarks/run.py ${2:+--only $2} ${BENCH_ARGS:-} > "$OUT/bench.log" 2>&1
  grep -v '^\[' "$OUT/bench.log" | tail -"${BTAIL:-80}"
fi
