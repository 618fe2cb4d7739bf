"""NumPy's printing for npgpu arrays: ``array2string``, ``array_repr`` and ``array_str`` format a
host copy of the array (an explicit read, as ``repr`` and ``print`` make: formatting happens on the
host), with NumPy's options, which are NumPy's own (``set_printoptions``, ``get_printoptions``,
``printoptions``): so they govern how npgpu arrays print too.  The number formatters
(``format_float_positional``, ``format_float_scientific``, ``base_repr``, ``binary_repr``) take
host scalars and are NumPy's."""
import numpy as _np

from ._core.ndarray import host_values as _host

set_printoptions = _np.set_printoptions
get_printoptions = _np.get_printoptions
printoptions = _np.printoptions
format_float_positional = _np.format_float_positional
format_float_scientific = _np.format_float_scientific
base_repr = _np.base_repr
binary_repr = _np.binary_repr


def array2string(a, *args, **kwargs):
    """``numpy.array2string`` of ``a`` (an npgpu array is read to the host)."""
    return _np.array2string(_host(a), *args, **kwargs)


def array_repr(arr, *args, **kwargs):
    """``numpy.array_repr`` of ``arr`` (an npgpu array is read to the host)."""
    return _np.array_repr(_host(arr), *args, **kwargs)


def array_str(a, *args, **kwargs):
    """``numpy.array_str`` of ``a`` (an npgpu array is read to the host)."""
    return _np.array_str(_host(a), *args, **kwargs)


__all__ = ["array2string", "array_repr", "array_str", "base_repr", "binary_repr",
           "format_float_positional", "format_float_scientific", "get_printoptions",
           "printoptions", "set_printoptions"]
