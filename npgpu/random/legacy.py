"""The legacy API: ``RandomState`` and the ``numpy.random`` module functions.

Same kernels as :class:`~.generator.Generator` (a RandomState wraps one), seeded through
``SeedSequence``; NumPy's legacy MT19937 streams are not reproduced.  ``get_state`` /
``set_state`` exchange the Philox4x32 state dict.
"""
import inspect
import operator

import numpy as np

from .._core.ndarray import ndarray
from .bit_generator import BitGenerator, Philox
from .generator import Generator

_DISTRIBUTIONS = (
    "beta", "binomial", "chisquare", "exponential", "f", "gamma", "geometric", "gumbel",
    "hypergeometric", "laplace", "logistic", "lognormal", "logseries", "negative_binomial",
    "noncentral_chisquare", "noncentral_f", "normal", "pareto", "poisson", "power", "rayleigh",
    "standard_cauchy", "standard_t", "triangular", "uniform", "vonmises", "wald", "weibull",
    "zipf", "bytes")


def _legacy_seed(seed):
    """NumPy's checks of a RandomState seed (``_legacy_seeding``): None, an int in
    [0, 2**32), or a non-empty 1-d sequence of such ints; the seed then keys Philox through
    ``SeedSequence`` as before."""
    if seed is None:
        return None
    if isinstance(seed, ndarray):
        seed = seed.get()                       # a seed is host state: read it once
    try:
        if hasattr(seed, "squeeze"):
            seed = seed.squeeze()
        idx = operator.index(seed)
        if idx > 2 ** 32 - 1 or idx < 0:
            raise ValueError("Seed must be between 0 and 2**32 - 1")
        return idx
    except TypeError:
        obj = np.asarray(seed)
        if obj.size == 0:
            raise ValueError("Seed must be non-empty") from None
        obj = obj.astype(np.int64, casting="safe")
        if obj.ndim != 1:
            raise ValueError("Seed array must be 1-d") from None
        if ((obj > 2 ** 32 - 1) | (obj < 0)).any():
            raise ValueError("Seed must be between 0 and 2**32 - 1") from None
        return seed


