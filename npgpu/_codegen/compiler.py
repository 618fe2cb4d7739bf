"""Rendered kernel source -> runnable kernel, with an in-memory and an on-disk cache.

A :class:`KernelSource` is plain Python source of one ``numba.cuda.jit``
kernel plus its parameter list (:class:`Param`).  :func:`get_kernel` turns it
into a :class:`~npgpu._codegen.launcher.Launcher`:

* GPU: ``numba.cuda.compile_ptx`` -> PTX, linked to a cubin by the driver,
  loaded with ``cuModuleLoadData``; the cubin and its entry name are stored
  under ``NPGPU_CACHE_DIR`` so a later process loads it without Numba's typing.
* simulator: ``numba.cuda.jit`` of the same source (interpreted by Numba's
  simulator).

``NPGPU_DUMP_KERNELS=1`` prints every source when it is first rendered;
``NPGPU_RECORD_KERNELS=<dir>`` stores every rendered source and signature so
CI can compile all of them to PTX for sm_90 in a process without the simulator;
``NPGPU_PTX_STORE_OUT=<dir>`` (GPU) writes each compiled kernel's PTX there, and
``NPGPU_PTX_STORE=<dir>`` lets a later process (a fresh machine) assemble it instead of
compiling (:mod:`.shipped`).

Threads: a hit is one dict lookup, no lock.  A miss takes ``_compile_lock`` and looks again,
so threads missing the same key at once compile it once (the others wait and get the same
launcher); everything below it (the device-function namespaces, NVVM's -fma=0 switch, the
statistics) runs under that lock.  A disk-cache entry is one file (metadata line, then the
cubin) written to a temporary name and renamed, so another process never reads half of one,
nor one process's metadata with another's cubin.
"""
import hashlib
import json
import linecache
import os
import re
import tempfile
import sys
import threading
import warnings
import weakref

import numpy as np

from .. import _backend
from .._version import __version__
from . import ptx_constants as _ptx_constants
from . import shipped as _shipped
from .launcher import Launcher

from .stats import stats

_memory = {}          # key -> Launcher
_compile_lock = threading.RLock()     # misses only; re-entered when a render needs a kernel
_sources = {}         # kernel name -> source (for inspection)
_DUMP = os.environ.get("NPGPU_DUMP_KERNELS", "") not in ("", "0")
_RECORD = os.environ.get("NPGPU_RECORD_KERNELS", "")
# NPGPU_PTX_STORE_OUT=<dir>: the GPU path also writes the PTX of every kernel it compiles there,
# in the shipped store's format (a later process reads it through NPGPU_PTX_STORE)
_PTX_OUT = os.environ.get("NPGPU_PTX_STORE_OUT", "")


class Param:
    """One kernel parameter: an array (dtype, ndim, layout 'C' or 'A') or a scalar (dtype)."""

    __slots__ = ("kind", "dtype", "ndim", "layout")

    def __init__(self, kind, dtype, ndim=0, layout="A"):
        self.kind = kind
        self.dtype = np.dtype(dtype)
        self.ndim = ndim
        self.layout = layout

    def key(self):
        return (self.kind, self.dtype.str, self.ndim, self.layout)

    def __repr__(self):
        if self.kind == "array":
            return f"Array({self.dtype}, {self.ndim}, {self.layout!r})"
        return f"Scalar({self.dtype})"


class KernelSource:
    """Source of one kernel function named ``name``, and its parameters in order.

    launch_bounds: None, or ``(max threads per block, min blocks per SM)``: NVVM's launch
    bounds, which make ptxas fit the registers to that many resident blocks.
    f64_table: True -- the PTX's float64 constants are read from a constant table
    (:mod:`.ptx_constants`) whatever ``NPGPU_PTX_F64_TABLE`` says (a family measured faster
    so); None -- as that option says."""

    def __init__(self, name, source, params, launch_bounds=None, f64_table=None):
        self.name = name
        self.source = source
        self.params = tuple(params)
        self.launch_bounds = tuple(launch_bounds) if launch_bounds else None
        self.f64_table = f64_table or None

    def record(self):
        """This kernel as a JSON-able dict (``NPGPU_RECORD_KERNELS``'s files)."""
        return {"name": self.name, "source": self.source,
                "params": [[p.kind, p.dtype.str, p.ndim, p.layout] for p in self.params],
                "launch_bounds": self.launch_bounds, "f64_table": self.f64_table}

    @classmethod
    def from_record(cls, meta):
        """The kernel of a :meth:`record` dict."""
        return cls(meta["name"], meta["source"],
                   [Param(k, dt, n, lay) for k, dt, n, lay in meta["params"]],
                   meta.get("launch_bounds"), meta.get("f64_table"))

    def digest(self):
        h = hashlib.sha256()
        h.update(self.source.encode())
        h.update(repr([p.key() for p in self.params]).encode())
        if self.launch_bounds:
            h.update(repr(self.launch_bounds).encode())
        if self.f64_table:
            h.update(b"f64_table")
        return h.hexdigest()[:32]


