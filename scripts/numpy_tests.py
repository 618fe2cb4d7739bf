"""NumPy's and SciPy's own tests, run against npgpu: defects found from outside the project's
tests.

Run: ``python scripts/numpy_tests.py MODULE [MODULE ...] [--timeout S] [--out DIR]
[-- PYTEST ARGS]``
where MODULE is a test file of the installed NumPy, relative to its package
(``lib/tests/test_arraypad.py``, ``_core/tests/test_indexing.py``), or of SciPy's ndimage,
special and sparse, from ``scipy/`` (``scipy/sparse/tests/test_csr.py``).  SciPy's modules keep
NumPy for their host references; ``scipy.ndimage``/``scipy.special``/``scipy.sparse`` (and
``.linalg``) become npgpu's (a name npgpu lacks skips the test that calls it, a sparse format
or n-d array it lacks made at import skips the tests using it), the ``xp`` fixture is npgpu
(tests SciPy keeps to NumPy alone are skipped), and SciPy's assertions, ``np.testing`` and
``FuncData`` checks read device results back.

Each module is copied with its imports turned to npgpu's (``import numpy as np`` -> ``import
npgpu as np``, ``from numpy import ...`` and ``from numpy.testing import ...`` from npgpu and
``npgpu.testing``, whose assertions read npgpu arrays to the host, NumPy's names where it has
none); NumPy's private modules (``numpy._core...``, ``numpy.lib._..._impl``) stay NumPy's.
Then pytest runs the copies on whatever backend npgpu finds (the simulator here), each test
under an alarm of ``--timeout`` seconds, and the failures are grouped by their exception's type
and first line.

A failure is not by itself an npgpu defect: NumPy's tests also cover what npgpu leaves out by
design (object, string, structured and datetime dtypes, subclasses, ``np.matrix``, masked arrays,
implicit host conversion; ``docs/api.md``'s reasons).  Triage each group: a defect gets a test
under ``tests/`` against NumPy and a fix; an omission is named in the report.
"""
import argparse
import ast
import collections
import importlib.util
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
        outcome = yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    exc = outcome.excinfo and outcome.excinfo[1]
    if isinstance(exc, TestTimeout):
        # without its traceback: an alarm met in a simulated thread's greenlet leaves frames
        # without line numbers, which end pytest's session when it prints them
        outcome.force_exception(TestTimeout(str(exc)))
'''

# SciPy's test modules also take an ``xp`` fixture (npgpu here, skipped or xfailed where a
# marker keeps the test to NumPy) and SciPy's assertions (fed host copies)
_CONFTEST_SCIPY = '''
import functools
import npgpu
import npgpu.testing
import scipy._lib._array_api as _aa


def _reading(f):
    @functools.wraps(f)
    def call(actual, desired, *args, **kwargs):
        __tracebackhide__ = True
        kwargs.pop("xp", None)
        if f.__name__.startswith("xp_"):
            kwargs.update(check_namespace=False, check_0d=False)
        return f(npgpu.testing._host(actual), npgpu.testing._host(desired), *args, **kwargs)
    return call


for _name in ("xp_assert_close", "xp_assert_equal", "xp_assert_less", "assert_almost_equal",
              "assert_array_almost_equal"):
    if hasattr(_aa, _name):
        setattr(_aa, _name, _reading(getattr(_aa, _name)))


_marks = _aa.make_xp_pytest_marks


def _patch_funcdata():
    """SciPy's data-driven special-function checks (FuncData) compare on the host: the
    function under test is npgpu's, its results read back."""
    try:
        import scipy.special._testutils as tu
    except ImportError:
        return
    init = tu.FuncData.__init__

    def __init__(self, func, *args, **kwargs):
        def on_host(*a, **k):
            return npgpu.testing._host(func(*a, **k))
        on_host.__name__ = getattr(func, "__name__", "func")
        init(self, on_host, *args, **kwargs)
    tu.FuncData.__init__ = __init__


