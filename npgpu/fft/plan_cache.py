"""The cuFFT plan cache: one per process, shared by every thread and stream.

A cuFFT plan is keyed by what the library fixes at planning time: the device, the transform
type (C2C, R2C, C2R in single or double precision), the lengths, the batch layout (``inembed``,
``istride``, ``idist``, ``onembed``, ``ostride``, ``odist``) and the batch count.  Not by
stream: each execution sets the plan's stream (when it changed) and its work area under the
plan's lock, then enqueues, so threads on different streams share one plan.  Work areas are not
held by cached plans: each execution takes one from npgpu's memory pool on the current stream
and gives it back after enqueueing (the pool is stream-ordered, so the next user of that block
on the stream runs after the transform).

The cache is an LRU of at most :data:`DEFAULT_SIZE` plans (16, CuPy's default; the
environment variable ``NPGPU_FFT_PLAN_CACHE_SIZE`` sets the initial size).  ``set_size(0)``
turns caching off: each call then creates and destroys its plans.  An evicted plan is
destroyed once no thread is executing it.

CuPy's names are here too: :func:`get_plan_cache`, :func:`get_plan_cache_size`,
:func:`set_plan_cache_size`, :func:`clear_plan_cache`, :func:`show_plan_cache_info`
(``npgpu.fft.config`` is this module, as ``cupy.fft.config`` is CuPy's).
"""
import collections
import os
import threading

DEFAULT_SIZE = int(os.environ.get("NPGPU_FFT_PLAN_CACHE_SIZE", "16"))


class PlanCache:
    """An LRU cache of cuFFT plans (see the module docstring).

    ``hits`` and ``misses`` count lookups; ``len(cache)`` is the number of plans held."""

    def __init__(self, size=DEFAULT_SIZE):
        self._lock = threading.Lock()
        self._plans = collections.OrderedDict()
        self._size = self._check_size(size)
        self.hits = 0
        self.misses = 0

    @staticmethod
    def _check_size(size):
        size = int(size)
        if size < 0:
            raise ValueError(f"the plan cache size must be >= 0 (got {size})")
        return size

    # ---- size ------------------------------------------------------------------------------
    def get_size(self):
        """The most plans the cache holds (0: caching off)."""
        return self._size

    def set_size(self, size):
        """Hold at most ``size`` plans from now on; the least recently used beyond it go."""
        size = self._check_size(size)
        with self._lock:
            self._size = size
            gone = self._trim()
        _destroy_all(gone)

    size = property(get_size, set_size)

    def get_curr_size(self):
        """The number of plans held now."""
        return len(self._plans)

    def __len__(self):
        return len(self._plans)

    def keys(self):
        """The keys of the plans held, least recently used first."""
        with self._lock:
            return list(self._plans)

    def clear(self):
        """Destroy every cached plan (and reset the hit and miss counts)."""
        with self._lock:
            gone = list(self._plans.values())
            self._plans.clear()
            self.hits = self.misses = 0
        _destroy_all(gone)

    def show_info(self):
        """Print the size, the use and each plan held (most recently used last)."""
        print(self._info())

    def _info(self):
        with self._lock:
            lines = [f"npgpu cuFFT plan cache: {len(self._plans)} of {self._size} plans, "
                     f"{self.hits} hits, {self.misses} misses"]
            lines += [f"  {p!r}" for p in self._plans.values()]
        return "\n".join(lines)

    def __repr__(self):
        return (f"<npgpu.fft.PlanCache: {len(self._plans)} of {self._size} plans, "
                f"{self.hits} hits, {self.misses} misses>")

    # ---- use -------------------------------------------------------------------------------
    def _trim(self):
        gone = []
        while len(self._plans) > self._size:
            gone.append(self._plans.popitem(last=False)[1])
        return gone

    def _lookup(self, key, make):
        """(plan, cached?): the cached plan for ``key`` or a new one from ``make(key)``."""
        with self._lock:
            plan = self._plans.get(key)
            if plan is not None:
                self._plans.move_to_end(key)
                self.hits += 1
                return plan, True
            self.misses += 1
        plan = make(key)                   # planning takes milliseconds: not under the lock
        gone = []
        with self._lock:
            if self._size == 0:
                return plan, False
            other = self._plans.get(key)
            if other is not None:          # another thread planned the same key meanwhile
                gone.append(plan)
                plan = other
                self._plans.move_to_end(key)
            else:
                self._plans[key] = plan
                gone = self._trim()
        _destroy_all(gone)
        return plan, True

    def run(self, key, make, fn):
        """``fn(plan)`` with the plan for ``key`` locked (``make(key)`` plans a miss)."""
        while True:
            plan, cached = self._lookup(key, make)
            try:
                with plan.lock:
                    if plan.handle is not None:
                        return fn(plan)
                # evicted and destroyed between the lookup and the lock: look again
            finally:
                if not cached:
                    plan.destroy()


def _destroy_all(plans):
    for p in plans:
        p.destroy()


_cache = PlanCache()


def get_plan_cache():
    """The process's :class:`PlanCache` (shared by all threads; plans are keyed by device)."""
    return _cache


def get_plan_cache_size():
    return _cache.get_size()


def set_plan_cache_size(size):
    _cache.set_size(size)


def clear_plan_cache():
    _cache.clear()


def show_plan_cache_info():
    _cache.show_info()
