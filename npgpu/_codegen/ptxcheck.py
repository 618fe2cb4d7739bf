"""Compile every recorded kernel to PTX for sm_90 with Numba's real typing and NVVM.

The simulator never types or compiles kernels, so CI runs the tests with
``NPGPU_RECORD_KERNELS=<dir>`` (each rendered source is stored there) and then

    python -m npgpu._codegen.ptxcheck <dir> [--jobs N] [--no-cache] [--profile N]

in a process without the simulator.  Needs NVVM (numba-cuda's ``cu13`` extra),
no GPU.  Exit status 1 if any kernel fails to compile.

Records that differ only in the kernel's name compile once.  A kernel that compiled before
with the same source, parameters, launch bounds, toolchain versions and code generator is
not compiled again: passes are remembered under ``<npgpu cache dir>/ptxcheck`` (``--no-cache``:
compile everything).  Progress is printed every 10% or 30 s.  ``--profile N`` splits the
compile time into Numba's typing, lowering, the rest of Numba, and NVVM, and lists the N
kernel families that took longest.  For timing only (not CI): ``--family PREFIX`` compiles
the kernels whose name starts with PREFIX, ``--every K`` one distinct kernel in K of each
family (at least one; a family is the name without its hash).

Each worker process lives for many kernels and keeps what does not depend on the kernel:
the typing of a (function, argument types) pair, and every device function, shared by all
kernels that render the same function text (:func:`_memo_call_types`, :func:`_python_function`).
"""
import argparse
import collections
import glob
import hashlib
import json
import multiprocessing
import os
import re
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed

_STAGES = ("typing", "lowering", "nvvm")
_ready = []                 # this worker process is set up
_times = {}                 # this worker's exclusive seconds per stage (--profile)
_stack = []                 # [stage, start] of the stages running, innermost last


def _timed(stage, fn):
    """``fn`` with its CPU time counted to ``stage`` alone: a device function typed inside a
    kernel's typing counts once, not also to the kernel's typing.  CPU time, not wall time:
    the numbers hold on a busy machine."""
    def wrapper(*args, **kwargs):
        now = time.process_time()
        if _stack:
            _times[_stack[-1][0]] += now - _stack[-1][1]
        _stack.append([stage, now])
        try:
            return fn(*args, **kwargs)
        finally:
            now = time.process_time()
            _times[stage] += now - _stack.pop()[1]
            if _stack:
                _stack[-1][1] = now
    return wrapper


def _setup(profile):
    """Worker start: no simulator, no device, and (``profile``) timers around Numba's stages."""
    os.environ["NUMBA_ENABLE_CUDASIM"] = "0"
    os.environ["NPGPU_BACKEND"] = "compile-only"
    import numba.cuda.dispatcher as _dispatcher

    # Device functions ask the current device for its compute capability; there
    # is no device here, so answer sm_90 (the target we check).
    class _NoDevice:
        compute_capability = (9, 0)
    _dispatcher.get_current_device = _NoDevice
    _memo_call_types()
    if profile:
        from numba.cuda.core import typed_passes as tp
        from numba.cuda.cudadrv import nvvm
        _times.update(dict.fromkeys(_STAGES, 0.0))
        tp.BaseTypeInference.run_pass = _timed("typing", tp.BaseTypeInference.run_pass)
        tp.BaseNativeLowering.run_pass = _timed("lowering", tp.BaseNativeLowering.run_pass)
        nvvm.compile_ir = _timed("nvvm", nvvm.compile_ir)


def _memo_call_types():
    """Type each (function, argument types) once per worker instead of once per call site.

    Half of a kernel's compile went to typing its calls and operators (``uint32 + int64``,
    ``cuda.atomic.add``, array methods): Numba tries every registered template again at each
    call site of each kernel.  The templates answer from the types alone, so a successful
    answer is kept for the worker's life; failures are not kept (they run again and raise
    as before).  Only this check does it: the flags (and so the answers) are the same for
    every kernel it compiles."""
    from numba.cuda import types

    def memo(cls):
        original = cls.get_call_type
        seen = {}

        def get_call_type(self, context, args, kws):
            try:
                key = (self, id(context), tuple(args), tuple(sorted(kws.items())))
                sig = seen.get(key)
            except TypeError:                       # an unhashable type: no memo
                return original(self, context, args, kws)
            if sig is None or sig.args not in getattr(self, "_impl_keys", (sig.args,)):
                # (a Function records the implementation chosen for lowering: the same
                # instance always, as the key holds it and Numba interns types by key)
                sig = original(self, context, args, kws)
                if sig is not None:
                    seen[key] = sig
            return sig
        cls.get_call_type = get_call_type

    # operators, builtins and overloads; methods (absent from another Numba: no memo)
    for name in ("BaseFunction", "BoundFunction"):
        if hasattr(types, name):
            memo(getattr(types, name))