_patch_funcdata()


def _patch_alternative_backends():
    """SciPy's array-API dispatch of special functions (test_support_alternative_backends): a
    function with neither npgpu's own (``npgpu.special``) nor a generic array-API form would
    run SciPy's on a host copy (refused): the test skips, as for a name npgpu lacks."""
    try:
        import scipy.special._support_alternative_backends as sab
    except ImportError:
        return
    wrapper_for = sab._FuncInfo._wrapper_for

    def _wrapper_for(self, xp):
        if xp is npgpu:
            spx = _aa.scipy_namespace_for(xp)
            if (sab._get_native_func(xp, spx, self.name, alt_names_map=self.alt_names_map)
                    is None and (self.generic_impl is None
                                 or self.generic_impl(xp, spx) is None)):
                def missing(*args, **kwargs):
                    pytest.skip(f"npgpu has no scipy.special.{self.name}")
                return missing
        return wrapper_for(self, xp)
    sab._FuncInfo._wrapper_for = _wrapper_for


_patch_alternative_backends()

try:        # hypothesis tests take the function-scoped ``xp`` (one namespace: nothing to reset)
    import hypothesis
    hypothesis.settings.register_profile("npgpu", deadline=None, suppress_health_check=[
        hypothesis.HealthCheck.function_scoped_fixture, hypothesis.HealthCheck.too_slow])
    hypothesis.settings.load_profile("npgpu")
except ImportError:
    pass


def _scipy_twin(func):
    """SciPy's function of npgpu's ``func`` (its capabilities table names SciPy's)."""
    mod = getattr(func, "__module__", "") or ""
    if mod.startswith("npgpu"):
        import scipy.ndimage
        import scipy.special
        for pkg in (scipy.ndimage, scipy.special):
            twin = getattr(pkg, getattr(func, "__name__", ""), None)
            if twin is not None:
                return twin
    return func


def _twin_marks(*funcs, **kwargs):
    return _marks(*map(_scipy_twin, funcs), **kwargs)


_aa.make_xp_pytest_marks = _twin_marks


def _marked(request, kind):
    """A marker's reason where SciPy keeps a test to NumPy alone; markers naming one backend
    or CPU-only functions are about that backend's or SciPy's own delegation, not npgpu."""
    for mark in request.node.iter_markers(f"{kind}_xp_backends"):
        if mark.kwargs.get("np_only") and "cupy" not in mark.kwargs.get("exceptions", ()):
            return mark.kwargs.get("reason") or "NumPy only (SciPy's marker)"
    return None


@pytest.fixture
def xp(request):
    for kind in ("skip", "xfail"):
        reason = _marked(request, kind)
        if reason:
            getattr(pytest, kind)(reason=reason)
    return npgpu


@pytest.fixture
def devices():
    """SciPy's fixture: every device of the namespace, and None."""
    return list(npgpu.__array_namespace_info__().devices()) + [None]


@pytest.fixture
def num_parallel_threads():
    return 1            # pytest-run-parallel's fixture, which SciPy's tests take


def pytest_configure(config):
    for kind in ("skip", "xfail"):
        config.addinivalue_line("markers", f"{kind}_xp_backends: SciPy's backend marker")


def pytest_runtest_setup(item):
    """A parameter made from a class npgpu lacks (a proxy's ``_Absent``): the test skips."""
    for value in getattr(getattr(item, "callspec", None), "params", {}).values():
        if type(value).__name__ == "_Absent":
            value._skip()
'''

# what a SciPy module makes at import that npgpu lacks or refuses: a stand-in whose use skips
_ABSENT = '''
"""Made while a copied SciPy module is collected: a stand-in for an object npgpu lacks (an
instance of a sparse format it has not, an n-d array it refuses) that skips the test using it
(as a parameter: conftest's ``pytest_runtest_setup``)."""
import pytest


