"""The legacy API: ``RandomState`` and the ``numpy.random`` module functions.

Same kernels as :class:`~.generator.Generator` (a RandomState wraps one), seeded through
``SeedSequence``; NumPy's legacy MT19937 streams are not reproduced.  ``get_state`` /
``set_state`` exchange the Philox4x32 state dict.
"""
import operator

import numpy as np

from .bit_generator import Philox
from .generator import Generator

_DISTRIBUTIONS = (
    "beta", "binomial", "chisquare", "exponential", "f", "gamma", "geometric", "gumbel",
    "hypergeometric", "laplace", "logistic", "lognormal", "logseries", "negative_binomial",
    "noncentral_chisquare", "noncentral_f", "normal", "pareto", "poisson", "power", "rayleigh",
    "standard_cauchy", "standard_t", "triangular", "uniform", "vonmises", "wald", "weibull",
    "zipf", "dirichlet", "multinomial", "bytes")


class RandomState:
    """NumPy's ``RandomState`` interface over Philox4x32-10 (``seed``: None, an int or a
    sequence of ints)."""

    def __init__(self, seed=None):
        self._gen = Generator(Philox(seed))

    def seed(self, seed=None):
        self._gen = Generator(Philox(seed))

    def get_state(self, legacy=True):
        return self._gen.bit_generator.state

    def set_state(self, state):
        self._gen.bit_generator.state = state

    # -- uniform floats ----------------------------------------------------------------
    def random_sample(self, size=None):
        return self._gen.random(size)

    random = random_sample

    def rand(self, *args):
        return self._gen.random(args if args else None)

    def randn(self, *args):
        return self._gen.standard_normal(args if args else None)

    def standard_normal(self, size=None):
        return self._gen.standard_normal(size)

    def standard_exponential(self, size=None):
        return self._gen.standard_exponential(size)

    def standard_gamma(self, shape, size=None):
        return self._gen.standard_gamma(shape, size)

    # -- integers ----------------------------------------------------------------------
    def randint(self, low, high=None, size=None, dtype=int):
        dt = np.dtype(dtype)
        if high is None:
            low, high = 0, low
            if not isinstance(high, (np.ndarray, list, tuple)) and not hasattr(high, "shape") \
                    and int(high) <= 0:
                raise ValueError("high <= 0")
        return self._gen.integers(low, high, size=size, dtype=dt)

    def random_integers(self, low, high=None, size=None):
        import warnings
        if high is None:
            warnings.warn("This function is deprecated. Please call randint(1, {low} + 1) "
                          "instead".format(low=low), DeprecationWarning, stacklevel=2)
            low, high = 1, low
        else:
            warnings.warn("This function is deprecated. Please call randint({low}, {high} + 1) "
                          "instead".format(low=low, high=high), DeprecationWarning, stacklevel=2)
        return self._gen.integers(low, high, size=size, endpoint=True)

    def tomaxint(self, size=None):
        return self._gen.integers(0, np.iinfo(np.int64).max, size=size, endpoint=True)

    # -- sequences ---------------------------------------------------------------------
    def choice(self, a, size=None, replace=True, p=None):
        return self._gen.choice(a, size, replace, p)

    def permutation(self, x):
        return self._gen.permutation(x)

    def shuffle(self, x):
        self._gen.shuffle(x)

    def multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8):
        return self._gen.multivariate_normal(mean, cov, size, check_valid, tol)

    def __repr__(self):
        return f"RandomState(Philox4x32) at 0x{id(self):X}"


def _delegate(name):
    def method(self, *args, **kwargs):
        return getattr(self._gen, name)(*args, **kwargs)
    method.__name__ = method.__qualname__ = name
    method.__doc__ = getattr(Generator, name).__doc__
    return method


for _name in _DISTRIBUTIONS:
    setattr(RandomState, _name, _delegate(_name))

_rand = RandomState()


def seed(seed=None):
    """Re-seed the global RandomState (through ``SeedSequence``)."""
    _rand.seed(seed)


def get_state(legacy=True):
    return _rand.get_state(legacy)


def set_state(state):
    _rand.set_state(state)


def _module_function(name):
    def f(*args, **kwargs):
        return getattr(_rand, name)(*args, **kwargs)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"``numpy.random.{name}`` on the global RandomState (npgpu's Philox4x32-10)."
    return f


_NAMES = ("rand", "randn", "randint", "random_integers", "random_sample", "random", "choice",
          "permutation", "shuffle", "standard_normal", "standard_exponential", "standard_gamma",
          "multivariate_normal") + _DISTRIBUTIONS
FUNCTIONS = {name: _module_function(name) for name in _NAMES}
FUNCTIONS["ranf"] = _module_function("random_sample")
FUNCTIONS["ranf"].__name__ = "ranf"
FUNCTIONS["sample"] = _module_function("random_sample")
FUNCTIONS["sample"].__name__ = "sample"
