"""Backend selection (real CUDA or Numba's simulator), each case in a fresh interpreter.

The choice happens once, at import, so every case runs ``python -c`` in a
subprocess with its own environment.  On a machine without a GPU the cases that
force CUDA expect an error; on a GPU machine they expect the ``cuda`` backend.
"""
import os
import subprocess
import sys
import textwrap

import pytest

import npgpu
from npgpu import _backend

HAS_GPU = _backend._probe_driver()[0] > 0

# A snippet that imports npgpu (after `pre`), counts npgpu's warnings and prints the backend.
PROBE = """
import warnings
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    {pre}
    import npgpu
    import npgpu           # a second import must not warn again
notes = [str(w.message) for w in caught if "npgpu" in str(w.message)]
print("BACKEND", npgpu.backend())
print("WARNINGS", len(notes))
for n in notes:
    print("MSG", n)
{post}
"""


def run(pre="", post="", **env_vars):
    env = {k: v for k, v in os.environ.items() if k not in ("NPGPU_BACKEND", "NUMBA_ENABLE_CUDASIM")}
    env.update(env_vars)
    code = textwrap.dedent(PROBE).format(pre=pre, post=textwrap.dedent(post))
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                       timeout=300)
    return r


def field(r, key):
    for line in r.stdout.splitlines():
        if line.startswith(key + " "):
            return line[len(key) + 1:]
    raise AssertionError(f"no {key} line in output:\n{r.stdout}\n{r.stderr}")


COMPUTE = """
import numpy as np
x = npgpu.asarray(np.arange(4.0)) * 2.0
print("RESULT", x.get().tolist())
"""


def test_backend_in_this_process():
    assert npgpu.backend() in ("cuda", "simulator")
    assert npgpu.backend() == _backend.NAME
    assert issubclass(npgpu.BackendUnavailableError, RuntimeError)


def test_default_choice():
    r = run(post=COMPUTE)
    assert r.returncode == 0, r.stderr
    assert field(r, "RESULT") == "[0.0, 2.0, 4.0, 6.0]"
    if HAS_GPU:
        assert field(r, "BACKEND") == "cuda"
        assert field(r, "WARNINGS") == "0"
    else:
        assert field(r, "BACKEND") == "simulator"
        assert field(r, "WARNINGS") == "1"            # exactly one clear warning
        msg = field(r, "MSG")
        assert "simulator" in msg and "no usable CUDA device" in msg and "NPGPU_BACKEND" in msg


def test_force_simulator():
    r = run(post=COMPUTE, NPGPU_BACKEND="simulator")
    assert r.returncode == 0, r.stderr
    assert field(r, "BACKEND") == "simulator"
    assert field(r, "WARNINGS") == "0"                # asked for: no warning
    assert field(r, "RESULT") == "[0.0, 2.0, 4.0, 6.0]"


def test_force_simulator_case_insensitive():
    r = run(NPGPU_BACKEND=" Simulator ")
    assert r.returncode == 0, r.stderr
    assert field(r, "BACKEND") == "simulator"


def test_numba_cudasim_env_selects_simulator():
    r = run(NUMBA_ENABLE_CUDASIM="1")
    assert r.returncode == 0, r.stderr
    assert field(r, "BACKEND") == "simulator" and field(r, "WARNINGS") == "0"


def test_force_cuda():
    r = run(post=COMPUTE, NPGPU_BACKEND="cuda")
    if HAS_GPU:
        assert r.returncode == 0, r.stderr
        assert field(r, "BACKEND") == "cuda"
        assert field(r, "RESULT") == "[0.0, 2.0, 4.0, 6.0]"
    else:
        assert r.returncode != 0
        assert "BackendUnavailableError" in r.stderr
        assert "NPGPU_BACKEND=cuda was requested" in r.stderr
        assert "libcuda" in r.stderr or "no device" in r.stderr     # says why


def test_bad_backend_name():
    r = run(NPGPU_BACKEND="opencl")
    assert r.returncode != 0
    assert "ValueError" in r.stderr and "NPGPU_BACKEND must be" in r.stderr and "opencl" in r.stderr