class _Absent:
    def __init__(self, why):
        self._why = why

    def _skip(self, *args, **kwargs):
        pytest.skip(self._why)

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        self._skip()

    __call__ = __array__ = __len__ = __iter__ = __getitem__ = __setitem__ = _skip
    __neg__ = __pos__ = __abs__ = __lt__ = __le__ = __gt__ = __ge__ = _skip


for _op in ("add", "sub", "mul", "matmul", "truediv", "floordiv", "mod", "pow"):
    setattr(_Absent, f"__{_op}__", _Absent._skip)
    setattr(_Absent, f"__r{_op}__", _Absent._skip)


def collected(make):
    """A module-level value: ``make()``, or a stand-in where npgpu refuses it."""
    try:
        return make()
    except NotImplementedError as e:
        return _Absent(f"npgpu: {e}")


def collected_call(make, owner):
    """A module-level call such as ``TestBSR.init_class()``: where npgpu lacks or refuses
    what it makes, the class it sets up (``owner``) is skipped."""
    try:
        make()
    except (NotImplementedError, pytest.skip.Exception) as e:
        if not isinstance(owner, type):
            raise
        reason = str(e) if isinstance(e, pytest.skip.Exception) else f"npgpu: {e}"
        owner.pytestmark = [*owner.__dict__.get("pytestmark", []), pytest.mark.skip(reason=reason)]
'''

# a name SciPy's tests import that npgpu lacks: a stand-in that skips the test using it
_PROXY = '''
"""{pkg} for copied SciPy tests: npgpu's names, a skipping stand-in for the rest."""
import importlib
import os
import pytest
import {npgpu_pkg} as _ours
import {pkg} as _theirs
from npgpu_proxy_absent import _Absent


def __getattr__(name):
    if name.startswith("_") and not name.startswith("__"):     # SciPy's private modules
        try:
            return importlib.import_module("{proxy}_" + name)
        except ModuleNotFoundError:
            return getattr(_theirs, name)
    if hasattr(_ours, name):
        return getattr(_ours, name)
    theirs = getattr(_theirs, name, None)
    # (SciPy's exception and warning classes stay SciPy's: pytest.raises/warns take them)
    if callable(theirs) and not (isinstance(theirs, type) and issubclass(theirs, BaseException)):
        if hasattr(theirs, "types"):        # a ufunc: its attributes too (``.types``) skip
            return _Absent(f"npgpu has no {pkg}.{{name}}")

        def missing(*args, **kwargs):
            if isinstance(theirs, type) and "PYTEST_CURRENT_TEST" not in os.environ:
                return _Absent(f"npgpu has no {pkg}.{{name}}")
            # (called in a class body or parametrize list: the whole module goes)
            pytest.skip(f"npgpu has no {pkg}.{{name}}", allow_module_level=True)
        missing.__name__, missing.__module__ = name, "npgpu.missing"
        return missing
    return getattr(_theirs, name)
'''
# a NumPy-private module a test imports public names from: npgpu's names where it has them
_PRIVATE_PROXY = '''
"""{mod} for copied NumPy tests: npgpu's public names where it has them, NumPy's otherwise."""
import importlib
import npgpu as _ours
_theirs = importlib.import_module("{mod}")


def __getattr__(name):
    if not name.startswith("_") and hasattr(_ours, name):
        return getattr(_ours, name)
    return getattr(_theirs, name)
'''
# a SciPy-private module: what its package exports is the package's proxy (npgpu's, or a
# stand-in that skips), its helpers SciPy's (``_sputils.isscalarlike``, ``_testutils.FuncData``)
_SCIPY_PRIVATE_PROXY = '''
"""{mod} for copied SciPy tests: {pkg}'s names through its proxy, SciPy's helpers."""
import importlib
import {pkg} as _pkg
import {proxy} as _proxy
_theirs = importlib.import_module("{mod}")