# --- numba types for a parameter list ------------------------------------------------
def numba_signature(params):
    from numba.cuda import types
    from numba.cuda.np.numpy_support import from_dtype

    out = []
    for p in params:
        t = from_dtype(p.dtype)
        out.append(types.Array(t, p.ndim, p.layout) if p.kind == "array" else t)
    return tuple(out)


def source_namespace():
    """Globals every generated kernel sees: ``cuda``, ``math``, ``cmath``, ``libdevice``,
    ``ptx`` (:mod:`.ptx`), the float-to-integer casts of :mod:`.casts` and numba's scalar
    types."""
    import cmath
    import math

    from numba import cuda
    from numba.cuda import types as nt

    from . import ptx

    from . import casts

    ns = {"cuda": cuda, "math": math, "cmath": cmath, "np": np, "ptx": ptx,
          "f2i32_x86": casts.f2i32_x86, "f2i64_x86": casts.f2i64_x86,
          "f2u64_x86": casts.f2u64_x86}
    for name in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                 "float16", "float32", "float64", "complex64", "complex128", "boolean"):
        ns[name] = getattr(nt, name)
    ns["bool_"] = nt.boolean
    if _backend.IS_SIM:
        from .simulator_fixes import LIBDEVICE_BITS
        ns["libdevice"] = LIBDEVICE_BITS       # bit reinterpretation only (the sim's are stubs)
    else:
        from numba.cuda import libdevice
        ns["libdevice"] = libdevice
    return ns


_device_parts = {}     # source of a kernel's device functions -> the namespace they live in


def _exec(text, filename, ns):
    # registered with linecache, so tracebacks (and the simulator) show the generated lines
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    exec(compile(text, filename, "exec"), ns)


def python_function(ks: KernelSource):
    """Exec the source and return the kernel function.

    The device functions before the kernel (``op``, helpers, reduction steps) are exec'd once
    per distinct text and shared by every kernel that renders the same ones, so Numba compiles
    each device function once per signature instead of once per kernel (layout variants of one
    ufunc loop share theirs)."""
    src = ks.source
    cut = src.rfind(f"\ndef {ks.name}(")
    if cut < 0:
        ns = source_namespace()
        _exec(src, f"<npgpu-kernel {ks.name}>", ns)
        return ns[ks.name]
    device, body = src[:cut + 1], src[cut + 1:]
    ns = _device_parts.get(device)
    if ns is None:
        ns = source_namespace()
        _exec(device, f"<npgpu-device {hashlib.sha1(device.encode()).hexdigest()[:10]}>", ns)
        _device_parts[device] = ns
    # (on the simulator a launch of another thread may have swapped its fake ``cuda`` module
    # into the shared ``ns`` for the launch's duration: the copy takes the real one, else this
    # kernel would keep that launch's gridDim and blockDim for good)
    from numba import cuda

    kns = dict(ns)
    kns["cuda"] = cuda
    _exec(body, f"<npgpu-kernel {ks.name}>", kns)
    return kns[ks.name]


# --- disk cache ---------------------------------------------------------------------------
_disk_ok = None


def cache_dir():
    d = os.environ.get("NPGPU_CACHE_DIR")
    if d:
        return d
    if sys.platform.startswith("linux"):
        # platformdirs' answer on Linux, without its import (7-20 ms on a first call)
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        return os.path.join(base, "npgpu", "kernels")
    try:
        import platformdirs
        return os.path.join(platformdirs.user_cache_dir("npgpu"), "kernels")
    except ImportError:  # pragma: no cover
        return os.path.join(os.path.expanduser("~"), ".cache", "npgpu", "kernels")


_tag = None


def _toolchain_tag():
    """npgpu, numba-cuda, cuda-bindings (NVVM / driver linker) versions, read without importing them."""
    global _tag
    if _tag is None:
        found = _dist_versions(("numba-cuda", "cuda-bindings", "nvidia-nvvm", "numba"))
        _tag = "|".join([__version__] + found)
    return _tag


