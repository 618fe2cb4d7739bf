"""Per-array values of the exchange protocols, computed on first use and reused.

Peers ask an array the same questions on every exchange or kernel launch: PyTorch and CuPy
read ``__cuda_array_interface__``, Numba's dispatcher reads ``_numba_type_`` twice and
``_strided_memory_view_shim`` once per argument and launch, every DLPack export writes the
same struct.  Numba caches its own arrays' answers (``functools.cached_property``); npgpu
keeps them in one object per array (``ndarray._xc``), valid while the array's pointer,
shape, strides, dtype and writeable state are the ones it was made for (``resize`` and
``flags.writeable`` change them in place: the next call then makes a fresh one).
Nothing here imports the layers above ``_core``.
"""


class ExchangeCache:
    """What the exchange protocols derive from one array (filled lazily by their modules):
    ``cai`` the CUDA Array Interface dict without its ``stream``, ``numba_type`` and ``shim``
    for Numba's launcher, ``dl`` DLPack struct templates by (version, flags)."""

    __slots__ = ("ptr", "shape", "strides", "dtype", "ro", "cai", "numba_type", "shim", "dl")

    def __init__(self, a):
        self.ptr = a._ptr
        self.shape = a.shape
        self.strides = a._strides
        self.dtype = a.dtype
        self.ro = a._ro
        self.cai = self.numba_type = self.shim = self.dl = None


def exchange_cache(a):
    """``a``'s :class:`ExchangeCache`, made anew when ``a`` changed since the last one."""
    try:
        c = a._xc
        if (c.shape is a.shape and c.ptr == a._ptr and c.ro == a._ro
                and c.strides is a._strides and c.dtype is a.dtype):
            return c
    except AttributeError:      # the slot is unset until the first exchange
        pass
    c = a._xc = ExchangeCache(a)
    return c