def __getattr__(name):
    if not name.startswith("_") and hasattr(_pkg, name):
        if hasattr(getattr(_theirs, name, None), "types") and not hasattr(_proxy._ours, name):
            # a compiled ufunc npgpu lacks (its package's name may be a plain wrapper)
            from npgpu_proxy_absent import _Absent
            return _Absent(f"npgpu has no {pkg}.{{name}}")
        return getattr(_proxy, name)
    if name == "supported_dtypes":      # (scipy.sparse's list the tests loop over: npgpu's)
        import npgpu
        return [t for t in _theirs.supported_dtypes if npgpu.dtype(t).char not in "gG"]
    return getattr(_theirs, name)
'''
# numpy.testing: npgpu.testing's assertions (they read device arrays), NumPy's other names
# (private helpers such as ``_assert_valid_refcount``)
_TESTING_PROXY = '''
"""numpy.testing for copied tests: npgpu.testing's names, NumPy's where it has none."""
import numpy.testing as _theirs
import npgpu.testing as _ours


def __getattr__(name):
    return getattr(_ours, name) if hasattr(_ours, name) else getattr(_theirs, name)
'''
# the tests' ``np``: npgpu, with NumPy's names for what npgpu lacks (np.longdouble, np.object_,
# np.ma ... in parametrize lists and class bodies would stop a module from collecting; a test
# that uses one fails on its own, and is triaged as out of scope)
_NP_PROXY = '''
"""npgpu for copied NumPy tests, NumPy's names where npgpu has none."""
import sys
import numpy as _theirs
import npgpu as _ours


class _Module(type(_ours)):
    def __getattr__(self, name):
        return getattr(_theirs, name)


_self = _Module(__name__, _ours.__doc__)
_self.__dict__.update({k: v for k, v in vars(_ours).items() if k not in ("__name__",
                                                                          "__spec__")})
