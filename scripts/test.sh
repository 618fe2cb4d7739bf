#!/usr/bin/env bash
# The test suite as CI runs it: pytest on the simulator (or the GPU, if there is one), recording
# every kernel the generator renders, then a PTX compile of each for sm_90 with Numba's real
# typing and NVVM (the simulator does neither).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${NPGPU_TEST_JOBS:-2}
rec=$(mktemp -d -t npgpu-kernels-XXXXXX)
trap 'rm -rf "$rec"' EXIT
NPGPU_RECORD_KERNELS="$rec" python -m pytest -q -n "$jobs" "$@" tests
python -m npgpu._codegen.ptxcheck "$rec" --jobs "$jobs"
