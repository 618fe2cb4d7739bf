"""Every worked example in examples/ runs at its small size and passes its own NumPy checks.

Each runs in a subprocess as a user would start it (``python examples/NAME.py --small``: the
simulator's size, on a GPU too) and must exit 0 after printing its check line.  The examples
assert their results against NumPy themselves; this test is what makes CI run them.
"""
import os
import pathlib
import subprocess
import sys

import pytest

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples"
sys.path.insert(0, str(EXAMPLES))
from timing_and_checks import CHECK_LINE  # noqa: E402

from conftest import ON_GPU  # noqa: E402

# the quickstart has its own check (README's first command, .ci/run); the helper and the runner
# of them all are no examples
NOT_EXAMPLES = {"quickstart.py", "timing_and_checks.py", "run_all.py"}
SCRIPTS = sorted(p.name for p in EXAMPLES.glob("*.py") if p.name not in NOT_EXAMPLES)
# parts of these need a GPU: the RawKernel launch, the overlap timing, prefetching
NEED_A_GPU = {"matmul_three_ways.py", "streams_overlap.py", "managed_memory.py"}
TIMEOUT_S = 180          # a few seconds each on the 2-core CI machine; generous for a busy one


def test_every_example_is_listed_in_the_readme():
    readme = (EXAMPLES / "README.md").read_text()
    assert len(SCRIPTS) >= 8
    missing = [s for s in SCRIPTS if f"examples/{s}" not in readme]
    assert not missing, f"examples/README.md does not list {missing}"


@pytest.mark.parametrize("script", SCRIPTS)
def test_example_runs_and_checks(script):
    env = dict(os.environ)
    env.pop("NPGPU_DUMP_KERNELS", None)          # keep the output to the example's own lines
    proc = subprocess.run([sys.executable, str(EXAMPLES / script), "--small"], env=env,
                          cwd=EXAMPLES.parent, capture_output=True, text=True,
                          timeout=TIMEOUT_S)
    out = proc.stdout
    assert proc.returncode == 0, f"{script} exited {proc.returncode}\n{out}\n{proc.stderr[-4000:]}"
    assert CHECK_LINE in out, f"{script} did not print {CHECK_LINE!r}\n{out}"
    assert "FAILED" not in out
    lines = [ln for ln in out.splitlines() if ln.strip()]
    assert len(lines) >= 4, f"{script}: expected a line per step\n{out}"
    if not ON_GPU and script in NEED_A_GPU:
        assert "skipped: needs a GPU" in out        # said, and the rest still ran and checked


def test_run_all_runs_examples_and_sums_up(tmp_path):
    """examples/run_all.py (the GPU's large-size run of them all) on one example: its lines
    echoed with the example's name, the summary line, and $OUT/examples.md."""
    env = dict(os.environ, OUT=str(tmp_path))
    env.pop("NPGPU_DUMP_KERNELS", None)
    proc = subprocess.run([sys.executable, str(EXAMPLES / "run_all.py"), "--small", "--only",
                           "fuse_formula"], env=env, cwd=EXAMPLES.parent, capture_output=True,
                          text=True, timeout=TIMEOUT_S)
    assert proc.returncode == 0, proc.stdout + proc.stderr[-4000:]
    assert f"[fuse_formula] {CHECK_LINE}" in proc.stdout
    assert any(ln.startswith("fuse_formula") and ln.endswith("passed")
               for ln in proc.stdout.splitlines())
    report = (tmp_path / "examples.md").read_text()
    assert "## fuse_formula" in report and CHECK_LINE in report
    bad = subprocess.run([sys.executable, str(EXAMPLES / "run_all.py"), "--only", "nope"],
                         env=env, cwd=EXAMPLES.parent, capture_output=True, text=True)
    assert bad.returncode == 2 and "no such example: nope" in bad.stderr