sys.modules[__name__] = _self
'''

_PRIVATE_MODULE = re.compile(r"^(\s*)import (numpy\._core\.(?:umath|_multiarray_umath)) as (\w+)",
                             re.M)
_PRIVATE_IMPORT = re.compile(r"^(\s*)from (numpy\.(?:_core|lib\._\w+_impl)) import", re.M)

_SCIPY_PKGS = {"scipy.ndimage": "npgpu.scipy.ndimage", "scipy.special": "npgpu.scipy.special",
               "scipy.sparse": "npgpu.scipy.sparse",
               "scipy.sparse.linalg": "npgpu.scipy.sparse.linalg"}

# import lines of a NumPy test module -> npgpu's
_SUBPACKAGES = r"(linalg|fft|random|polynomial|lib\.stride_tricks)((?:\.[a-z]\w*)?)"
_REWRITES = [
    (re.compile(r"^(\s*)import numpy as np\s*$", re.M), r"\1import npgpu_proxy_numpy as np"),
    (re.compile(r"^(\s*)from numpy\.(?:ma\.test_?utils|testing) import", re.M),
     r"\1from npgpu_proxy_numpy_testing import"),
    (re.compile(r"^(\s*)import numpy\.testing as npt\s*$", re.M),
     r"\1import npgpu_proxy_numpy_testing as npt"),
    (re.compile(r"^(\s*)from numpy import", re.M), r"\1from npgpu import"),
    (re.compile(rf"^(\s*)from numpy\.{_SUBPACKAGES} import", re.M), r"\1from npgpu.\2\3 import"),
    (re.compile(rf"^(\s*)import numpy\.{_SUBPACKAGES} as", re.M), r"\1import npgpu.\2\3 as"),
    (re.compile(r"^(\s*)from numpy\.lib import format\b", re.M), r"\1from npgpu.lib import format"),
    # NumPy's private modules reached through ``np``: NumPy's own
    (re.compile(r"\bnp\.(_core|lib\._\w+|_utils)\b"), r"_numpy_host.\1"),
]


def rewrite(source, private=None):
    """A NumPy test module's source with npgpu in NumPy's place; public names imported from
    NumPy's private modules are npgpu's too (``private`` collects those modules' names)."""
    for pattern, repl in _REWRITES:
        source = pattern.sub(repl, source)

    def proxied(m):
        if private is not None:
            private.add(m.group(2))
        return f"{m.group(1)}from {proxy_name(m.group(2))} import"
    source = _PRIVATE_IMPORT.sub(proxied, source)

    def proxied_module(m):          # ``import numpy._core.umath as ncu``: npgpu's ufuncs
        if private is not None:
            private.add(m.group(2))
        return f"{m.group(1)}import {proxy_name(m.group(2))} as {m.group(3)}"
    source = _PRIVATE_MODULE.sub(proxied_module, source)
    return "import numpy as _numpy_host\n" + source


def proxy_name(pkg):
    return "npgpu_proxy_" + pkg.replace(".", "_")


def rewrite_scipy(source, package, private=None):
    """A SciPy test module's source: ``scipy.ndimage`` / ``scipy.special`` / ``scipy.sparse``
    (``.linalg``) are npgpu's (names npgpu lacks skip), also as ``scipy.sparse.X`` in the code
    and where a test imports them from the private modules (``private`` collects those);
    NumPy stays NumPy (the tests' host references) but ``np.ndarray`` checks take npgpu's
    arrays too, ``numpy.testing``'s assertions read device arrays, relative imports are
    absolute, module-level values npgpu refuses (n-d sparse arrays) skip their tests."""
    source = re.sub(r"^(\s*)from numpy\.testing import",
                    r"\1from npgpu_proxy_numpy_testing import", source, flags=re.M)
    source = re.sub(r"^(\s*)import numpy\.testing as", r"\1import npgpu_proxy_numpy_testing as",
                    source, flags=re.M)

    def absolute(m):            # ``from .x`` / ``from .._x``: the package's name for it
        base = package.rsplit(".", len(m.group(2)) - 1)[0]
        return f"{m.group(1)}from {base}{'.' + m.group(3) if m.group(3) else ''} import"
    source = re.sub(r"^(\s*)from (\.+)(\w*) import", absolute, source, flags=re.M)
    # SciPy's compiled ufunc module (its tests' ``cephes``): the same names as scipy.special
    source = re.sub(r"^(\s*)import scipy\.special\._ufuncs as (\w+)",
                    rf"\1import {proxy_name('scipy.special')} as \2", source, flags=re.M)
    for pkg in sorted(_SCIPY_PKGS, key=len, reverse=True):     # scipy.sparse.linalg first
        source = _scipy_imports(source, pkg, set() if private is None else private)
    source = _collected(source)
    prefix = []
    for pattern, repl, line in _SCIPY_SHIMS:
        source, n = pattern.subn(repl, source)
        prefix += [line] * bool(n)
    return "".join(prefix) + source


# ``np.testing.assert_*``: npgpu.testing's; ``np.ndarray`` / numpy's ``ndarray`` (isinstance
# checks, the tests' ``toarray`` helpers): a NumPy or an npgpu array
_SCIPY_SHIMS = [
    (re.compile(r"(?<![\w.])np\.testing\."), "npgpu_proxy_numpy_testing.",
     "import npgpu_proxy_numpy_testing\n"),
    (re.compile(r"(?<![\w.])np\.ndarray\b(?![.(])"), "npgpu_proxy_dense.ndarray",
     "import npgpu_proxy_dense\n"),
    (re.compile(r"^(from numpy import (?:\([^)]*?|[^\n(]*?))\bndarray\b(?! as)", re.M),
     r"\1ndarray as _numpy_ndarray", "from npgpu_proxy_dense import ndarray\n"),
]
_DENSE = '''
"""``np.ndarray`` in copied SciPy tests: a NumPy or an npgpu array (npgpu's dense results are
its own arrays)."""
import numpy
import npgpu


class _Dense(type):
    def __instancecheck__(cls, obj):
        return isinstance(obj, (numpy.ndarray, npgpu.ndarray))

    def __subclasscheck__(cls, sub):
        return issubclass(sub, (numpy.ndarray, npgpu.ndarray))