def test_follows_numba_simulator_mode():
    post = textwrap.dedent("""
    from numba.cuda.core import config
    print("NUMBA_SIM", bool(config.ENABLE_CUDASIM))
    """) + COMPUTE
    r = run(pre="import numba.cuda", post=post, NUMBA_ENABLE_CUDASIM="1")
    assert r.returncode == 0, r.stderr
    assert field(r, "BACKEND") == "simulator" and field(r, "WARNINGS") == "0"
    assert field(r, "NUMBA_SIM") == "True"
    assert field(r, "RESULT") == "[0.0, 2.0, 4.0, 6.0]"


def test_follows_numba_real_mode():
    post = """
    try:
        npgpu.zeros(3)
        print("OP ok")
    except npgpu.BackendUnavailableError as e:
        print("OP", e)
    print("F32", npgpu.float32 is np.float32)
    """
    r = run(pre="import numba.cuda\n    import numpy as np", post=post, NUMBA_ENABLE_CUDASIM="0")
    assert r.returncode == 0, r.stderr                 # import always succeeds
    assert field(r, "F32") == "True"
    if HAS_GPU:
        assert field(r, "BACKEND") == "cuda"
        assert field(r, "OP") == "ok"
    else:
        assert field(r, "BACKEND") == "unavailable"
        op = field(r, "OP")
        # the first device operation says what is wrong and how to fix it
        assert "real-CUDA mode" in op and "NPGPU_BACKEND=simulator" in op
        assert "NUMBA_ENABLE_CUDASIM=1" in op


def test_unavailable_backend_device_calls_raise():
    if HAS_GPU:
        pytest.skip("the 'unavailable' backend only occurs without a CUDA device")
    post = """
    import numpy as np
    for name, f in [("asarray", lambda: npgpu.asarray(np.arange(3))),
                    ("device_count", npgpu.cuda.get_device_count),
                    ("synchronize", lambda: npgpu.cuda.Device().synchronize()),
                    ("pool", lambda: npgpu.get_default_memory_pool().malloc(8))]:
        try:
            f()
            print("CALL", name, "ok")
        except npgpu.BackendUnavailableError:
            print("CALL", name, "raised")
    """
    r = run(pre="import numba.cuda", post=post, NUMBA_ENABLE_CUDASIM="0")
    assert r.returncode == 0, r.stderr
    calls = [line for line in r.stdout.splitlines() if line.startswith("CALL")]
    assert calls and all(line.endswith("raised") for line in calls), r.stdout


def test_forced_cuda_conflicts_with_numba_simulator():
    r = run(pre="import numba.cuda", NUMBA_ENABLE_CUDASIM="1", NPGPU_BACKEND="cuda")
    assert r.returncode != 0
    assert "BackendUnavailableError" in r.stderr and "simulator mode" in r.stderr


def test_forced_simulator_conflicts_with_numba_real_mode():
    r = run(pre="import numba.cuda", NUMBA_ENABLE_CUDASIM="0", NPGPU_BACKEND="simulator")
    assert r.returncode != 0
    assert "BackendUnavailableError" in r.stderr and "real-CUDA mode" in r.stderr
    assert "NUMBA_ENABLE_CUDASIM=1" in r.stderr


def test_compile_only_mode():
    post = """
    try:
        npgpu.ones(2)
    except npgpu.BackendUnavailableError as e:
        print("OP", e)
    """
    r = run(post=post, NPGPU_BACKEND="compile-only")
    assert r.returncode == 0, r.stderr
    assert field(r, "BACKEND") == "unavailable"
    assert "compile-only" in field(r, "OP")


@pytest.mark.skipif(HAS_GPU, reason="the warning is given only without a device")
@pytest.mark.parametrize("line", ["import npgpu", "import npgpu.linalg as la",
                                  "from npgpu import asarray"])
def test_no_device_warning_names_the_users_import_line(tmp_path, line):
    script = tmp_path / "user_script.py"
    script.write_text(f"# a user's program\nimport json\n{line}\nprint('done')\n")
    env = {k: v for k, v in os.environ.items() if k not in ("NPGPU_BACKEND", "NUMBA_ENABLE_CUDASIM")}
    r = subprocess.run([sys.executable, "-W", "always::RuntimeWarning", str(script)], env=env,
                       capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert f"{script}:3: RuntimeWarning: npgpu: no usable CUDA device" in r.stderr, r.stderr
    assert f"  {line}\n" in r.stderr
