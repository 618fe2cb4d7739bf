"""``numpy.random.mtrand``'s names: the legacy ``RandomState``, its global instance ``_rand``
and the module functions (all from :mod:`.legacy`; the bit generator is Philox4x32-10)."""
from .legacy import FUNCTIONS as _FUNCTIONS
from .legacy import (RandomState, _rand, get_bit_generator, get_state, seed,  # noqa: F401
                     set_bit_generator, set_state)

globals().update(_FUNCTIONS)
