#!/usr/bin/env bash
# One device call: install the carried wheels, run the given test files on the GPU, then the
# benchmarks. Logs land in $OUT.
set -uo pipefail
source .whl/setup.sh || exit 1
export NPGPU_CACHE_DIR=/tmp/npgpu-cache
tests=${TESTS:-tests}
python3 -m pytest -q -n ${JOBS:-16} -rs -p no:cacheprovider $tests 2>&1 | tee $OUT/test.log | tail -${TAIL:-60}
if [ -n "${BENCH:-1}" ] && [ "${BENCH:-1}" != 0 ]; then
  python3 benchmarks/run.py ${BENCH_ARGS:-} 2>&1 > $OUT/bench.log; tail -${BTAIL:-80} $OUT/bench.log
fi
