# One device call: the GPU tests of the given files (default: all) and the benchmarks.
# usage: bash scripts/gpu_call.sh "<test files>" "<benchmark sections>"
source .whl/setup.sh && export NPGPU_CACHE_DIR=/tmp/npgpu-cache
python3 -m pytest -q -n 16 ${1:-tests} 2>&1 | tail -15 | tee $OUT/tests.log
python3 benchmarks/run.py ${2:+--only $2} 2>&1 | grep -v "^\[" | tee $OUT/bench.log
