"""``npgpu.RawKernel`` / ``npgpu.RawModule``: CUDA C++ compiled by NVRTC (``cuda.bindings``).

* compile: NVRTC for the current device's architecture (``sm_90`` without a GPU; PTX of the
  newest architecture NVRTC knows when the device is newer), the toolkit headers of the NVIDIA
  wheels on the include path; the cubin (or PTX), the lowered ``name_expressions`` and each
  kernel's parameter list are stored next to the kernel cache (``NPGPU_CACHE_DIR``), keyed by
  source, options, architecture and NVRTC version.  A failure raises :class:`CompileError`
  with NVRTC's log.
* parameters: read from the PTX entry (``.param .u64``, ``.f32``, ``.align 8 .b8 p[16]``...),
  so a wrong argument count or type is a ``TypeError`` before anything launches, on any
  machine.  npgpu arrays pass their data pointer; NumPy scalars must have the parameter's
  size (and be floating for ``.f32``/``.f64``); Python numbers are converted.
* launch: ``cuModuleLoadData`` / ``cuModuleGetFunction`` of ``cuda.bindings.driver``, then
  npgpu's launcher's ctypes ``cuLaunchKernelEx`` and cached launch configs
  (``npgpu._codegen.launcher``; ``NPGPU_LAUNCH_EX=0``: ``cuLaunchKernel``) on npgpu's
  current stream (or ``stream=``).  The simulator cannot run CUDA C++: a launch there raises
  ``RuntimeError`` saying it needs a GPU.
"""
import ctypes
import hashlib
import os
import re
import struct
import threading

import numpy as np

from .. import _backend
from .._codegen import compiler
from .._codegen import launcher as _launcher
from .._core.ndarray import ndarray
from ..cuda import runtime as _runtime


class CompileError(RuntimeError):
    """NVRTC failed; ``log`` holds its log, ``source`` the code."""

    def __init__(self, msg, log, source, name):
        super().__init__(f"{msg}\n{log}")
        self.log = log
        self.source = source
        self.name = name


def _nvrtc():
    from cuda.bindings import nvrtc
    return nvrtc


def _check(res, what, prog=None, code=None, name=None):
    nvrtc = _nvrtc()
    err = res[0] if isinstance(res, tuple) else res
    if err == nvrtc.nvrtcResult.NVRTC_SUCCESS:
        return res[1] if isinstance(res, tuple) and len(res) == 2 else None
    log = _log(prog) if prog is not None else ""
    if what == "nvrtcCompileProgram":
        raise CompileError(f"NVRTC could not compile {name!r}:", log, code, name)
    msg = nvrtc.nvrtcGetErrorString(err)[1].decode()
    raise RuntimeError(f"{what} failed: {msg}\n{log}".rstrip())


def _log(prog):
    nvrtc = _nvrtc()
    err, n = nvrtc.nvrtcGetProgramLogSize(prog)
    buf = b" " * n
    nvrtc.nvrtcGetProgramLog(prog, buf)
    return buf.rstrip(b"\0 ").decode(errors="replace")


def _version():
    v = _nvrtc().nvrtcVersion()
    return f"{v[1]}.{v[2]}"


def _arch():
    """(architecture digits, cubin?) for the current device: its own when NVRTC knows it,
    else the newest NVRTC knows, as PTX the driver compiles on load."""
    cc = int(_runtime.Device().compute_capability) if _backend.IS_CUDA else 90
    nvrtc = _nvrtc()
    archs = _check(nvrtc.nvrtcGetSupportedArchs(), "nvrtcGetSupportedArchs")
    if cc in archs:
        return cc, True
    return max(a for a in archs if a <= cc) if any(a <= cc for a in archs) else max(archs), False


def _include_dirs():
    """Toolkit headers of the NVIDIA wheels (cuda_fp16.h, cuComplex.h...), when installed."""
    out = []
    try:
        import nvidia
        for base in nvidia.__path__:
            for sub in ("cu13", "cu12", "cuda_runtime", "cuda_nvrtc"):
                d = os.path.join(base, sub, "include")
                if os.path.isdir(d):
                    out.append(d)
    except ImportError:
        pass
    return out


