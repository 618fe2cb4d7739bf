"""mgrid, ogrid, r_ and c_: NumPy's index-expression helpers, composed of npgpu's ranges
(arange, linspace, indices) and concatenate.

Slice bounds and directives are host metadata; values that are device arrays stay on the
device. NumPy's ``matrix`` class has no npgpu counterpart: the 'r'/'c' directives give the
2-D array of the shape NumPy's matrix would have.
"""
import math

import numpy as np

from ._core.ndarray import ndarray
from .creation import arange, array
from .logic import ndim as _ndim
from .manipulation import concatenate
from .ranges import indices, linspace

__all__ = ["mgrid", "ogrid", "r_", "c_"]


def _is_complex(step):
    return isinstance(step, (complex, np.complexfloating))


def _start_step(s):
    step = s.step           # read first, as NumPy does: a non-slice fails on ``.step``
    return (0 if s.start is None else s.start), (1 if step is None else step)


def _point_step(s, start):
    """The spacing of a slice in a grid: a complex step ``nj`` means n points, stop included."""
    step = s.step
    if _is_complex(step):
        step = int(abs(step))
        if step != 1:
            step = (s.stop - start) / float(step - 1)
    return step


class nd_grid:
    """Dense (``sparse=False``) or open (``sparse=True``) mesh grids from index slices."""
    __slots__ = ("sparse",)

    def __init__(self, sparse=False):
        self.sparse = sparse

    def __getitem__(self, key):
        # NumPy's control flow: a key without len() (one slice) or whose bounds do not
        # subtract takes the one-slice path, and fails there as NumPy's does
        try:
            return self._grid(key)
        except (IndexError, TypeError):
            return self._line(key)

    def _grid(self, key):
        size, scalars = [], [0]
        for k in range(len(key)):
            start, step = _start_step(key[k])
            if _is_complex(step):
                step = abs(step)
                size.append(int(step))
            else:
                size.append(math.ceil((key[k].stop - start) / step))
            scalars += [start, key[k].stop, step]
        typ = np.result_type(*scalars)
        nn = [arange(n, dtype=typ) for n in size] if self.sparse else indices(size, typ)
        for k, s in enumerate(key):
            start, _ = _start_step(s)
            step = 1 if s.step is None else _point_step(s, start)
            nn[k] = nn[k] * step + start
        if not self.sparse:
            return nn
        ones = (1,) * len(size)
        return tuple(v.reshape(ones[:k] + (-1,) + ones[k + 1:]) for k, v in enumerate(nn))

    @staticmethod
    def _line(key):
        start, step = _start_step(key)
        if not _is_complex(key.step):
            return arange(start, key.stop, key.step)
        length = int(abs(step))
        typ = np.result_type(start, key.stop, abs(step))
        return arange(0, length, 1, dtype=typ) * _point_step(key, start) + start


class MGridClass(nd_grid):
    """``mgrid[...]``: one array holding the dense grid of every slice, stacked on axis 0."""
    __slots__ = ()

    def __init__(self):
        super().__init__(sparse=False)


class OGridClass(nd_grid):
    """``ogrid[...]``: a tuple of open grids (one non-unit axis each); one slice, one array."""
    __slots__ = ()

    def __init__(self):
        super().__init__(sparse=True)


mgrid = MGridClass()
ogrid = OGridClass()


def _matrix_shape(shape):
    """The shape NumPy's ``matrix`` gives an array of ``shape``."""
    if len(shape) > 2:
        shape = tuple(n for n in shape if n > 1)
        if len(shape) > 2:
            raise ValueError("shape too large to be a matrix.")
    return {0: (1, 1), 1: (1,) + tuple(shape)}.get(len(shape), tuple(shape))


