"""NumPy's input and output for npgpu arrays: files and host buffers are host-side, so each
function is NumPy's own on a host copy, with the transfer it needs made explicitly here and
nowhere else: the writers (``save``, ``savez``, ``savez_compressed``, ``savetxt``; and
``ndarray.tofile``) read the npgpu arrays they are given to the host, the readers (``load``,
``loadtxt``, ``genfromtxt``, ``fromfile``) and the builders from host data
(``frombuffer``, ``fromiter``, ``fromstring``) return device arrays of what NumPy read.

File formats, arguments and errors are NumPy's (a file npgpu writes is the file NumPy writes of
the same values).  ``load`` of an ``.npz`` archive returns an :class:`NpzFile` whose members come
to the device when read (one transfer per member, as NumPy reads one per access); a
``mmap_mode`` is accepted and the data read whole (device memory is not a file mapping).  Arrays
npgpu cannot hold (object, string, structured dtypes; ``genfromtxt``'s masked arrays) raise the
``TypeError`` of :func:`npgpu.asarray`; ``fromregex``, whose result is always structured, is not
provided.  ``memmap`` neither: device memory is not a file mapping."""
import numpy as _np

from . import _like
from ._core.ndarray import READONLY_FOREIGN, host_values as _host
from .creation import asarray


def _device(a):
    """NumPy's result on the device (an ``np.ndarray``; NumPy's masked arrays are refused)."""
    if isinstance(a, _np.ma.MaskedArray):
        raise TypeError("npgpu arrays have no mask: read masked data with NumPy "
                        "(numpy.genfromtxt(..., usemask=True)) and transfer .data and .mask")
    return asarray(a)


# ---- writers ----------------------------------------------------------------------------------
def save(file, arr, allow_pickle=True, **kwargs):
    """``numpy.save`` of ``arr``'s values (an npgpu array is read to the host)."""
    _np.save(file, _host(arr), allow_pickle=allow_pickle, **kwargs)


def savez(file, *args, allow_pickle=True, **kwds):
    """``numpy.savez`` of the arrays' values (npgpu arrays are read to the host)."""
    _np.savez(file, *map(_host, args), allow_pickle=allow_pickle,
              **{k: _host(v) for k, v in kwds.items()})


def savez_compressed(file, *args, allow_pickle=True, **kwds):
    """``numpy.savez_compressed`` of the arrays' values (npgpu arrays are read to the host)."""
    _np.savez_compressed(file, *map(_host, args), allow_pickle=allow_pickle,
                         **{k: _host(v) for k, v in kwds.items()})


def savetxt(fname, X, *args, **kwargs):
    """``numpy.savetxt`` of ``X``'s values (an npgpu array is read to the host)."""
    _np.savetxt(fname, _host(X), *args, **kwargs)


# ---- readers ----------------------------------------------------------------------------------
class NpzFile:
    """NumPy's ``NpzFile`` (of ``numpy.load`` on an ``.npz`` archive) whose members are read to
    the device: ``f["x"]`` is an npgpu array; ``files``, ``keys()``, ``items()``, ``values()``,
    ``get()``, ``close()``, ``with`` and ``len``/``in``/iteration as NumPy's."""

    def __init__(self, npz):
        self._npz = npz

    files = property(lambda self: self._npz.files)

    @property
    def f(self):
        """NumPy's attribute access to the members (``npz.f.x`` is ``npz["x"]``)."""
        return _Members(self)

    def __getattr__(self, name):
        # NumPy's other attributes (``zip``, ``fid``, ``allow_pickle``, ``max_header_size``...)
        if name.startswith("__") or name == "_npz":
            raise AttributeError(name)
        return getattr(self._npz, name)

    def __getitem__(self, key):
        return _device(self._npz[key])

    def get(self, key, default=None):
        return self[key] if key in self._npz else default

    def keys(self):
        return self._npz.keys()

    def values(self):
        return [self[k] for k in self._npz.files]

    def items(self):
        return [(k, self[k]) for k in self._npz.files]

    def __iter__(self):
        return iter(self._npz)

    def __len__(self):
        return len(self._npz)

    def __contains__(self, key):
        return key in self._npz

    def close(self):
        self._npz.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return repr(self._npz)          # NumPy's: the file name and the keys


