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
# One xdist worker failing every test from some point on: a kernel faulted (an illegal address
# leaves that process's CUDA context unusable) and the first test to synchronise reports it.
# Rerun that worker's tests in its order (from test.log's "[gwN]" lines, as a pytest @argsfile)
# with CUDA_LAUNCH_BLOCKING=1: the faulting launch then raises at its own call.
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
# PTX store (npgpu/_codegen/shipped.py): a carried .ptxstore/store.tar.xz (an earlier call's
# $OUT/ptxstore.tar.xz, kept in the ignored .ptxstore/) is read, so its kernels skip Numba's
# compile on this fresh machine; PTX_OUT=1 writes this call's compiled kernels, with the
# carried ones, to $OUT/ptxstore.tar.xz for the next call
if [ -f .ptxstore/store.tar.xz ]; then
  mkdir -p /tmp/ptx-in && tar -xJf .ptxstore/store.tar.xz -C /tmp/ptx-in \
    && export NPGPU_PTX_STORE=/tmp/ptx-in
fi
[ "${PTX_OUT:-0}" != 0 ] && mkdir -p /tmp/ptx-out && export NPGPU_PTX_STORE_OUT=/tmp/ptx-out
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
if [ -n "${NPGPU_PTX_STORE_OUT:-}" ]; then
  [ -d /tmp/ptx-in ] && cp -n /tmp/ptx-in/* /tmp/ptx-out/ 2>/dev/null
  tar -I "xz -T16 -6" -cf "$OUT/ptxstore.tar.xz" -C /tmp/ptx-out . \
    && echo "PTX store: $(ls /tmp/ptx-out | grep -c json) kernels, $(du -h "$OUT/ptxstore.tar.xz" | cut -f1)"
fi
