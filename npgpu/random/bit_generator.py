"""The bit generator: Philox4x32-10 keyed through NumPy's ``SeedSequence``.

Its whole state is a 64-bit key and a 128-bit counter, kept on the host: a request reserves a
range of counters (:meth:`Philox._reserve`) and passes key and counter to its kernel as scalar
parameters, so no device state exists and nothing is read back.  The stream layout is in
:mod:`npgpu.random.philox`.
"""
import threading

import numpy as np
from numpy.random import SeedSequence
# NumPy's seed-sequence interfaces: a BitGenerator takes any ISeedSequence, spawns from an
# ISpawnableSeedSequence
from numpy.random.bit_generator import (  # noqa: F401
    ISeedSequence, ISpawnableSeedSequence, SeedlessSeedSequence)

from .._core.ndarray import ndarray


_MASK32 = (1 << 32) - 1
_MASK128 = (1 << 128) - 1
_JUMP = 1 << 96          # jumped(): 2**96 blocks past the counter (draws j live in bits 64-95)


def _as_seed_sequence(seed):
    if isinstance(seed, ISeedSequence):
        return seed
    if isinstance(seed, ndarray):
        # a seed is host state: read it once; a 0-d integer array is npgpu's scalar (NumPy's
        # seed[0] is a NumPy integer)
        seed = seed.get()
        seed = seed[()] if seed.ndim == 0 and seed.dtype.kind in "iu" else seed
    if seed is None or isinstance(seed, (int, np.integer)) or (
            isinstance(seed, (list, tuple, range, np.ndarray)) and not isinstance(seed, str)):
        # SeedSequence raises NumPy's own errors (negative values, non-integers, ...)
        if isinstance(seed, (float, np.floating)):
            raise TypeError("SeedSequence expects int or sequence of ints for entropy not "
                            f"{seed}")
        return SeedSequence(seed)
    raise TypeError(f"SeedSequence expects int or sequence of ints for entropy not {seed}")


class BitGenerator:
    """Base class, as ``numpy.random.BitGenerator``: holds the seed sequence and a lock."""

    def __init__(self, seed=None):
        if type(self) is BitGenerator:
            raise NotImplementedError("BitGenerator is a base class and cannot be instantized")
        self._seed_seq = _as_seed_sequence(seed)
        self.lock = threading.Lock()

    @property
    def seed_seq(self):
        return self._seed_seq

    def spawn(self, n_children):
        """``n_children`` independent bit generators from children of the seed sequence."""
        if not isinstance(self._seed_seq, ISpawnableSeedSequence):
            raise TypeError("The underlying SeedSequence does not implement spawning.")
        return [type(self)(s) for s in self._seed_seq.spawn(n_children)]


class Philox(BitGenerator):
    """Philox4x32-10 (Salmon et al., SC'11): the counter-based generator of cuRAND and CuPy.

    ``Philox(seed)``: key from ``SeedSequence(seed).generate_state(2, uint32)``, counter 0.
    ``counter`` / ``key`` may be given instead, as NumPy's ``Philox`` allows (``key`` and
    ``seed`` are exclusive): ``counter`` an int (128 bits) or 4 uint32 words (lowest first),
    ``key`` an int (64 bits) or 2 uint32 words.
    Not NumPy's ``Philox`` (4x64-10 there): the streams differ.
    """

    def __init__(self, seed=None, counter=None, key=None):
        if key is not None and seed is not None:
            raise ValueError("seed and key cannot be both used")
        super().__init__(seed)
        if key is not None:
            self._key = _words_to_int(key, 2, "key")
            self._seed_seq = None               # as NumPy: no seed sequence, no spawning
        else:
            k = self._seed_seq.generate_state(2, np.uint32)
            self._key = int(k[0]) | (int(k[1]) << 32)
        self._counter = 0 if counter is None else _words_to_int(counter, 4, "counter")

    # -- what kernels get ------------------------------------------------------------------
    def _reserve(self, n, per):
        """Reserve the blocks of an ``n``-element request taking ``per`` elements a block:
        returns ``(key, counter_lo, counter_hi)`` as Python ints (uint64 kernel parameters)."""
        blocks = -(-n // per)
        with self.lock:
            c = self._counter
            self._counter = (c + blocks) & _MASK128
        return self._key, c & 0xFFFFFFFFFFFFFFFF, c >> 64

    # -- NumPy's bit-generator API ---------------------------------------------------------
    @property
    def state(self):
        """``{'bit_generator': 'Philox4x32', 'state': {'counter': uint32[4], 'key': uint32[2]}}``
        (words lowest first)."""
        return {"bit_generator": "Philox4x32",
                "state": {"counter": _int_to_words(self._counter, 4),
                          "key": _int_to_words(self._key, 2)}}

    @state.setter
    def state(self, value):
        if not isinstance(value, dict):
            raise TypeError("state must be a dict")
        bitgen = value.get("bit_generator", "")
        if bitgen != "Philox4x32":
            raise ValueError(f"state must be for a Philox4x32 PRNG")
        st = value["state"]
        with self.lock:
            self._counter = _words_to_int(st["counter"], 4, "counter")
            self._key = _words_to_int(st["key"], 2, "key")

    def advance(self, delta):
        """Advance the counter by ``delta`` blocks (4 x 32 bits each), modulo 2**128."""
        delta = _wrap(delta)
        with self.lock:
            self._counter = (self._counter + delta) & _MASK128
        return self

    def jumped(self, jumps=1):
        """A copy of this generator with the counter advanced by ``jumps * 2**96`` blocks."""
        new = type(self)(counter=self._counter, key=self._key)
        new._seed_seq = self._seed_seq
        new.advance(_wrap(jumps) * _JUMP)
        return new

    def random_raw(self, size=None, output=True):
        """Raw 32-bit words of the stream, as uint32 (NumPy's gives 64-bit words of its own
        generators)."""
        from . import kernels
        from .generator import _size_tuple
        out = kernels.raw_words(self, None if size is None else _size_tuple(size))
        return out if output else None

    def __repr__(self):
        return f"Philox4x32 at 0x{id(self):X}"

    def __getstate__(self):
        return {"state": self.state, "seed_seq": self._seed_seq}

    def __setstate__(self, d):
        self.lock = threading.Lock()
        self._seed_seq = d["seed_seq"]
        self.state = d["state"]


def _wrap(n):
    """An ``advance`` / ``jumped`` count modulo 2**128, with NumPy's TypeError (its
    ``wrap_int``: ``n & mask``) for a float or a string."""
    return (int(n) if isinstance(n, np.integer) else n) & _MASK128


def _words_to_int(v, nwords, what):
    if isinstance(v, ndarray):
        v = v.get()
    if isinstance(v, (int, np.integer)):
        v = int(v)
        if v < 0 or v >= 1 << (32 * nwords):
            # NumPy's message (its 4x64 Philox: key < 2**128, counter < 2**256)
            raise ValueError(f"{what} must be positive and less than 2**{32 * nwords}.")
        return v
    w = np.asarray(v)
    if w.shape != (nwords,):
        raise ValueError(f"{what} must have {nwords} elements when using array form")
    if w.dtype.kind not in "iu":
        raise TypeError(f"{what} must be integers")
    out = 0
    for i, x in enumerate(w.tolist()):
        out |= (int(x) & _MASK32) << (32 * i)
    return out


def _int_to_words(v, nwords):
    return np.array([(v >> (32 * i)) & _MASK32 for i in range(nwords)], dtype=np.uint32)