class _Members:
    """``NpzFile.f``: the archive's members as attributes."""

    def __init__(self, npz):
        object.__setattr__(self, "_npz", npz)

    def __getattribute__(self, key):
        try:
            return object.__getattribute__(self, "_npz")[key]
        except KeyError:
            raise AttributeError(key) from None

    def __dir__(self):
        return list(object.__getattribute__(self, "_npz").files)


def load(file, mmap_mode=None, allow_pickle=False, fix_imports=True, encoding="ASCII", *,
         max_header_size=10000):
    """``numpy.load``: an ``.npy`` file's array on the device, an ``.npz`` archive as an
    :class:`NpzFile` of device arrays (a pickled object, with ``allow_pickle``, as NumPy
    returns it, unless it is an array)."""
    r = _np.load(file, mmap_mode=mmap_mode, allow_pickle=allow_pickle, fix_imports=fix_imports,
                 encoding=encoding, max_header_size=max_header_size)
    if isinstance(r, _np.lib.npyio.NpzFile):
        return NpzFile(r)
    if isinstance(r, _np.ndarray):
        return _device(r)
    return r


def loadtxt(*args, like=None, **kwargs):
    """``numpy.loadtxt``, the array on the device."""
    if like is not None and _like.foreign(like):
        return _like.dispatch(loadtxt, like, locals())
    return _device(_np.loadtxt(*args, **kwargs))


def genfromtxt(*args, like=None, **kwargs):
    """``numpy.genfromtxt``, the array on the device."""
    if like is not None and _like.foreign(like):
        return _like.dispatch(genfromtxt, like, locals())
    return _device(_np.genfromtxt(*args, **kwargs))


def fromfile(file, dtype=float, count=-1, sep="", offset=0, *, like=None):
    """``numpy.fromfile``, the array on the device."""
    if like is not None and _like.foreign(like):
        return _like.dispatch(fromfile, like, locals())
    return _device(_np.fromfile(file, dtype=dtype, count=count, sep=sep, offset=offset))


# ---- arrays from host data --------------------------------------------------------------------
def frombuffer(buffer, dtype=float, count=-1, offset=0, *, like=None):
    """``numpy.frombuffer``: the buffer's bytes copied to a device array, read-only where
    NumPy's view is (a read-only buffer such as ``bytes``)."""
    if like is not None and _like.foreign(like):
        return _like.dispatch(frombuffer, like, locals())
    host = _np.frombuffer(buffer, dtype=dtype, count=count, offset=offset)
    out = _device(host)
    if not host.flags.writeable:
        # NumPy's result views a read-only buffer (bytes): read-only for good, as NumPy's is
        out._ro = READONLY_FOREIGN
    return out


def fromiter(iter, dtype, count=-1, *, like=None):
    """``numpy.fromiter``: the iterable's values in a device array."""
    if like is not None and _like.foreign(like):
        return _like.dispatch(fromiter, like, locals())
    return _device(_np.fromiter(iter, dtype=dtype, count=count))


def fromstring(string, dtype=float, count=-1, *, sep="", like=None):
    """``numpy.fromstring`` (text with a separator, as NumPy 2 requires: without one, NumPy's
    ValueError for the removed binary mode), on the device."""
    if like is not None and _like.foreign(like):
        return _like.dispatch(fromstring, like, locals())
    return _device(_np.fromstring(string, dtype=dtype, count=count, sep=sep))


__all__ = ["frombuffer", "fromfile", "fromiter", "fromstring", "genfromtxt",
           "load", "loadtxt", "save", "savetxt", "savez", "savez_compressed"]