class ndarray(metaclass=_Dense):
    pass
'''


def _scipy_imports(source, pkg, private):
    """``pkg``'s imports (and, after ``import pkg``, its qualified names) -> its proxy's."""
    parent, leaf = pkg.rsplit(".", 1)
    proxy = proxy_name(pkg)

    def proxied(m):
        private.add(m.group(2))
        return f"{m.group(1)}from {proxy_name(m.group(2))} import"
    source = re.sub(rf"^(\s*)from ({re.escape(pkg)}\._\w+) import", proxied, source, flags=re.M)
    source = re.sub(rf"^(\s*)from {parent} import {leaf}\b", rf"\1import {proxy} as {leaf}",
                    source, flags=re.M)
    source = re.sub(rf"^(\s*)import {re.escape(pkg)} as (\w+)", rf"\1import {proxy} as \2",
                    source, flags=re.M)
    # (``from scipy.sparse import (..., _construct as construct)``: the private module's proxy)
    for names in re.findall(rf"^\s*from {re.escape(pkg)} import (\([^)]*\)|.*)", source, re.M):
        private.update(f"{pkg}.{name}" for name in re.findall(r"\b(_[a-z]\w*)", names))
    source = re.sub(rf"^(\s*)from {re.escape(pkg)} import", rf"\1from {proxy} import", source,
                    flags=re.M)
    if re.search(rf"^\s*import {re.escape(pkg)}\s*$", source, flags=re.M):
        # ``scipy.sparse.csr_array(...)`` in the code (not in strings, nor a private module's)
        qualified = re.compile(rf"(?<![\w'\".]){re.escape(pkg)}\b(?!\._)")
        source = f"import {proxy}\n" + "\n".join(
            ln if re.match(r"\s*(import|from) ", ln) else qualified.sub(proxy, ln)
            for ln in source.split("\n"))
    return source


def _collected(source):
    """Module-level assignments that call something go through ``collected``, calls of a
    class's method through ``collected_call``: what npgpu lacks or refuses (an n-d
    ``coo_array``, a ``bsr_array``) skips the tests using it, not the whole module."""
    lines = source.split("\n")
    for node in reversed(ast.parse(source).body):
        value = getattr(node, "value", None)
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and value is not None and any(
                isinstance(n, ast.Call) for n in ast.walk(value)):
            call, tail = "collected(lambda: (", "))"
        elif (isinstance(node, ast.Expr) and isinstance(value, ast.Call)
              and isinstance(value.func, ast.Attribute)
              and isinstance(value.func.value, ast.Name)):      # ``TestBSR.init_class()``
            call, tail = "collected_call(lambda: (", f"), {value.func.value.id})"
        else:
            continue
        first, last = value.lineno - 1, value.end_lineno - 1       # (offsets count bytes)
        end = lines[last].encode()
        lines[last] = (end[:value.end_col_offset] + tail.encode()
                       + end[value.end_col_offset:]).decode()
        start = lines[first].encode()
        lines[first] = (start[:value.col_offset] + f"npgpu_proxy_absent.{call}".encode()
                        + start[value.col_offset:]).decode()
    return "import npgpu_proxy_absent\n" + "\n".join(lines)


def copy_modules(modules, dest, timeout):
    """Rewritten copies of ``modules`` under ``dest``; their paths."""
    import scipy
    scipy_base = os.path.dirname(os.path.dirname(scipy.__file__))
    base = os.path.dirname(numpy.__file__)
    with open(os.path.join(dest, "conftest.py"), "w") as f:
        f.write(_CONFTEST.format(timeout=timeout) + _CONFTEST_SCIPY)
    for pkg, ours in _SCIPY_PKGS.items():
        with open(os.path.join(dest, proxy_name(pkg) + ".py"), "w") as f:
            f.write(_PROXY.format(pkg=pkg, npgpu_pkg=ours, proxy=proxy_name(pkg)))
    for name, text in (("absent", _ABSENT), ("dense", _DENSE)):
        with open(os.path.join(dest, proxy_name(name) + ".py"), "w") as f:
            f.write(text)
    paths, private = [], set()
    for mod in modules:
        if mod.startswith("scipy/"):
            with open(os.path.join(scipy_base, mod)) as f:
                text = rewrite_scipy(f.read(), os.path.dirname(mod).replace("/", "."), private)
        else:
            with open(os.path.join(base, mod)) as f:
                text = rewrite(f.read(), private)
        name = "npgpu_" + mod.replace("/", "_").replace("_tests_", "_")
        path = os.path.join(dest, name)
        with open(path, "w") as f:
            f.write(text)
        paths.append(path)
    for mod in private:
        pkg = mod.rsplit(".", 1)[0]
        if mod.startswith("scipy.") and importlib.util.find_spec(mod) is None:
            continue                        # (a private name that is not a module)
        text = (_SCIPY_PRIVATE_PROXY.format(mod=mod, pkg=pkg, proxy=proxy_name(pkg))
                if mod.startswith("scipy.") else _PRIVATE_PROXY.format(mod=mod))
        with open(os.path.join(dest, proxy_name(mod) + ".py"), "w") as f:
            f.write(text)
    with open(os.path.join(dest, proxy_name("numpy") + ".py"), "w") as f:
        f.write(_NP_PROXY)
    with open(os.path.join(dest, proxy_name("numpy.testing") + ".py"), "w") as f:
        f.write(_TESTING_PROXY)
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
    # NPY_AVAILABLE_MEM: NumPy's tests that need more memory than this skip (a shared machine)
    env = dict(os.environ, COLUMNS="400", SCIPY_ARRAY_API="1", NPY_AVAILABLE_MEM="4 GB",
               PYTHONPATH=os.pathsep.join(
        [ROOT, dest] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    env.setdefault("NPGPU_BACKEND", "simulator" if "NUMBA_ENABLE_CUDASIM" in env else "")
    if not env["NPGPU_BACKEND"]:
        del env["NPGPU_BACKEND"]
    cmd = [sys.executable, "-m", "pytest", "-q", "-rfEs", "-p", "no:cacheprovider",
           "--rootdir", dest, "-W", "ignore::RuntimeWarning", *paths, *extra]
    proc = subprocess.run(cmd, cwd=dest, env=env, capture_output=True, text=True)
    log = proc.stdout + proc.stderr
    with open(os.path.join(dest, "pytest.log"), "w") as f:
        f.write(log)
    tail = [ln for ln in log.splitlines() if re.search(r"\d+ (passed|failed)", ln)]
    if tail:
        print(tail[-1])
    else:       # (pytest printed no count line: count its progress characters)
        marks = collections.Counter("".join(
            ln.split(" [")[0] for ln in log.splitlines() if re.search(r"\[\s*\d+%\]$", ln)))
        names = {".": "passed", "F": "failed", "E": "errors", "s": "skipped", "x": "xfailed",
                 "X": "xpassed"}
        print(", ".join(f"{marks[c]} {n}" for c, n in names.items() if marks[c]),
              f"(from pytest's progress; exit status {proc.returncode})")
    for msg, tests in summarize(log):
        print(f"\n[{len(tests)}] {msg}")
        for t in tests[:6]:
            print(f"    {t}")
        if len(tests) > 6:
            print(f"    ... {len(tests) - 6} more")
    skips = collections.Counter()
    for ln in log.splitlines():
        m = re.match(r"SKIPPED \[(\d+)\] \S+: (.*)", ln)
        if m:
            skips[m.group(2)[:120]] += int(m.group(1))
    if skips:
        print("\nskipped:")
        for reason, n in skips.most_common(12):
            print(f"  [{n}] {reason}")
    print(f"\nlog and copies: {dest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
