#!/usr/bin/env bash
# The test suite as CI runs it: pytest on the simulator (or the GPU, if there is one), recording
# every kernel the generator renders, then a PTX compile of each for sm_90 with Numba's real
# typing and NVVM (the simulator does neither).  The PTX check skips kernels that passed before
# with the same source and toolchain; NPGPU_PTX_CACHE=0 compiles every one.
set -euo pipefail
cd "$(dirname "$0")/.."
# one pytest worker more than cores: measured 22% faster on 2 cores when simulated CUDA threads
# were OS threads waiting at barriers (now greenlets: not re-measured); the PTX compile is
# CPU-bound, one job per core
cores=$(nproc 2>/dev/null || echo 2)
jobs=${NPGPU_TEST_JOBS:-$((cores + 1))}
rec=$(mktemp -d -t npgpu-kernels-XXXXXX)
trap 'rm -rf "$rec"' EXIT
NPGPU_RECORD_KERNELS="$rec" python -m pytest -q -n "$jobs" "$@" tests
cache=()
[ "${NPGPU_PTX_CACHE:-1}" = 0 ] && cache=(--no-cache)
python -m npgpu._codegen.ptxcheck "$rec" --jobs "${NPGPU_PTX_JOBS:-$cores}" "${cache[@]}"