def _dist_versions(dists):
    """Installed versions of ``dists`` ("-" when absent), from the names of the ``.dist-info``
    folders on ``sys.path``: importlib.metadata took 37-227 ms for these four on a warm first
    call (it reads every distribution's metadata), a listing of the folders takes ~1 ms."""
    want = {d.replace("-", "_").lower(): d for d in dists}
    found = {}
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for f in names:
            if f.endswith((".dist-info", ".egg-info")):
                name, _, rest = f.rpartition(".")[0].partition("-")
                d = want.get(name.replace("-", "_").lower())
                if d is not None and d not in found:
                    found[d] = rest.split("-")[0] or "?"
    return [found.get(d, "-") for d in dists]


def _disk_key(ks, cc, options):
    h = hashlib.sha256()
    for part in (ks.source, repr([p.key() for p in ks.params]), cc, repr(options), _toolchain_tag(),
                 repr(ks.launch_bounds) if ks.launch_bounds else "",
                 "f64_table" if ks.f64_table else ""):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()[:40]


def _disk_warn(err):
    global _disk_ok
    if _disk_ok is not False:
        _disk_ok = False
        warnings.warn(f"npgpu: kernel disk cache disabled ({err}); kernels are cached in memory only",
                      RuntimeWarning, stacklevel=4)


# One file an entry: a JSON line (the metadata, with the entry name) and the image after it,
# written at once.  (Two files, image then metadata, could pair one process's metadata with
# another's image when two processes stored the same key together -- seen on the H200 with
# pytest-xdist workers: Numba's mangled entry names differ from process to process, so the
# driver then found no such symbol.)
_DISK_SUFFIX = ".kernel"


def _disk_read(key):
    if _disk_ok is False:
        return None
    try:
        with open(os.path.join(cache_dir(), key + _DISK_SUFFIX), "rb") as f:
            data = f.read()
        head, sep, image = data.partition(b"\n")
        if not sep:
            return None
        return json.loads(head), image
    except (OSError, ValueError):
        return None