def _upgrade(obj, ndmin, trans1d):
    """``obj`` with at least ``ndmin`` axes; its own axes start at ``trans1d`` (NumPy's rule)."""
    nd = _ndim(obj)
    out = array(obj, copy=None, ndmin=ndmin)
    if trans1d != -1 and nd < ndmin:
        k2 = ndmin - nd
        k1 = trans1d + k2 + 1 if trans1d < 0 else trans1d
        dims = list(range(ndmin))
        out = out.transpose(dims[:k1] + dims[k2:] + dims[k1:k2])
    return out


class AxisConcatenator:
    """Concatenation of an index expression's slices, scalars and arrays along an axis."""
    __slots__ = ("axis", "matrix", "ndmin", "trans1d")

    def __init__(self, axis=0, matrix=False, ndmin=1, trans1d=-1):
        self.axis = axis
        self.matrix = matrix
        self.trans1d = trans1d
        self.ndmin = ndmin

    def __getitem__(self, key):
        if isinstance(key, str):
            raise NotImplementedError(
                "npgpu has no matrix class: the matrix-builder string syntax of r_/c_ "
                "(numpy.bmat) is not supported; pass arrays instead")
        if not isinstance(key, tuple):
            key = (key,)
        axis, matrix, ndmin, trans1d = self.axis, self.matrix, self.ndmin, self.trans1d
        col = False
        objs, type_keys = [], []
        for k, item in enumerate(key):
            if isinstance(item, str):
                if k != 0:
                    raise ValueError("special directives must be the first entry.")
                if item in ("r", "c"):
                    matrix, col = True, item == "c"
                else:
                    axis, ndmin, trans1d = self._directive(item, axis, ndmin, trans1d)
                continue
            if isinstance(item, slice):
                obj = self._range(item)
                if ndmin > 1:
                    obj = array(obj, copy=None, ndmin=ndmin)
                    if trans1d != -1:
                        obj = obj.swapaxes(-1, trans1d)
            elif type(item) in np.ScalarType:
                objs.append(item)
                type_keys.append(item)      # a Python scalar stays weak (NEP 50)
                continue
            else:
                obj = _upgrade(item, ndmin, trans1d)
            objs.append(obj)
            type_keys.append(obj.dtype)
        if type_keys:
            dt = np.result_type(*type_keys)
            objs = [array(o, copy=None, ndmin=ndmin, dtype=dt) for o in objs]
        res = concatenate(tuple(objs), axis=axis)
        if matrix:
            nd = res.ndim
            res = res.reshape(_matrix_shape(res.shape))
            if nd == 1 and col:
                res = res.T
        return res

    @staticmethod
    def _directive(item, axis, ndmin, trans1d):
        """(axis, ndmin, trans1d) after a string directive such as '1', '0,2' or '-1,2,0'."""
        if "," in item:
            vec = item.split(",")
            try:
                axis, ndmin = [int(x) for x in vec[:2]]
                if len(vec) == 3:
                    trans1d = int(vec[2])
                return axis, ndmin, trans1d
            except Exception as e:
                raise ValueError(f"unknown special directive {item!r}") from e
        try:
            return int(item), ndmin, trans1d
        except (ValueError, TypeError) as e:
            raise ValueError("unknown special directive") from e

    @staticmethod
    def _range(item):
        start, step = _start_step(item)
        if _is_complex(step):
            return linspace(start, item.stop, num=int(abs(step)))
        return arange(start, item.stop, step)

    def __len__(self):
        return 0


class RClass(AxisConcatenator):
    """``r_[...]``: slices become ranges, everything is concatenated along the first axis;
    a leading string directive sets the axis, ndmin and placement ('-1', '0,2', '1,2,0')."""
    __slots__ = ()

    def __init__(self):
        super().__init__(0)


class CClass(AxisConcatenator):
    """``c_[...]``: ``r_['-1,2,0', ...]``, 1-D entries become columns."""
    __slots__ = ()

    def __init__(self):
        super().__init__(-1, ndmin=2, trans1d=0)


r_ = RClass()
c_ = CClass()