# --- PTX parameter lists --------------------------------------------------------------------
_ENTRY = re.compile(r"\.entry\s+([\w$]+)\s*\(([^)]*)\)")
_PTYPE = re.compile(r"\.([usbf])(8|16|32|64)\b")
_PARR = re.compile(r"\[(\d+)\]")


def ptx_params(ptx):
    """entry name -> [(kind, size)]: kind 'i' (integer/pointer bits), 'f' (float), 'b' (bytes
    of a struct or vector)."""
    out = {}
    for m in _ENTRY.finditer(ptx):
        params = []
        for p in (s.strip() for s in m.group(2).split(",")):
            if not p:
                continue
            t = _PTYPE.search(p)
            arr = _PARR.search(p)
            if arr:
                params.append(("b", int(arr.group(1)) * int(t.group(2)) // 8))
            else:
                params.append(("f" if t.group(1) == "f" else "i", int(t.group(2)) // 8))
        out[m.group(1)] = params
    return out


# --- compile ----------------------------------------------------------------------------------
def _compile(code, options, name_expressions, name="kernel.cu"):
    """(image, is_cubin, lowered names, params by entry), from the disk cache when there."""
    arch, cubin = _arch()
    opts = [str(o) for o in options]
    if not any(o.startswith(("-arch", "--gpu-architecture")) for o in opts):
        opts.append(f"--gpu-architecture={'sm' if cubin else 'compute'}_{arch}")
    opts += [f"-I{d}" for d in _include_dirs()]
    h = hashlib.sha256()
    for part in (code, repr(opts), repr(tuple(name_expressions)), _version(),
                 compiler._toolchain_tag()):
        h.update(part.encode())
        h.update(b"\0")
    key = "raw-" + h.hexdigest()[:40]
    hit = compiler._disk_read(key)
    if hit is not None:
        meta, image = hit
        return image, meta["cubin"], meta["lowered"], {k: [tuple(p) for p in v]
                                                       for k, v in meta["params"].items()}
    nvrtc = _nvrtc()
    prog = _check(nvrtc.nvrtcCreateProgram(code.encode(), name.encode(), 0, [], []),
                  "nvrtcCreateProgram")
    try:
        for expr in name_expressions:
            _check(nvrtc.nvrtcAddNameExpression(prog, expr.encode()), "nvrtcAddNameExpression",
                   prog)
        enc = [o.encode() for o in opts]
        _check(nvrtc.nvrtcCompileProgram(prog, len(enc), enc), "nvrtcCompileProgram", prog,
               code, name)
        n = _check(nvrtc.nvrtcGetPTXSize(prog), "nvrtcGetPTXSize", prog)
        ptx = b" " * n
        _check(nvrtc.nvrtcGetPTX(prog, ptx), "nvrtcGetPTX", prog)
        ptx = ptx.rstrip(b"\0")
        if cubin:
            n = _check(nvrtc.nvrtcGetCUBINSize(prog), "nvrtcGetCUBINSize", prog)
            image = b" " * n
            _check(nvrtc.nvrtcGetCUBIN(prog, image), "nvrtcGetCUBIN", prog)
        else:
            image = ptx + b"\0"
        lowered = {e: _check(nvrtc.nvrtcGetLoweredName(prog, e.encode()),
                             "nvrtcGetLoweredName", prog).decode() for e in name_expressions}
    finally:
        nvrtc.nvrtcDestroyProgram(prog)
    params = ptx_params(ptx.decode(errors="replace"))
    compiler._disk_write(key, {"cubin": cubin, "lowered": lowered, "params": params}, image)
    return image, cubin, lowered, params


# --- arguments --------------------------------------------------------------------------------
_INT_RANGE = {1: (-2 ** 7, 2 ** 8), 2: (-2 ** 15, 2 ** 16), 4: (-2 ** 31, 2 ** 32),
              8: (-2 ** 63, 2 ** 64)}
_FLOAT_FMT = {4: "<f", 8: "<d", 2: "<e"}


_PTR = ("i", 8)
_pack_ptr = struct.Struct("<Q").pack_into


def _arg_bytes(k, v, kind, size, fname):
    """The bytes of argument ``k`` (value ``v``) for a parameter of ``kind``/``size``."""
    def bad(why):
        what = f"numpy.{type(v).__name__}" if isinstance(v, np.generic) else type(v).__name__
        return TypeError(f"{fname}: argument {k} ({what}) {why}")
    if isinstance(v, ndarray):
        if kind != "i" or size != 8:
            raise bad(f"is an array, but parameter {k} is a {size}-byte "
                      f"{'float' if kind == 'f' else 'value'}")
        return v._ptr.to_bytes(8, "little")
    if isinstance(v, np.generic):
        if v.dtype.itemsize != size or (kind == "f") != (v.dtype.kind == "f") or \
                (kind == "i" and v.dtype.kind not in "iub"):
            raise bad(f"does not match parameter {k} "
                      f"({'float' if kind == 'f' else 'integer' if kind == 'i' else 'struct'}, "
                      f"{size} bytes)")
        return v.tobytes()
    if isinstance(v, (bool, int)) and kind == "i":
        lo, hi = _INT_RANGE[size]
        if not lo <= int(v) < hi:
            raise OverflowError(f"{fname}: argument {k} = {v} does not fit parameter {k} "
                                f"({size} bytes)")
        return (int(v) % (1 << (8 * size))).to_bytes(size, "little")
    if isinstance(v, (int, float)) and not isinstance(v, bool) and kind == "f":
        return struct.pack(_FLOAT_FMT[size], v)
    raise bad(f"cannot be passed as parameter {k} "
              f"({'float' if kind == 'f' else 'integer/pointer' if kind == 'i' else 'struct'}, "
              f"{size} bytes)")


# struct codes of NumPy scalar arguments (the bytes ``tobytes()`` gives, little-endian)
_NP_CODES = {"b1": "?", "i1": "b", "u1": "B", "i2": "h", "u2": "H", "i4": "i", "u4": "I",
             "i8": "q", "u8": "Q", "f2": "e", "f4": "f", "f8": "d"}


def _fast_packer(params, slot, classes):
    """A packer for one signature of argument classes (checked by the slow path once): one
    ``struct.pack_into`` of every slot, after a class test per argument and a range test per
    Python int; it returns False (the slow path then packs, or raises the precise error) when
    an argument's class or value is not the one it was made for.  None where a class has no
    struct code (complex scalars, structs): those calls always take the slow path."""
    if not params:
        return None
    fmt, checks, values = "<", [], []
    for k, ((kind, size), cls) in enumerate(zip(params, classes)):
        if cls is ndarray:
            code, val = "Q", f"a{k}._ptr"
        elif issubclass(cls, np.generic):
            code = _NP_CODES.get(np.dtype(cls).str[1:])
            val = f"a{k}"
        elif cls in (int, bool) and kind == "i":
            lo, hi = _INT_RANGE[size]
            code, val = "q", f"a{k}"          # little-endian: the low ``size`` bytes wrap
            checks.append(f"{max(lo, -2 ** 63)} <= a{k} < {min(hi, 2 ** 63)}")
        elif cls in (int, float) and kind == "f":
            code, val = _FLOAT_FMT[size][1], f"a{k}"
        else:
            code = None
        if code is None:
            return None
        fmt += code + f"{slot - struct.calcsize('<' + code)}x"
        values.append(val)
    names = ", ".join(f"a{k}" for k in range(len(params))) + ","
    test = " or ".join(f"a{k}.__class__ is not c{k}" for k in range(len(params))) or "False"
    src = (f"def pack(mv, args):\n"
           f"    if args.__class__ is not tuple or len(args) != {len(params)}:\n"
           f"        return False\n"
           f"    {names} = args\n"
           f"    if {test}:\n        return False\n"
           + "".join(f"    if not {c}:\n        return False\n" for c in checks)
           + f"    pack_into(mv, 0, {', '.join(values)})\n    return True\n")
    env = {f"c{k}": c for k, c in enumerate(classes)}
    env["pack_into"] = struct.Struct(fmt).pack_into
    exec(src, env)
    return env["pack"]


class _Function:
    """One kernel of a module: its parameters, and per device the loaded function."""

    def __init__(self, module, entry, params):
        self.module = module
        self.entry = entry
        self.params = params
        self._slot = max([16] + [(size + 15) & ~15 for _, size in params])
        self._ok = set()                 # (parameter, NumPy scalar type) pairs that passed
        self._fast = None                # the packer of the last signature the slow path saw
        self._tls = threading.local()
        self._funcs = {}                 # device id -> CUfunction (c_void_p for ctypes)

    def pack(self, args, name):
        """Check ``args`` against the parameters and write them into this thread's parameter
        buffer (the driver copies it before the launch returns); returns the launch's
        ``void*[]`` (bytes).  A repeat of the last call's argument classes takes one generated
        ``struct.pack_into`` (``_fast_packer``)."""
        try:
            mv, params = self._tls.bufs
        except AttributeError:
            mv, params = self._buffers()
        fast = self._fast
        if fast is None or not fast(mv, args):
            self._pack_checked(args, name, mv)
            if args.__class__ is tuple:
                self._fast = _fast_packer(self.params, self._slot, tuple(map(type, args)))
        return params

    def _pack_checked(self, args, name, mv):
        params = self.params
        if args.__class__ is not tuple and args.__class__ is not list:
            raise TypeError(f"{name}: args must be a tuple of arguments, not "
                            f"{type(args).__name__}")
        if len(args) != len(params):
            raise TypeError(f"{name}: expects {len(params)} arguments, got {len(args)}")
        slot, ok = self._slot, self._ok
        for k, v in enumerate(args):
            cls = v.__class__
            off = k * slot
            if cls is ndarray and params[k] == _PTR:
                _pack_ptr(mv, off, v._ptr)
            elif (k, cls) in ok:                # a NumPy scalar type checked before
                b = v.tobytes()
                mv[off:off + len(b)] = b
            else:
                b = _arg_bytes(k, v, params[k][0], params[k][1], name)
                if isinstance(v, np.generic):
                    ok.add((k, cls))
                mv[off:off + len(b)] = b

    def _buffers(self):
        """This thread's parameter buffer: one slot per parameter, 16-byte aligned (a double2
        fits), and the ``void*[]`` pointing at the slots."""
        t = self._tls
        n = max(len(self.params), 1)
        slot = self._slot
        t.buf = ctypes.create_string_buffer(slot * n)
        base = ctypes.addressof(t.buf)
        t.ptrs = (ctypes.c_void_p * n)(*[base + slot * k for k in range(n)])
        # the launch's argument: ctypes passes bytes as their address (the slots' addresses)
        t.bufs = memoryview(t.buf).cast("B"), bytes(t.ptrs)
        return t.bufs

    def launch(self, grid, block, params, shared_mem, stream, name):
        """Launch with ``params`` (what ``pack`` returned) on ``stream`` (None: npgpu's
        current stream)."""
        if not _backend.IS_CUDA:
            _backend.require()
            raise RuntimeError(f"{name}: RawKernel/RawModule kernels are CUDA C++ and need a "
                               "GPU; npgpu runs on Numba's CUDA simulator here, which cannot "
                               "run them (use ElementwiseKernel, ReductionKernel, vectorize or "
                               "a numba.cuda.jit kernel instead)")
        tls = _runtime._tls
        dev = tls.device
        if tls.ctx_dev != dev:
            _runtime.ensure_context(dev)
        func = self._funcs.get(dev)
        if func is None:
            func = self._funcs[dev] = ctypes.c_void_p(int(self.module._function(self.entry)))
        # npgpu's launcher's ctypes entry points and launch configs (plain ints, bytes and
        # prebuilt c_void_p: no argtypes); NPGPU_LAUNCH_EX=0: cuLaunchKernel, as there
        L = _launcher
        if L.LAUNCH_EX:
            if stream is None:
                st = tls.stream
                s = st.ptr if st is not None else 0
            else:
                s = stream.ptr if hasattr(stream, "ptr") else int(stream)
            # the config under grid and block as given: a repeat call skips _dims too (a
            # value _dims refuses never gets into the cache)
            key = (grid, block, shared_mem, s)
            try:
                cfg = L._configs.get(key)
            except TypeError:           # a list: _dims' error (or its conversion) below
                cfg = key = None
            if cfg is None:
                cfg = L.launch_config(_dims(grid, "grid"), _dims(block, "block"), shared_mem,
                                      s, key)
            err = L._cuLaunchKernelEx(cfg, func, params, None)
        else:
            if stream is None:
                st = tls.stream
                sv = st._vp if st is not None else None
            else:
                s = stream.ptr if hasattr(stream, "ptr") else int(stream)
                sv = ctypes.c_void_p(s) if s else None
            gx, gy, gz = _dims(grid, "grid")
            bx, by, bz = _dims(block, "block")
            err = L._cuLaunchKernel(func, gx, gy, gz, bx, by, bz, shared_mem, sv, params,
                                    None)
        if err:
            self.raise_launch_error(err, grid, block, name)

    @staticmethod
    def raise_launch_error(err, grid, block, name):
        what = "cuLaunchKernelEx" if _launcher.LAUNCH_EX else "cuLaunchKernel"
        d = _driver()
        raise RuntimeError(f"{what}({name}, grid={grid}, block={block}) failed: "
                           f"{d.cuGetErrorName(d.CUresult(err))[1].decode()}")


def _driver():
    from cuda.bindings import driver
    return driver


def _dim3(v, what):
    if isinstance(v, (int, np.integer)):
        return int(v), 1, 1
    v = tuple(int(x) for x in v)
    if not 1 <= len(v) <= 3:
        raise ValueError(f"{what} must be an int or a tuple of 1 to 3 ints")
    return v + (1,) * (3 - len(v))


# grid/block as given (an int, a tuple of 1 to 3 ints) -> three Python ints, for ctypes
_DIMS = {}


def _dims(v, what):
    if v.__class__ is not int and v.__class__ is not tuple:
        return _dim3(v, what)
    try:
        d = _DIMS.get(v)
    except TypeError:               # a tuple holding a list: _dim3's error
        return _dim3(v, what)
    if d is None:
        d = _dim3(v, what)
        if len(_DIMS) > 4096:       # (grids computed from sizes: keep the table small)
            _DIMS.clear()
        _DIMS[v] = d
    return d


class RawModule:
    """``RawModule(code=None, *, path=None, options=(), backend='nvrtc', name_expressions=None)``:
    CUDA C++ compiled once by NVRTC; ``get_function(name)`` gives a :class:`RawKernel`
    (``name``: a kernel's symbol, ``extern "C"`` name, or one of ``name_expressions`` such as
    ``"add<float>"``)."""

    def __init__(self, code=None, *, path=None, options=(), backend="nvrtc",
                 translate_cucomplex=False, enable_cooperative_groups=False,
                 name_expressions=None, jitify=False):
        if backend != "nvrtc":
            raise ValueError(f"backend must be 'nvrtc', not {backend!r}")
        if jitify:
            raise NotImplementedError("jitify is not supported")
        if (code is None) == (path is None):
            raise TypeError("RawModule needs exactly one of code= or path=")
        if path is not None:
            with open(path) as f:
                code = f.read()
        if not isinstance(code, str):
            raise TypeError(f"code must be a str, not {type(code).__name__}")
        if isinstance(options, str):
            options = (options,)
        self.code = code
        self.options = tuple(options)
        self.name_expressions = tuple(name_expressions or ())
        self.backend = backend
        self._image, self._cubin, self._lowered, self._params = _compile(
            code, self.options, self.name_expressions)
        self._modules = {}           # device id -> (CUmodule, {entry: CUfunction})
        self._kernels = {}

    def get_function(self, name):
        k = self._kernels.get(name)
        if k is None:
            entry = self._lowered.get(name, name)
            if entry not in self._params:
                raise AttributeError(f"no kernel named {name!r} in the module (kernels: "
                                     f"{', '.join(sorted(self._params)) or 'none'}; C++ names "
                                     "need extern \"C\" or name_expressions)")
            k = self._kernels[name] = RawKernel._of(self, name, entry)
        return k

    def _function(self, entry):
        from cuda.bindings import driver
        dev = _runtime.get_device_id()
        _runtime.ensure_context(dev)
        hit = self._modules.get(dev)
        if hit is None:
            err, mod = driver.cuModuleLoadData(self._image)
            if err != driver.CUresult.CUDA_SUCCESS:
                raise RuntimeError(f"cuModuleLoadData failed: "
                                   f"{driver.cuGetErrorName(err)[1].decode()}")
            hit = self._modules[dev] = (mod, {})
        func = hit[1].get(entry)
        if func is None:
            err, func = driver.cuModuleGetFunction(hit[0], entry.encode())
            if err != driver.CUresult.CUDA_SUCCESS:
                raise RuntimeError(f"cuModuleGetFunction({entry}) failed: "
                                   f"{driver.cuGetErrorName(err)[1].decode()}")
            hit[1][entry] = func
        return func


class RawKernel:
    """``RawKernel(code, name, options=(), backend='nvrtc')``: one ``__global__`` function of
    CUDA C++ ``code`` (``extern "C"`` or its mangled name).  Call ``kernel(grid, block, args,
    shared_mem=0, stream=None)``; ``args`` a tuple of npgpu arrays and scalars."""

    def __init__(self, code, name, options=(), backend="nvrtc", *,
                 translate_cucomplex=False, enable_cooperative_groups=False, jitify=False):
        if not isinstance(name, str):
            raise TypeError(f"name must be a str, not {type(name).__name__}")
        self.code = code
        self.name = name
        self.options = tuple((options,) if isinstance(options, str) else options)
        self.backend = backend
        self._module = None
        self._fn = None
        self._args = (translate_cucomplex, enable_cooperative_groups, jitify)

    @classmethod
    def _of(cls, module, name, entry):
        k = cls.__new__(cls)
        k.code, k.name, k.options, k.backend = module.code, name, module.options, module.backend
        k._module = module
        k._fn = _Function(module, entry, module._params[entry])
        return k

    def compile(self):
        """Compile now (else at the first call); raises :class:`CompileError` on failure."""
        if self._fn is None:
            if self._module is None:
                self._module = RawModule(code=self.code, options=self.options,
                                         backend=self.backend)
            self._fn = self._module.get_function(self.name)._fn
        return self

    @property
    def num_params(self):
        return len(self.compile()._fn.params)

    def __call__(self, grid, block, args, *, shared_mem=0, stream=None):
        fn = self._fn
        if fn is None:
            fn = self.compile()._fn
        params = fn.pack(args, self.name)
        # the common repeat (current stream, a launch config seen before) inline: this is the
        # per-call cost users time against CuPy's Cython
        if stream is None and _launcher.LAUNCH_EX:
            tls = _runtime._tls
            dev = tls.device
            func = fn._funcs.get(dev)
            if func is not None and tls.ctx_dev == dev:
                st = tls.stream
                try:
                    cfg = _launcher._configs.get(
                        (grid, block, shared_mem, st.ptr if st is not None else 0))
                except TypeError:       # a list among the dims: the general path's error
                    cfg = None
                if cfg is not None:
                    err = _launcher._cuLaunchKernelEx(cfg, func, params, None)
                    if not err:
                        return
                    fn.raise_launch_error(err, grid, block, self.name)
        fn.launch(grid, block, params, shared_mem, stream, self.name)

    def __repr__(self):
        return f"<npgpu.RawKernel {self.name}>"
