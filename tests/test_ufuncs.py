"""Every ufunc x every loop signature npgpu supports, compared with NumPy on random data.

Each (ufunc, signature) runs once, on one memory layout picked round-robin (contiguous,
transposed, strided, negative stride, broadcast, 0-d, empty), so every layout is used by
every kind of loop; test_layouts runs a few ufuncs on every layout.
"""
import warnings

import numpy as np
import pytest

import npgpu
from conftest import LAYOUTS, make_layout, raises_like
from ufunc_cases import NAMES, cases, check, inputs, signatures

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

_CASES = [(n, t, LAYOUTS[i % len(LAYOUTS)]) for i, (n, t) in enumerate(cases())]


def _run(name, sig, layout, rng, shape=(4, 6)):
    hosts = inputs(name, sig, shape, rng)
    devs, refs = [], []
    for h in hosts:
        d, r = make_layout(h, layout)
        devs.append(d)
        refs.append(r)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        expected = getattr(np, name)(*refs)
    got = getattr(npgpu, name)(*devs)
    check(name, got, expected)


@pytest.mark.matrix
@pytest.mark.parametrize("name,sig,layout", _CASES,
                         ids=[f"{n}-{t.replace('->', '_')}-{lay}" for n, t, lay in _CASES])
def test_loop(name, sig, layout, rng):
    _run(name, sig, layout, rng)


_LAYOUT_UFUNCS = [("add", "ff->f"), ("subtract", "bb->b"), ("sin", "d->d"), ("divmod", "qq->qq"),
                  ("maximum", "DD->D"), ("less", "qQ->?"), ("frexp", "e->ei"), ("exp", "F->F")]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name,sig", _LAYOUT_UFUNCS,
                         ids=[f"{n}-{t.replace('->', '_')}" for n, t in _LAYOUT_UFUNCS])
def test_layouts(name, sig, layout, rng):
    _run(name, sig, layout, rng, shape=(3, 5))


def test_every_numpy_elementwise_ufunc_exists():
    skip = {"matmul", "vecdot", "matvec", "vecmat", "isnat"}   # gufuncs / datetime-only
    for n in dir(np):
        u = getattr(np, n)
        if isinstance(u, np.ufunc) and n not in skip:
            assert isinstance(getattr(npgpu, n), npgpu.ufunc), n
            assert getattr(npgpu, n).__name__ == u.__name__


@pytest.mark.parametrize("name", NAMES)
def test_attributes(name):
    u, ref = getattr(npgpu, name), getattr(np, name)
    assert (u.__name__, u.nin, u.nout, u.nargs) == (ref.__name__, ref.nin, ref.nout, ref.nargs)
    assert u.identity == ref.identity
    assert u.ntypes == len(u.types) and set(u.types) <= set(ref.types)
    assert signatures(name)
    assert repr(u) == f"<ufunc '{ref.__name__}'>"


@pytest.mark.parametrize("case", range(9))
def test_broadcast_errors_name_every_operand(case):
    """NumPy's messages for operands that do not broadcast: every input (scalars as ``()``),
    then the ``out=`` arrays, then ``where``; and the output that is too small."""
    calls = [
        lambda m: m.zeros(8) + m.zeros(2),
        lambda m: m.add(m.zeros(8), m.zeros(2), out=m.zeros(3)),
        lambda m: m.add(m.zeros(2), 1, out=m.zeros(3)),
        lambda m: m.add(m.zeros((2, 1)), m.zeros(3), out=m.zeros(3)),
        lambda m: m.multiply(m.zeros((2, 3)), m.zeros((4, 1, 2))),
        lambda m: m.add(m.zeros(2), m.zeros(2), out=m.zeros(3), where=m.ones(2, bool)),
        lambda m: m.add(m.zeros(2), m.zeros(2), where=m.ones(3, bool)),
        lambda m: m.add(m.zeros(2), 1, where=m.ones(3, bool), out=m.zeros(2)),
        lambda m: m.divmod(m.zeros(2), m.zeros(3)),
    ]
    raises_like(lambda: calls[case](np), lambda: calls[case](npgpu))