class RandomState:
    """NumPy's ``RandomState`` interface over Philox4x32-10 (``seed``: None, an int or a
    sequence of ints)."""

    def __init__(self, seed=None):
        if isinstance(seed, type) and issubclass(seed, BitGenerator):
            raise ValueError("Invalid bit generator. The bit generator must be instantized.")
        if isinstance(seed, BitGenerator):
            self._gen = Generator(seed)
        else:
            self._gen = Generator(Philox(_legacy_seed(seed)))

    def seed(self, seed=None):
        """Re-seed in place, as NumPy's legacy seeding: the same bit generator object (the
        one ``get_bit_generator`` / ``default_rng(rs)`` gave) takes the new seed's state."""
        fresh = Philox(_legacy_seed(seed))
        bg = self._gen.bit_generator
        if type(bg) is not Philox:
            self._gen = Generator(fresh)
            return
        bg.state = fresh.state
        bg._seed_seq = fresh._seed_seq

    @property
    def _bit_generator(self):
        # NumPy's attribute name (its tests and default_rng read it)
        return self._gen.bit_generator

    def get_state(self, legacy=True):
        return self._gen.bit_generator.state

    def set_state(self, state):
        """NumPy's checks; a legacy MT19937 tuple has no Philox4x32 meaning (ValueError)."""
        if isinstance(state, dict):
            if "bit_generator" not in state or "state" not in state:
                raise ValueError("state dictionary is not valid.")
        elif not isinstance(state, (tuple, list)):
            raise TypeError("state must be a dict or a tuple.")
        else:
            raise ValueError("set_state can only be used with legacy MT19937 state instances."
                             if state[0] != "MT19937" else
                             "state must be for a Philox4x32 PRNG (npgpu does not run MT19937)")
        self._gen.bit_generator.state = state

    # -- uniform floats ----------------------------------------------------------------
    def random_sample(self, size=None):
        return self._gen.random(size)

    random = random_sample

    def rand(self, *args):
        return self._gen.random(tuple(operator.index(a) for a in args) if args else None)

    def randn(self, *args):
        return self._gen.standard_normal(tuple(operator.index(a) for a in args)
                                         if args else None)

    def standard_normal(self, size=None):
        return self._gen.standard_normal(size)

    def standard_exponential(self, size=None):
        return self._gen.standard_exponential(size)

    def standard_gamma(self, shape, size=None):
        return self._gen.standard_gamma(shape, size)

    # -- integers ----------------------------------------------------------------------
    def randint(self, low, high=None, size=None, dtype=int):
        dt = np.dtype(dtype)
        if not dt.isnative:
            # NumPy's legacy API warns and draws the native dtype (Generator raises)
            import warnings
            from .._backend import _user_stacklevel
            warnings.warn("Providing a dtype with a non-native byteorder is not supported. If "
                          "you require platform-independent byteorder, call byteswap when "
                          "required.\nIn future version, providing byteorder will raise a "
                          "ValueError", DeprecationWarning, stacklevel=_user_stacklevel())
            dt = dt.newbyteorder()
        if dt.kind not in "biu":
            raise TypeError(f"Unsupported dtype {dt!r} for randint")
        if high is None:
            low, high = 0, low
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
        # as NumPy: randint(low, int(high) + 1) (the same draws as integers(..., endpoint=True))
        return self.randint(low, int(high) + 1, size=size, dtype=np.int64)

    def tomaxint(self, size=None):
        return self._gen.integers(0, np.iinfo(np.int64).max, size=size, endpoint=True)

    # -- sequences ---------------------------------------------------------------------
    def choice(self, a, size=None, replace=True, p=None):
        from . import permutations as _s
        return _s.choice(self._gen, a, size, replace, p, legacy=True)

    def permutation(self, x):
        from . import permutations as _s
        return _s.permutation(self._gen.bit_generator, x, legacy=True)

    def shuffle(self, x):
        self._gen.shuffle(x)

    def multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8):
        return self._gen.multivariate_normal(mean, cov, size, check_valid, tol)

    # -- distributions whose legacy checks differ from Generator's ---------------------
    def uniform(self, low=0.0, high=1.0, size=None):
        return self._gen._dist("uniform", (low, high), size, legacy=True)

    def hypergeometric(self, ngood, nbad, nsample, size=None):
        return self._gen._dist("hypergeometric", (ngood, nbad, nsample), size, legacy=True)

    def negative_binomial(self, n, p, size=None):
        return self._gen._dist("negative_binomial", (n, p), size, legacy=True)

    def dirichlet(self, alpha, size=None):
        return self._gen.dirichlet(alpha, size, _legacy=True)

    def multinomial(self, n, pvals, size=None):
        try:
            n = operator.index(n)
        except TypeError:
            if not isinstance(n, (float, np.floating)):
                raise TypeError("an integer is required") from None
            n = int(n)
        # NumPy's legacy pvals: one dimension only (no broadcasting), empty allowed
        p = pvals.get() if isinstance(pvals, ndarray) else pvals
        if np.ndim(p) == 0:
            raise TypeError("pvals must be a 1-d sequence")
        if np.ndim(p) > 1:
            raise ValueError("object too deep for desired array" if isinstance(p, np.ndarray)
                             else "setting an array element with a sequence. The requested "
                             "array would exceed the maximum number of dimension of 1.")
        if np.size(p) == 0:
            if n < 0:
                raise ValueError("n < 0")
            import npgpu
            shape = () if size is None else np.empty(size, np.int8).shape
            return npgpu.zeros(shape + (0,), np.int64)
        return self._gen.multinomial(n, pvals, size)

    def __repr__(self):
        return f"RandomState(Philox4x32) at 0x{id(self):X}"

    def __str__(self):
        return "RandomState(Philox4x32)"


def _delegate(name):
    def method(self, *args, **kwargs):
        return getattr(self._gen, name)(*args, **kwargs)
    method.__name__ = method.__qualname__ = name
    method.__doc__ = getattr(Generator, name).__doc__
    # help() and inspect show NumPy's parameters (the Generator method's, same names)
    method.__signature__ = inspect.signature(getattr(Generator, name))
    return method


for _name in _DISTRIBUTIONS:
    if _name not in RandomState.__dict__:
        setattr(RandomState, _name, _delegate(_name))

_rand = RandomState()


def seed(seed=None):
    """Re-seed the global RandomState (through ``SeedSequence``)."""
    _rand.seed(seed)


def get_state(legacy=True):
    return _rand.get_state(legacy)


def set_state(state):
    _rand.set_state(state)


def get_bit_generator():
    """The bit generator of the global RandomState."""
    return _rand._gen.bit_generator


def set_bit_generator(bitgen):
    """Draw the module functions from ``bitgen`` (an npgpu bit generator instance)."""
    if isinstance(bitgen, type) and issubclass(bitgen, BitGenerator):
        raise ValueError("Invalid bit generator. The bit generator must be instantized.")
    _rand._gen = Generator(bitgen)


def _module_function(name):
    def f(*args, **kwargs):
        return getattr(_rand, name)(*args, **kwargs)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"``numpy.random.{name}`` on the global RandomState (npgpu's Philox4x32-10)."
    return f


_NAMES = ("rand", "randn", "randint", "random_integers", "random_sample", "random", "choice",
          "permutation", "shuffle", "standard_normal", "standard_exponential", "standard_gamma",
          "multivariate_normal", "dirichlet", "multinomial") + _DISTRIBUTIONS
FUNCTIONS = {name: _module_function(name) for name in _NAMES}
FUNCTIONS["ranf"] = _module_function("random_sample")
FUNCTIONS["ranf"].__name__ = "ranf"
FUNCTIONS["sample"] = _module_function("random_sample")
FUNCTIONS["sample"].__name__ = "sample"
