#!/usr/bin/env bash
# Runs the Array API conformance suite (data-apis/array-api-tests, with its array-api submodule
# checked out) against npgpu, file by file, and prints each file's pass/fail line.
# Not part of CI: on the simulator each file takes minutes.  Needs `pip install ndindex
# pytest-json-report` besides the test extras (hypothesis).
#
#   ARRAY_API_TESTS_DIR=/path/to/array-api-tests bash benchmarks/experiments/array_api_conformance.sh \
#       [test_file ...]        # default: the files below
# Knobs: MAX_EXAMPLES (default 5), FILE_TIMEOUT seconds per file (default 900), OUT_DIR (logs).
set -u
: "${ARRAY_API_TESTS_DIR:?set ARRAY_API_TESTS_DIR to a checkout of data-apis/array-api-tests}"
MAX_EXAMPLES=${MAX_EXAMPLES:-5}
FILE_TIMEOUT=${FILE_TIMEOUT:-900}
OUT_DIR=${OUT_DIR:-$(mktemp -d)}
mkdir -p "$OUT_DIR"
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  files=(test_has_names test_signatures test_constants test_data_type_functions
         test_creation_functions test_array_object test_manipulation_functions
         test_indexing_functions test_searching_functions test_statistical_functions test_linalg)
fi
export ARRAY_API_TESTS_MODULE=npgpu ARRAY_API_TESTS_VERSION=2024.12
export PYTHONPATH="$(cd "$(dirname "$0")/../.." && pwd)${PYTHONPATH:+:$PYTHONPATH}"
cd "$ARRAY_API_TESTS_DIR" || exit 1
for f in "${files[@]}"; do
  f=${f%.py}
  timeout "$FILE_TIMEOUT" python -m pytest -q -p no:cacheprovider "array_api_tests/$f.py" \
      --max-examples "$MAX_EXAMPLES" --disable-deadline -rf > "$OUT_DIR/$f.txt" 2>&1
  rc=$?
  [ $rc -eq 124 ] && note="(timed out after ${FILE_TIMEOUT}s)" || note=""
  printf '%-32s %s %s\n' "$f" "$(grep -E '(passed|failed)' "$OUT_DIR/$f.txt" | tail -1)" "$note"
done
echo "logs: $OUT_DIR"
