"""Per-array values of the exchange protocols, computed on first use and reused.

Peers ask an array the same questions on every exchange or kernel launch: PyTorch and CuPy
read ``__cuda_array_interface__``, every DLPack export writes the same struct.  npgpu keeps
those answers in one object per array (``ndarray._xc``), valid while the array's pointer,
shape, strides, dtype and writeable state are the ones it was made for (``resize``,
setting ``shape`` and ``flags.writeable`` change them in place: the next call then makes a
fresh one).

Numba's launcher asks more often (``_numba_type_`` twice and ``_strided_memory_view_shim``
once per argument and launch) and from C: those two are slots of the array, unset until the
first read, which the class's ``__getattr__`` (:func:`memo`) fills, as Numba caches its own
arrays' (``functools.cached_property``); after it each read is a slot read in C, with no Python
call and no check.  ``resize``, setting ``shape`` and ``flags.writeable`` unset them
(:func:`forget`); nothing else changes an array in place.
Nothing here imports the layers above ``_core``.
"""


class ExchangeCache:
    """What the exchange protocols derive from one array (filled lazily by their modules):
    ``cai`` the CUDA Array Interface dict without its ``stream``, ``dl`` DLPack struct
    templates by (version, flags)."""

    __slots__ = ("ptr", "shape", "strides", "dtype", "ro", "cai", "dl")

    def __init__(self, a):
        self.ptr = a._ptr
        self.shape = a.shape
        self.strides = a._strides
        self.dtype = a.dtype
        self.ro = a._ro
        self.cai = self.dl = None


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


MEMOS = {}          # name -> make(a): the array attributes made on their first read


def memo(a, name):
    """The array class's ``__getattr__`` (reached only when ``name`` is not set): make a
    :data:`MEMOS` value and store it in the array's slot of that name, whose later reads are
    then plain slot reads, in C (as Numba's dispatcher reads them) with no Python call."""
    make = MEMOS.get(name)
    if make is None:
        raise AttributeError(f"'{type(a).__name__}' object has no attribute '{name}'",
                             name=name, obj=a)
    v = make(a)
    setattr(a, name, v)
    return v


def forget(a):
    """Drop ``a``'s :data:`MEMOS` values after an in-place change of its pointer, shape,
    strides or writeable state (the next read makes them anew)."""
    for name in MEMOS:
        try:
            delattr(a, name)
        except AttributeError:
            pass