_base = {}          # the globals every kernel sees (compiler.source_namespace)
_functions = {}     # (device function text, the objects of the names it calls) -> dispatcher
_TOP = re.compile(r"(?m)^(?=@cuda\.jit)")
_WORD = re.compile(r"\w+")


def _python_function(ks):
    """The kernel of ``ks`` as :func:`compiler.python_function` makes it, with every device
    function shared by all kernels of this worker that render the same text calling the same
    functions, not only by kernels rendering the same device part: Numba then compiles e.g.
    ``red_pre(x, i): return x`` once per signature, not once per reduction (24k device
    functions in 6.6k kernels of CI's run, 1.1k distinct texts).  Anything but a sequence of
    ``@cuda.jit`` functions, or a call to one defined later, takes the usual path."""
    from npgpu._codegen.compiler import _exec, python_function, source_namespace
    src = ks.source
    cut = src.rfind(f"\ndef {ks.name}(")
    if cut < 0:
        return python_function(ks)
    parts = [p for p in _TOP.split(src[:cut + 1]) if p.strip()]
    names = []
    for part in parts:
        m = re.match(r"@cuda\.jit\(device=True\)\ndef (\w+)\(", part)
        if m is None:
            return python_function(ks)
        names.append(m.group(1))
    if not _base:
        _base.update(source_namespace())
    base = _base
    ns = dict(base)
    for i, (name, part) in enumerate(zip(names, parts)):
        used = set(_WORD.findall(part))
        if used & set(names[i + 1:]):
            return python_function(ks)
        calls = tuple(sorted((n, id(ns[n])) for n in names[:i] if n in used))
        key = (part, calls)
        fn = _functions.get(key)
        if fn is None:
            fns = dict(base)
            fns.update((n, ns[n]) for n, _ in calls)
            _exec(part, f"<npgpu-device {name} {hashlib.sha1(part.encode()).hexdigest()[:10]}>",
                  fns)
            fn = _functions[key] = fns[name]
        ns[name] = fn
    _exec(src[cut + 1:], f"<npgpu-kernel {ks.name}>", ns)
    return ns[ks.name]


def _compile_chunk(paths, profile):
    """Compile the kernels of ``paths`` one after another (kernels sharing device functions
    share their compiles); per kernel (path, error or None, CPU seconds, stage CPU seconds)."""
    if not _ready:
        _setup(profile)
        _ready.append(True)
    from npgpu._codegen.compiler import KernelSource, compile_ptx

    out = []
    for path in paths:
        with open(path) as f:
            meta = json.load(f)
        ks = KernelSource.from_record(meta)
        params = ks.params
        before = {s: _times.get(s, 0.0) for s in _STAGES}
        t0 = time.process_time()
        err = None
        try:
            # NVVM at -opt=0: the check is Numba's typing and lowering and NVVM's acceptance of
            # the IR; every GPU run compiles the same source at -O3.  Saves ~16% of CI's time.
            compile_ptx(_python_function(ks), params, (9, 0), opt=False,
                        launch_bounds=ks.launch_bounds, f64_table=ks.f64_table)
        except Exception as e:  # report every failure, keep going
            err = f"{type(e).__name__}: {e}"
        out.append((path, err, time.process_time() - t0,
                    {s: _times.get(s, 0.0) - before[s] for s in _STAGES}))
    return out


def _device_part(meta):
    src = meta["source"]
    return src[:src.rfind("\ndef " + meta["name"] + "(")]


def _identity(meta):
    """What decides the PTX: the source with the kernel's own name replaced, the parameters
    and the launch bounds."""
    src = re.sub(r"\b%s\b" % re.escape(meta["name"]), "_kernel", meta["source"])
    return json.dumps([src, meta["params"], meta.get("launch_bounds")])


def _toolchain():
    """Versions and code-generator sources a compile result depends on."""
    from importlib import metadata
    parts = [sys.version.split()[0]]
    for dist in ("npgpu", "numba-cuda", "numba", "llvmlite", "cuda-bindings", "nvidia-nvvm",
                 "numpy"):
        try:
            parts.append(metadata.version(dist))
        except metadata.PackageNotFoundError:
            parts.append("-")
    here = os.path.dirname(os.path.abspath(__file__))
    for name in ("compiler.py", "ptx.py", "ptxcheck.py"):
        with open(os.path.join(here, name), "rb") as f:
            parts.append(hashlib.sha256(f.read()).hexdigest())
    return "|".join(parts)