def _atomic_write(path, data):
    d = os.path.dirname(path)
    fd, tmp = tempfile.mkstemp(dir=d, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _disk_write(key, meta, cubin):
    if _disk_ok is False:
        return
    try:
        os.makedirs(cache_dir(), exist_ok=True)
        _atomic_write(os.path.join(cache_dir(), key + _DISK_SUFFIX),
                      json.dumps(meta).encode() + b"\n" + bytes(cubin))
    except OSError as e:
        _disk_warn(e)


# --- compile -------------------------------------------------------------------------------
_OPTIONS = {"fastmath": False, "opt": True, "lineinfo": False, "fma": False,
            "f64_table": _ptx_constants.ENABLED}


def _nvvm_without_fma():
    """Make NVVM keep a*b+c as two roundings (-fma=0) for npgpu's kernels.

    NumPy never contracts a multiply and an add into one FMA; NVVM does by default, which
    makes e.g. arange/linspace values or fused expressions differ from NumPy's in the last
    bit.  libdevice's functions use explicit FMAs and are unaffected.  Only compiles inside
    :func:`compile_ptx` below see the option; other Numba kernels in the process do not.
    """
    from numba.cuda.cudadrv import nvvm
    if getattr(nvvm.compile_ir, "_npgpu", False):
        return
    original = nvvm.compile_ir

    def compile_ir(llvmir, **options):
        if _compiling[0]:
            options.setdefault("fma", False)
        return original(llvmir, **options)

    compile_ir._npgpu = True
    nvvm.compile_ir = compile_ir


_compiling = [False]


def compile_ptx(fn, params, cc, opt=True, launch_bounds=None, f64_table=None):
    """PTX of kernel ``fn`` for ``params`` with npgpu's options (used by the GPU path and CI;
    ``opt=False``: NVVM -opt=0, for CI's check only; ``f64_table``: as
    :class:`KernelSource`'s)."""
    from numba import cuda
    _nvvm_without_fma()
    _compiling[0] = True
    try:
        ptx, _ = cuda.compile_ptx(fn, numba_signature(params), cc=cc, opt=opt,
                                  fastmath=_OPTIONS["fastmath"], lineinfo=_OPTIONS["lineinfo"],
                                  launch_bounds=launch_bounds)
    finally:
        _compiling[0] = False
    if _OPTIONS["f64_table"] or f64_table:
        ptx = _ptx_constants.f64_table(ptx)
    missing = [f for f in _EXTERN_FUNC.findall(ptx) if f not in _LINKED]
    if missing:
        # e.g. Numba's float16 operators call cuda_fp16 functions: the driver's link step
        # would fail with "undefined reference" (CI compiles to PTX only and never links)
        raise RuntimeError(f"{getattr(fn, '__name__', 'kernel')}: the PTX calls functions "
                           f"that npgpu does not link: {', '.join(sorted(set(missing)))} "
                           "(compute float16 in float32)")
    return ptx


# functions a kernel's PTX may declare without a body: the driver provides them
_LINKED = {"vprintf"}
_EXTERN_FUNC = re.compile(r"^\s*\.extern\s+\.func\s+(?:\([^)]*\)\s*)?([\w$]+)", re.M)


def _record(ks):
    os.makedirs(_RECORD, exist_ok=True)
    path = os.path.join(_RECORD, ks.digest() + ".json")
    if not os.path.exists(path):
        _atomic_write(path, json.dumps(ks.record()).encode())


def ptx_entry(ptx):
    """The name of the kernel entry point of a PTX module."""
    for line in ptx.splitlines():
        if ".entry" in line:
            return line.split(".entry", 1)[1].strip().split("(", 1)[0].strip()
    return None


def _compile_gpu(ks):
    from ..cuda import _driver as drv
    from ..cuda import runtime

    runtime.ensure_context()        # the driver's linker and loader need one on this thread
    cc_str = runtime.Device().compute_capability
    cc = (int(cc_str[:-1]), int(cc_str[-1]))
    key = _disk_key(ks, cc_str, _OPTIONS)
    hit = _disk_read(key)
    shipped_hit = None if hit is not None else _shipped.lookup(ks, _OPTIONS, cc)
    if hit is not None:
        meta, cubin = hit
        stats["disk_hits"] += 1
    elif shipped_hit is not None:
        # npgpu's own PTX of a common kernel: the driver assembles it, Numba is not needed
        ptx, entry = shipped_hit
        cubin = drv.link_ptx_to_cubin(ptx)
        meta = {"entry": entry, "name": ks.name}
        stats["shipped"] += 1
        _disk_write(key, meta, cubin)
    else:
        fn = python_function(ks)    # only a miss pays for importing Numba's compiler
        ptx = compile_ptx(fn, ks.params, cc, launch_bounds=ks.launch_bounds,
                          f64_table=ks.f64_table)
        entry = ptx_entry(ptx)
        cubin = drv.link_ptx_to_cubin(ptx.encode())
        meta = {"entry": entry, "name": ks.name}
        stats["compiles"] += 1
        _disk_write(key, meta, cubin)
        if _PTX_OUT:
            # a store for later machines (NPGPU_PTX_STORE there): a device call's output
            _shipped.store(ks, _OPTIONS, ptx, entry, cc, directory=_PTX_OUT)
    module, func = drv.load_function(cubin, meta["entry"])
    return module, func, (cubin, meta["entry"])


def get_kernel(key, render):
    """Return the launcher cached under ``key``; on a miss, ``render()`` gives the KernelSource."""
    k = _memory.get(key)
    if k is not None:
        return k
    with _compile_lock:
        k = _memory.get(key)
        if k is None:
            k = _memory[key] = _load(render)
    return k


def _load(render):
    _backend.require()
    ks = render()
    _sources[ks.name] = ks.source
    if _DUMP:
        print(f"# ---- npgpu kernel {ks.name} {list(ks.params)}\n{ks.source}", flush=True)
    if _RECORD:
        _record(ks)
    if _backend.IS_CUDA:
        module, func, image = _compile_gpu(ks)
        k = Launcher(ks, func=func, module=module, image=image)
    else:
        from numba import cuda
        from .simulator_fixes import install
        install()                   # shared arrays must really be shared (tiled, reductions)
        stats["compiles"] += 1
        k = Launcher(ks, sim_kernel=cuda.jit(python_function(ks)))
    return k


def kernel_sources():
    """Every kernel source rendered in this process, by kernel name."""
    return dict(_sources)


_dependent_caches = []     # dicts holding launchers beside _memory (the elementwise replays)


def clears_with_memory_cache(cache):
    """Register ``cache`` (a dict whose values hold launchers) to be emptied with the kernel
    cache, so a knob changed between :func:`clear_memory_cache` calls takes effect."""
    _dependent_caches.append(cache)
    return cache


_dependent_objects = weakref.WeakSet()   # kernel objects keeping launchers (vectorize, ...)


def forgets_launchers_with_memory_cache(obj):
    """Register ``obj`` (held weakly: a user's kernel object) whose ``forget_launchers()``
    drops the launchers it keeps, called with every :func:`clear_memory_cache`."""
    _dependent_objects.add(obj)
    return obj


def clear_memory_cache():
    _memory.clear()
    for cache in _dependent_caches:
        cache.clear()
    for obj in list(_dependent_objects):
        obj.forget_launchers()
