"""PTX shipped with npgpu for the kernels a first session nearly always renders.

A kernel missing from the disk cache costs Numba's typing, lowering and NVVM (0.3-0.5 s, and
about 1.5 s more for the first one: Numba's CUDA target set-up).  For the kernels in
``shipped_ptx/`` the driver assembles the shipped PTX instead (tens of milliseconds; the cubin
then goes to the disk cache as usual), so a fresh install's first ``(a * 2 + 1).sum()`` does
not import Numba's compiler at all.

The store is keyed by what the PTX is a translation of -- the rendered source, the parameter
types, the launch bounds and the compile options -- and not by the toolchain's versions (those
key the disk cache's cubins): PTX compiled by one numba-cuda for the same source is the same
kernel under another.  Each entry is ``<key>.ptx`` and ``<key>.json`` (entry point, kernel
name, the PTX target architecture); a device older than the target skips it.
``scripts/ship_ptx.py`` writes the store on a GPU machine from the kernels a workload renders
there (the GPU renders its own launch shapes, which the simulator does not).
"""
import hashlib
import json
import os

STORE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "shipped_ptx")
_index = None           # {key: folder} of the stores, listed once a process


def _folders():
    """The package's store, then the folders of ``NPGPU_PTX_STORE`` (``os.pathsep``-separated:
    a store a GPU run wrote with ``NPGPU_PTX_STORE_OUT``, carried to a fresh machine so the
    kernels it holds skip Numba's compile there)."""
    extra = os.environ.get("NPGPU_PTX_STORE", "")
    return [STORE] + [d for d in extra.split(os.pathsep) if d]


def key(ks, options):
    """The store key of kernel source ``ks`` (its digest: source, parameters, launch bounds)
    compiled with ``options``."""
    return hashlib.sha256(f"{ks.digest()}\0{options!r}".encode()).hexdigest()[:40]


def lookup(ks, options, cc):
    """(PTX bytes, entry point) of ``ks`` when the store has it for a device of compute
    capability ``cc`` (a (major, minor) tuple), else None."""
    global _index
    if _index is None:
        _index = {}
        for d in reversed(_folders()):      # (the package's own store wins a shared key)
            try:
                _index.update((f[:-5], d) for f in os.listdir(d) if f.endswith(".json"))
            except OSError:
                pass
    k = key(ks, options)
    if k not in _index:
        return None
    base = os.path.join(_index[k], k)
    try:
        with open(base + ".json") as f:
            meta = json.load(f)
        if tuple(meta["arch"]) > tuple(cc):
            return None
        with open(base + ".ptx", "rb") as f:
            return f.read(), meta["entry"]
    except (OSError, ValueError, KeyError):
        return None


def store(ks, options, ptx, entry, arch, directory=None):
    """Write ``ptx`` (text, compiled for ``arch``) of ``ks`` into the store (``directory``:
    another folder, e.g. a device call's output)."""
    global _index
    d = directory or STORE
    os.makedirs(d, exist_ok=True)
    base = os.path.join(d, key(ks, options))
    # each file whole or absent (processes of one run may store the same kernel at once); the
    # .json, which lookup lists, last
    for ext, text in ((".ptx", ptx),
                      (".json", json.dumps({"entry": entry, "name": ks.name, "arch": list(arch)}))):
        tmp = f"{base}{ext}.{os.getpid()}.tmp"
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, base + ext)
    _index = None
    return base
