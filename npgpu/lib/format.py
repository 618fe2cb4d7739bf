"""``numpy.lib.format``: the ``.npy`` format for npgpu arrays.

The header functions (magic string, dtype descriptions, header reads and writes) are NumPy's
own: they hold no array data (``header_data_from_array_1_0`` reads an npgpu array's shape,
order and dtype, not its values).  ``write_array`` reads the array to the host (an explicit
transfer, as ``npgpu.save`` makes) and writes NumPy's bytes; ``read_array`` returns a device
array of what NumPy read.  ``open_memmap`` is not provided: device memory is not a file
mapping (``npgpu.load(..., mmap_mode=...)`` reads the file whole)."""
import numpy.lib.format as _fmt

from .._core.ndarray import host_values as _host
from ..file_io import _device

ARRAY_ALIGN = _fmt.ARRAY_ALIGN
BUFFER_SIZE = _fmt.BUFFER_SIZE
EXPECTED_KEYS = _fmt.EXPECTED_KEYS
GROWTH_AXIS_MAX_DIGITS = _fmt.GROWTH_AXIS_MAX_DIGITS
MAGIC_LEN = _fmt.MAGIC_LEN
MAGIC_PREFIX = _fmt.MAGIC_PREFIX

descr_to_dtype = _fmt.descr_to_dtype
drop_metadata = _fmt.drop_metadata
dtype_to_descr = _fmt.dtype_to_descr
header_data_from_array_1_0 = _fmt.header_data_from_array_1_0
isfileobj = _fmt.isfileobj
magic = _fmt.magic
read_array_header_1_0 = _fmt.read_array_header_1_0
read_array_header_2_0 = _fmt.read_array_header_2_0
read_magic = _fmt.read_magic
write_array_header_1_0 = _fmt.write_array_header_1_0
write_array_header_2_0 = _fmt.write_array_header_2_0


def write_array(fp, array, version=None, allow_pickle=True, pickle_kwargs=None):
    """``numpy.lib.format.write_array`` of ``array``'s values (an npgpu array is read to the
    host; an F-ordered one is written as NumPy's ``fortran_order`` file)."""
    _fmt.write_array(fp, _host(array), version=version, allow_pickle=allow_pickle,
                     pickle_kwargs=pickle_kwargs)


def read_array(fp, allow_pickle=False, pickle_kwargs=None, *, max_header_size=10000):
    """``numpy.lib.format.read_array``: the array on the device (its file order kept)."""
    return _device(_fmt.read_array(fp, allow_pickle=allow_pickle, pickle_kwargs=pickle_kwargs,
                                   max_header_size=max_header_size))


__all__ = []        # as NumPy's module: its names are reached as attributes
