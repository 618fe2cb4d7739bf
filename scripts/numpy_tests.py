"""NumPy's own tests, run against npgpu: defects found from outside the project's tests.

Run: ``python scripts/numpy_tests.py MODULE [MODULE ...] [--timeout S] [--out DIR] [-- PYTEST ARGS]``
where MODULE is a test file of the installed NumPy, relative to its package
(``lib/tests/test_arraypad.py``, ``_core/tests/test_indexing.py``).

Each module is copied with its imports turned to npgpu's (``import numpy as np`` -> ``import
npgpu as np``, ``from numpy import ...`` and ``from numpy.testing import ...`` from npgpu and
``npgpu.testing``, whose assertions read npgpu arrays to the host); NumPy's private modules
(``numpy._core...``, ``numpy.lib._..._impl``) stay NumPy's.  Then pytest runs the copies on
whatever backend npgpu finds (the simulator here), each test under an alarm of ``--timeout``
seconds, and the failures are grouped by their exception's type and first line.

A failure is not by itself an npgpu defect: NumPy's tests also cover what npgpu leaves out by
design (object, string, structured and datetime dtypes, subclasses, ``np.matrix``, masked arrays,
implicit host conversion; ``docs/api.md``'s reasons).  Triage each group: a defect gets a test
under ``tests/`` against NumPy and a fix; an omission is named in the report.
"""
import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

import numpy

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# a conftest for the copies: a per-test alarm (no pytest-timeout here) and NumPy's own fixtures
_CONFTEST = '''
import signal
import pytest

TIMEOUT = {timeout}


class TestTimeout(Exception):
    pass


def _alarm(signum, frame):
    raise TestTimeout(f"test exceeded {{TIMEOUT}} s")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(TIMEOUT)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
'''

# import lines of a NumPy test module -> npgpu's
_REWRITES = [
    (re.compile(r"^(\s*)import numpy as np\s*$", re.M), r"\1import npgpu as np"),
    (re.compile(r"^(\s*)from numpy\.testing import", re.M), r"\1from npgpu.testing import"),
    (re.compile(r"^(\s*)import numpy\.testing as npt\s*$", re.M),
     r"\1import npgpu.testing as npt"),
    (re.compile(r"^(\s*)from numpy import", re.M), r"\1from npgpu import"),
    (re.compile(r"^(\s*)from numpy\.(linalg|fft|random) import", re.M), r"\1from npgpu.\2 import"),
    # NumPy's private modules reached through ``np``: NumPy's own
    (re.compile(r"\bnp\.(_core|lib\._\w+|_utils)\b"), r"_numpy_host.\1"),
]


def rewrite(source):
    """A NumPy test module's source with npgpu in NumPy's place (public imports only)."""
    for pattern, repl in _REWRITES:
        source = pattern.sub(repl, source)
    return "import numpy as _numpy_host\n" + source


def copy_modules(modules, dest, timeout):
    """Rewritten copies of ``modules`` under ``dest``; their paths."""
    base = os.path.dirname(numpy.__file__)
    with open(os.path.join(dest, "conftest.py"), "w") as f:
        f.write(_CONFTEST.format(timeout=timeout))
    paths = []
    for mod in modules:
        src = os.path.join(base, mod)
        with open(src) as f:
            text = rewrite(f.read())
        name = "npgpu_" + mod.replace("/", "_").replace("_tests_", "_")
        path = os.path.join(dest, name)
        with open(path, "w") as f:
            f.write(text)
        paths.append(path)
    return paths


_FAILED = re.compile(r"^(FAILED|ERROR) (\S+?)(?: - (.*))?$")


def summarize(log):
    """Failures of pytest's ``-rfE`` summary grouped by their first message line."""
    groups = collections.defaultdict(list)
    for line in log.splitlines():
        m = _FAILED.match(line)
        if m:
            msg = (m.group(3) or "").strip()
            msg = re.sub(r"0x[0-9a-f]+", "0x...", msg)[:160]
            groups[msg].append(m.group(2).split("::", 1)[-1])
    return sorted(groups.items(), key=lambda kv: -len(kv[1]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("modules", nargs="+")
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--out", default=None, help="keep the copies and the log in this folder")
    argv = sys.argv[1:]
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    args = ap.parse_args(argv[:len(argv) - len(extra) - (1 if "--" in argv else 0)])
    dest = args.out or tempfile.mkdtemp(prefix="npgpu-numpy-tests-")
    os.makedirs(dest, exist_ok=True)
    paths = copy_modules(args.modules, dest, args.timeout)
    env = dict(os.environ, COLUMNS="400", PYTHONPATH=os.pathsep.join(
        [ROOT] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    env.setdefault("NPGPU_BACKEND", "simulator" if "NUMBA_ENABLE_CUDASIM" in env else "")
    if not env["NPGPU_BACKEND"]:
        del env["NPGPU_BACKEND"]
    cmd = [sys.executable, "-m", "pytest", "-q", "-rfE", "-p", "no:cacheprovider",
           "--rootdir", dest, "-W", "ignore::RuntimeWarning", *paths, *extra]
    proc = subprocess.run(cmd, cwd=dest, env=env, capture_output=True, text=True)
    log = proc.stdout + proc.stderr
    with open(os.path.join(dest, "pytest.log"), "w") as f:
        f.write(log)
    tail = [ln for ln in log.splitlines() if re.search(r"\d+ (passed|failed)", ln)]
    print(tail[-1] if tail else log[-2000:])
    for msg, tests in summarize(log):
        print(f"\n[{len(tests)}] {msg}")
        for t in tests[:6]:
            print(f"    {t}")
        if len(tests) > 6:
            print(f"    ... {len(tests) - 6} more")
    print(f"\nlog and copies: {dest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