def _chunks(groups, size):
    """Whole device-part groups packed into chunks of about ``size`` kernels, largest first."""
    chunks, cur = [], []
    for g in sorted(groups, key=len, reverse=True):
        if cur and len(cur) + len(g) > size:
            chunks.append(cur)
            cur = []
        cur = cur + g
    if cur:
        chunks.append(cur)
    return chunks


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("directory")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--no-cache", action="store_true")
    ap.add_argument("--profile", type=int, default=0, metavar="N")
    ap.add_argument("--family", default="", metavar="PREFIX")
    ap.add_argument("--every", type=int, default=1, metavar="K")
    args = ap.parse_args(argv)
    os.environ["NUMBA_ENABLE_CUDASIM"] = "0"
    os.environ["NPGPU_BACKEND"] = "compile-only"     # never the simulator in this process
    paths = sorted(glob.glob(os.path.join(args.directory, "*.json")))
    if not paths:
        print(f"ptxcheck: no recorded kernels in {args.directory}", file=sys.stderr)
        return 1
    t0 = time.time()
    metas = {}
    first = {}                                       # identity -> the path compiled for it
    for path in paths:
        with open(path) as f:
            meta = json.load(f)
        if meta["name"].startswith(args.family):
            first.setdefault(_identity(meta), path)
        metas[path] = meta
    if args.every > 1:
        fams = collections.defaultdict(list)
        for path in first.values():
            fams[_family(metas[path]["name"])].append(path)
        keep = {p for ps in fams.values() for p in ps[::args.every]}
        first = {i: p for i, p in first.items() if p in keep}
    cache = None
    if not args.no_cache:
        from npgpu._codegen.compiler import cache_dir
        cache = os.path.join(cache_dir(), "ptxcheck")
        tag = _toolchain()
    keys, todo = {}, []
    for ident, path in first.items():
        if cache:
            keys[path] = hashlib.sha256((tag + "\0" + ident).encode()).hexdigest()[:40]
            if os.path.exists(os.path.join(cache, keys[path])):
                continue
        todo.append(path)
    print(f"ptxcheck: {len(paths)} recorded kernels, {len(first)} distinct, "
          f"{len(first) - len(todo)} passed before (cache {cache}), {len(todo)} to compile",
          flush=True)
    # kernels sharing device functions (the same op in several layouts) go to the same worker,
    # one after another: each worker compiles a device function once per signature
    groups = collections.defaultdict(list)
    for path in todo:
        groups[_device_part(metas[path])].append(path)
    chunks = _chunks(list(groups.values()), max(8, len(todo) // (16 * args.jobs)))
    failures, results = [], []
    last_print, last_done = time.time(), 0
    if todo:
        with ProcessPoolExecutor(max_workers=args.jobs,
                                 mp_context=multiprocessing.get_context("spawn")) as ex:
            futures = [ex.submit(_compile_chunk, c, args.profile > 0) for c in chunks]
            for fut in as_completed(futures):
                for path, err, secs, stages in fut.result():
                    results.append((path, secs, stages))
                    if err:
                        failures.append((path, err))
                    elif cache:
                        os.makedirs(cache, exist_ok=True)
                        open(os.path.join(cache, keys[path]), "w").close()
                now = time.time()
                if (len(results) - last_done >= len(todo) / 10 or now - last_print >= 30
                        or len(results) == len(todo)):
                    print(f"ptxcheck: {len(results)}/{len(todo)} compiled, "
                          f"{len(failures)} failed, {now - t0:.0f} s", flush=True)
                    last_print, last_done = now, len(results)
    for path, err in failures:
        print(f"FAILED {os.path.basename(path)}: {err}\n{metas[path]['source']}\n",
              file=sys.stderr)
    if args.profile and results:
        _report(results, metas, args.profile)
    print(f"ptxcheck: {len(first) - len(failures)}/{len(first)} distinct kernels ({len(paths)} "
          f"recorded) compile to PTX for sm_90 ({len(todo)} compiled now, "
          f"{len(first) - len(todo)} passed before) in {time.time() - t0:.1f} s", flush=True)
    return 1 if failures else 0


def _family(name):
    return name.rsplit("_", 1)[0]


def _report(results, metas, n):
    """Where the compile time went (workers' CPU seconds), and the ``n`` slowest families."""
    total = sum(s for _, s, _ in results)
    stages = {s: sum(st[s] for _, _, st in results) for s in _STAGES}
    rest = total - sum(stages.values())
    print(f"ptxcheck profile: {total:.0f} CPU s over {len(results)} kernels "
          f"({total / len(results) * 1e3:.0f} ms each): "
          + ", ".join(f"{s} {v:.0f} s ({v / total:.0%})" for s, v in stages.items())
          + f", other Numba passes and linking {rest:.0f} s ({rest / total:.0%})", flush=True)
    fam = collections.defaultdict(lambda: [0, 0.0])
    for path, secs, _ in results:
        f = fam[_family(metas[path]["name"])]
        f[0] += 1
        f[1] += secs
    for name, (count, secs) in sorted(fam.items(), key=lambda kv: -kv[1][1])[:n]:
        print(f"  {name:28s} {count:5d} kernels {secs:8.1f} s  ({secs / count * 1e3:.0f} ms each)",
              flush=True)


if __name__ == "__main__":
    sys.exit(main())
