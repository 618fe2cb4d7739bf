"""Launch shapes and plan replay shared by ndimage's image kernels (the n-D filter template, the
small rank filters, binary morphology): threads x along the last axis, y along the one before
(``rows`` outputs a thread, a row apart), z over the rest; a 1-D input is a (1, n) image."""
import numpy as np

from ..._codegen import elementwise as _ew
from ..._core.call_cache import store

_I64 = np.dtype(np.int64)
BLOCK = (32, 8) if not _ew._SIM else (4, 2)      # the simulator: several blocks on tiny images
GRID_YZ = 65535 if not _ew._SIM else 2           # grid y / z limit (the kernels loop past it)
ROWS = 2         # outputs a thread computes a row apart (their loads shared), when rows > 1


def image_layout(src, dst, offsets):
    """(shape, src strides, dst strides, tap offsets) of the launch: a 1-D input is a (1, n)
    image, its row the x axis."""
    shape, sst, dstt = src.shape, src._strides, dst._strides
    if src.ndim == 1:
        shape, sst, dstt = (1,) + shape, (0,) + sst, (0,) + dstt
        offsets = np.concatenate([np.zeros((len(offsets), 1), _I64),
                                  np.asarray(offsets, _I64)], axis=1)
    return shape, sst, dstt, offsets


def rows_per_thread(shape):
    """:data:`ROWS` outputs a thread, or 1 for a single row (a 1-D input)."""
    return ROWS if shape[-2] > 1 else 1


def image_grid(shape, rows=1):
    """The grid of a launch over ``shape`` (2-D or more) with blocks of :data:`BLOCK`."""
    bx, by = BLOCK
    lead = int(np.prod(shape[:-2], dtype=np.int64))
    return (-(-shape[-1] // bx), min(-(-shape[-2] // (by * rows)), GRID_YZ), min(lead, GRID_YZ))


def replay(cache, key, make):
    """The launch plan of ``key`` in ``cache``; ``make()`` on a miss (a full cache is emptied
    first: 256 plans)."""
    plan = cache.get(key)
    if plan is None:
        plan = remember(cache, key, make())
    return plan


def remember(cache, key, value):
    """``cache[key] = value`` in one of ndimage's plan and table caches (a full cache is emptied
    first: 256 entries); returns ``value``."""
    return store(cache, key, value)
