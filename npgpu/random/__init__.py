"""npgpu.random: NumPy's Generator and legacy APIs on Philox4x32-10 (``docs/random.md``).

``default_rng(seed)`` gives a :class:`Generator`; the module functions (``rand``, ``normal``,
``seed``, ...) use a global :class:`RandomState`.  Every draw is one generated kernel; streams
are npgpu's own (counter-based Philox4x32-10 keyed by ``SeedSequence``), not NumPy's.
"""
from numpy.random import SeedSequence

from .bit_generator import BitGenerator, Philox
from .generator import Generator, default_rng
from .legacy import FUNCTIONS as _FUNCTIONS
from .legacy import (RandomState, get_bit_generator, get_state, seed, set_bit_generator,
                     set_state)
from . import mtrand  # noqa: F401  (numpy.random.mtrand: the legacy names)

globals().update(_FUNCTIONS)

__all__ = ["BitGenerator", "Generator", "Philox", "RandomState", "SeedSequence", "default_rng",
           "get_state", "seed", "set_state", *sorted(_FUNCTIONS)]
