"""Small data-manipulation and indexing workloads, each run twice (NumPy, then npgpu, the module
passed in) and compared: values (floats within a dtype's tolerance, NaN positions equal), dtypes
and shapes, or the exception class and message."""
import warnings

import numpy
import pytest

import npgpu
from conftest import tolerance
from workload_harness import to_host


def compare(got, want, path="result"):
    if isinstance(want, dict):
        assert isinstance(got, dict) and got.keys() == want.keys(), path
        for k in want:
            compare(got[k], want[k], f"{path}[{k!r}]")
        return
    if isinstance(want, (tuple, list)):
        if hasattr(want, "_fields"):   # npgpu's own result namedtuples: same name and fields
            assert (type(got).__name__, got._fields) == (type(want).__name__, want._fields), path
        else:
            assert type(got) is type(want), (path, type(got), type(want))
        assert len(got) == len(want), path
        for i, (g, w) in enumerate(zip(got, want)):
            compare(g, w, f"{path}[{i}]")
        return
    if isinstance(want, (numpy.ndarray, numpy.generic)):
        # npgpu returns 0-d arrays where NumPy returns scalars (docs/differences.md)
        g = numpy.asarray(got)
        w = numpy.asarray(want)
        assert g.dtype == w.dtype, (path, g.dtype, w.dtype)
        assert g.shape == w.shape, (path, g.shape, w.shape)
        r, a = tolerance(w.dtype)
        if w.dtype.kind in "fc":
            numpy.testing.assert_allclose(g, w, rtol=r, atol=a, equal_nan=True, err_msg=path)
        else:
            numpy.testing.assert_array_equal(g, w, err_msg=path)
        return
    assert type(got) is type(want) and got == want, (path, got, want)


def run_both(prog, *args):
    want = prog(numpy, *args)
    got = to_host(prog(npgpu, *args))
    compare(got, want)


def err(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the class and message are what is compared
        return type(e), str(e)
    return None


def rng():
    return numpy.random.default_rng(20270101)


# 1 --------------------------------------------------------------------------------------------
def groupby(xp):
    g = rng()
    keys = xp.asarray(g.integers(0, 7, 40)[::-1])           # negative stride
    vals = xp.asarray(g.standard_normal(80).astype(numpy.float32)[::2])
    u, inv, cnt = xp.unique(keys, return_inverse=True, return_counts=True)
    sums = xp.bincount(inv, weights=vals)
    means = sums / cnt
    counts7 = xp.bincount(keys, minlength=9)
    order = xp.argsort(keys, kind="stable")
    sk, sv = keys[order], vals[order]
    starts = xp.flatnonzero(xp.diff(sk, prepend=sk[:1] - 1))
    red = xp.add.reduceat(sv, starts)
    mx = xp.maximum.reduceat(sv, starts)
    parts = xp.split(sv, starts[1:])
    lens = [int(p.shape[0]) for p in parts]
    res = xp.unique_all(keys)
    return dict(u=u, inv=inv, cnt=cnt, sums=sums, means=means, c7=counts7, red=red, mx=mx,
                lens=lens, first=res.indices, ua_inv=res.inverse_indices, ua_cnt=res.counts,
                u2=xp.unique(xp.asarray(g.integers(0, 4, (3, 5))), axis=0, return_counts=True))


# 2 --------------------------------------------------------------------------------------------
def join(xp):
    g = rng()
    left = xp.asarray(g.choice(60, 25, replace=False))
    right = xp.asarray(g.integers(0, 60, 30)[::-1].copy())
    srt = xp.argsort(right, kind="stable")
    lo = xp.searchsorted(right, left, side="left", sorter=srt)
    hi = xp.searchsorted(right, left, side="right", sorter=srt)
    n_match = hi - lo
    has = xp.isin(left, right)
    notin = xp.isin(left, right, invert=True)
    common, il, ir = xp.intersect1d(left, right, return_indices=True)
    only_left = xp.setdiff1d(left, right)
    sym = xp.setxor1d(left, right)
    un = xp.union1d(left[::3], right[::2])
    sorted_r = xp.sort(right)
    pos = xp.searchsorted(sorted_r, xp.asarray(numpy.array([-1, 0, 30, 59, 60])))
    fl = xp.asarray(g.standard_normal(20))
    fl[3] = numpy.nan
    fpos = xp.searchsorted(xp.sort(fl), xp.asarray(numpy.array([numpy.nan, 0.0, -numpy.inf])))
    return dict(lo=lo, hi=hi, n=n_match, has=has, notin=notin, common=common, il=il, ir=ir,
                only=only_left, sym=sym, un=un, pos=pos, fpos=fpos,
                scalar=xp.searchsorted(sorted_r, 17), e=xp.isin(left[:0], right))


# 3 --------------------------------------------------------------------------------------------
def records(xp):
    g = rng()
    a = xp.asarray(g.integers(0, 3, 30))
    b = xp.asarray(g.integers(0, 4, 30).astype(numpy.int16))
    c = xp.asarray(g.standard_normal(30).round(1))
    order = xp.lexsort((c, b, a))
    order2 = xp.lexsort(xp.stack([b, a]))
    st = xp.argsort(a, kind="stable")
    desc = xp.sort(c)[::-1]
    m = xp.asarray(g.integers(0, 50, (4, 9)))
    k = 3
    part = xp.argpartition(m, -k, axis=1)[:, -k:]
    top = xp.take_along_axis(m, part, axis=1)
    top_sorted = xp.sort(top, axis=1)[:, ::-1]
    col_order = xp.argsort(m.T, axis=0, kind="stable")
    return dict(order=order, order2=order2, st=st, desc=desc, top=top_sorted,
                kth=xp.partition(m, 4, axis=1)[:, 4], col=col_order,
                sorted_rows=a[order], bsort=xp.sort(b[::-2]),
                empty=xp.argsort(xp.asarray(numpy.zeros((3, 0)))))


# 4 --------------------------------------------------------------------------------------------
def scatter(xp):
    g = rng()
    acc = xp.zeros(8, dtype=xp.float64)
    idx = xp.asarray(g.integers(0, 8, 25))
    w = xp.asarray(g.standard_normal(25))
    xp.add.at(acc, idx, w)
    mx = xp.full(8, -numpy.inf)
    xp.maximum.at(mx, idx, w)
    cnt = xp.zeros(8, dtype=xp.int32)
    xp.add.at(cnt, idx, 1)
    m2 = xp.zeros((3, 4), dtype=xp.int64)
    xp.add.at(m2, (xp.asarray([0, 2, 0]), slice(None)), xp.asarray([1, 2, 3, 4]))
    neg = xp.asarray(numpy.arange(6.0))
    xp.negative.at(neg, [1, 1, 4])
    a = xp.asarray(g.integers(0, 100, 10))
    xp.put(a, [0, -1, 3], [7, 8])
    b = xp.asarray(g.standard_normal((3, 4)))
    xp.putmask(b, b > 0, xp.asarray([1.0, 2.0, 3.0]))
    c = xp.asarray(g.integers(-5, 5, 12))
    xp.place(c, c < 0, [100, 200])
    d = xp.asarray(g.integers(0, 9, (4, 3)))
    d[d > 4] = 0
    d[d[:, 0] > 2] = xp.asarray([9, 8, 7])
    e = xp.asarray(numpy.arange(10))
    e[[1, 3, 5]] = 1.9   # float into int: truncated
    f = xp.asarray(numpy.arange(12.0).reshape(3, 4)).T   # non-contiguous target
    f[[0, 2], 1:] = xp.asarray([[-1.0], [-2.0]])
    return dict(acc=acc, mx=mx, cnt=cnt, m2=m2, neg=neg, a=a, b=b, c=c, d=d, e=e, f=f)


def test_setitem_repeated_last_wins():
    # npgpu's documented rule (docs/architecture.md): the last write of a repeated index wins
    h = numpy.arange(6)
    d = npgpu.asarray(h)
    d[npgpu.asarray([1, 1, 4, 1])] = npgpu.asarray([10, 20, 30, 40])
    h[[1, 1, 4, 1]] = [10, 20, 30, 40]   # NumPy's host loop also keeps the last
    numpy.testing.assert_array_equal(d.get(), h)


# 5 --------------------------------------------------------------------------------------------
def windows(xp):
    g = rng()
    x = xp.asarray(g.standard_normal(30))
    wlen = 4
    cs = xp.cumsum(x)
    cs = xp.concatenate([xp.zeros(1), cs])
    roll = (cs[wlen:] - cs[:-wlen]) / wlen
    kern = xp.ones(wlen) / wlen
    conv = {m: xp.convolve(x, kern, mode=m) for m in ("full", "same", "valid")}
    ix = xp.asarray(g.integers(-9, 9, 12))
    d1 = xp.diff(ix, prepend=0, append=xp.asarray([5, 6]))
    d2 = xp.diff(xp.asarray(g.integers(0, 9, (3, 5))), n=2, axis=0)
    ed = xp.ediff1d(ix[::-1], to_begin=[-99], to_end=100)
    rep = xp.repeat(xp.asarray([3, 1, 4]), xp.asarray([2, 0, 3]))
    rep2 = xp.repeat(xp.asarray(numpy.arange(6).reshape(2, 3)), [1, 2], axis=0)
    tl = xp.tile(xp.asarray([1, 2]), (2, 3))
    a, b = xp.asarray(numpy.arange(4)), xp.asarray(numpy.arange(4, 8))
    stacks = [xp.stack([a, b], axis=1), xp.hstack([a, b]), xp.vstack([a, b]),
              xp.column_stack([a, b]), xp.dstack([a, b]), xp.concatenate([a, b[::-1]]),
              xp.concatenate([a[:, None], b[:, None]], axis=1), xp.concatenate([a, b], axis=None),
              xp.stack([a, b], axis=-1), xp.concatenate([a, b.astype(xp.float32)])]
    sp = xp.array_split(x[:10], 3)
    sp2 = xp.split(xp.asarray(numpy.arange(12).reshape(3, 4)), [1, 3], axis=1)
    sp3 = xp.array_split(xp.asarray(numpy.arange(7)), 10)
    sp4 = xp.hsplit(xp.asarray(numpy.arange(8)), [3, 20])
    e = xp.zeros((3, 0))
    return dict(roll=roll, conv=conv, d1=d1, d2=d2, ed=ed, rep=rep, rep2=rep2, tl=tl,
                stacks=stacks, sp=sp, sp2=sp2, sp3=sp3, sp4=sp4,
                econc=xp.concatenate([e, e], axis=1), estack=xp.stack([e, e]),
                ediff=xp.diff(e, axis=1), cumint=xp.cumsum(ix.astype(xp.int8)))


# 6 --------------------------------------------------------------------------------------------
def reshaping(xp):
    g = rng()
    a = xp.asarray(g.integers(0, 100, 24))
    r = a.reshape(2, -1, 3)
    f = a.reshape((4, 6), order="F")
    rf = f.ravel("F")
    t = r.transpose(2, 0, 1)
    mv = xp.moveaxis(r, 0, -1)
    sw = xp.swapaxes(r, 0, 2)
    ed = xp.expand_dims(a[:6], (0, 2))
    sq = xp.squeeze(ed, axis=0)
    bc = xp.broadcast_to(a[:3], (2, 3)).copy()
    bc[0, 0] = -1
    i, j = xp.ix_(xp.asarray([0, 2]), xp.asarray([1, 3, 5]))
    sub = f[i, j]
    mij = xp.meshgrid(xp.arange(3), xp.arange(2.0), indexing="ij")
    mxy = xp.meshgrid(xp.arange(3), xp.arange(2.0), xp.arange(2), indexing="xy")
    msp = xp.meshgrid(xp.arange(3), xp.arange(4), sparse=True)
    ind = xp.indices((2, 3))
    inds = xp.indices((2, 3), sparse=True)
    mg = xp.mgrid[0:3, 0:4:2]
    mgc = xp.mgrid[0:1:5j]
    og = xp.ogrid[0:3, 0:2]
    tr = f.T.reshape(-1)        # non-contiguous reshape copies
    rr = t.reshape(3, 4, 2)
    return dict(r=r, f=f, rf=rf, t=t.copy(), mv=mv, sw=sw, ed=ed, sq=sq, bc=bc, sub=sub,
                mij=mij, mxy=mxy, msp=msp, ind=ind, inds=inds, mg=mg, mgc=mgc, og=og, tr=tr,
                rr=rr, ravelk=xp.ravel(t, order="K"), rA=xp.ravel(f, order="A"),
                fl=f.flatten("F"), z=err(lambda: xp.reshape(xp.zeros((3, 0)), (0, -1))),
                z2=xp.reshape(xp.zeros((3, 0)), (-1, 6)).shape,
                at2=xp.atleast_2d(a[0]).shape, rs=xp.resize(a[:5], (3, 4)))


# 7 --------------------------------------------------------------------------------------------
def cleaning(xp):
    g = rng()
    h = g.standard_normal((5, 6)) * 10
    h[0, 1] = numpy.nan
    h[2, 3] = numpy.inf
    h[4, 0] = -numpy.inf
    x = xp.asarray(h)
    nn = xp.nan_to_num(x)
    nn2 = xp.nan_to_num(x, nan=-1.0, posinf=99.0, neginf=-99.0)
    fin = xp.isfinite(x)
    isn = xp.isnan(x)
    w = xp.where(x > 0, x, 0)
    w2 = xp.where(isn, 1, 2)
    w3 = xp.where(x.T < 1, 0.5, x.T)
    sel = xp.select([x < -5, x > 5], [x * 2, -x], default=xp.nan)
    sel2 = xp.select([isn], [0], default=7)
    lo = xp.asarray(g.standard_normal(6) - 3)
    cl = xp.clip(x, lo, 3.0)
    cl2 = xp.clip(xp.asarray(g.integers(-20, 20, 10)), -5, 5)
    rd = xp.round(x, 2)
    rdn = xp.round(xp.asarray(numpy.array([125, -135, 1449])), -1)
    rf = xp.round(x.astype(xp.float32), -1)
    tz = xp.trim_zeros(xp.asarray(numpy.array([0, 0, 3, 0, 4, 0])))
    tzf = xp.trim_zeros(xp.asarray(numpy.array([0.0, 1.0, 0.0])), trim="f")
    hu = numpy.array([1.0, numpy.nan, 2.0, numpy.nan, 1.0])
    ue = xp.unique(xp.asarray(hu))
    ue2 = xp.unique(xp.asarray(hu), equal_nan=False)
    cnz = xp.count_nonzero(x > 0, axis=0)
    cnz2 = xp.count_nonzero(x, axis=(0, 1))
    cnzk = xp.count_nonzero(x > 0, axis=1, keepdims=True)
    return dict(nn=nn, nn2=nn2, fin=fin, isn=isn, w=w, w2=w2, w3=w3, sel=sel, sel2=sel2,
                cl=cl, cl2=cl2, rd=rd, rdn=rdn, rf=rf, tz=tz, tzf=tzf, ue=ue, ue2=ue2,
                cnz=cnz, cnz2=cnz2, cnzk=cnzk, nm=xp.nanmean(x[:, 1]),
                ns=xp.nansum(x, axis=1), nmx=xp.nanmax(x[1:4]))


# 8 --------------------------------------------------------------------------------------------
def integers(xp):
    g = rng()
    a = xp.asarray(g.integers(-20, 20, 16))
    b = xp.asarray(g.integers(-4, 4, 16))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        fd, rm = a // b, a % b
        dm = xp.divmod(a, b)
        fm = xp.fmod(a, b)
        fdf = xp.floor_divide(a.astype(xp.float64), xp.asarray([-0.0, 2.0, -3.0, 0.0] * 4))
    u8 = xp.asarray(g.integers(0, 256, 10).astype(numpy.uint8))
    wrap = u8 + xp.uint8(200)
    wrap2 = u8 * 3
    sub = u8 - xp.asarray(numpy.uint8(250))
    bits = (a & 0b1010, a | 3, a ^ b, ~a, xp.left_shift(a, 2), xp.right_shift(a, 1),
            xp.invert(u8), xp.bitwise_count(a) if hasattr(xp, "bitwise_count") else None,
            xp.left_shift(u8, xp.asarray(numpy.arange(10, dtype=numpy.uint8))))
    bools = xp.asarray(g.integers(0, 2, (3, 10)).astype(bool))
    pk = xp.packbits(bools, axis=1)
    pkl = xp.packbits(bools, axis=-1, bitorder="little")
    up = xp.unpackbits(pk, axis=1, count=10)
    up2 = xp.unpackbits(u8[:3])
    bc = xp.bincount(xp.abs(b), minlength=6)
    fx = xp.asarray(g.uniform(0, 10, 20))
    edges = xp.asarray(numpy.array([0.0, 2.5, 5.0, 7.5, 10.0]))
    dg = xp.digitize(fx, edges, right=True)
    dg2 = xp.digitize(fx, edges[::-1])
    hist, he = xp.histogram(fx, bins=4)
    hist2, _ = xp.histogram(a, bins=5, range=(-10, 10))
    fl = xp.asarray(numpy.array([1.7, -1.7, 0.0, 2.5]))
    casts = (fl.astype(xp.int32), fl.astype(bool), bools.astype(xp.float32),
             a.astype(xp.int8, casting="same_kind"), a.astype(xp.uint16), u8.astype(xp.int8))
    cast_err = err(lambda: fl.astype(xp.int32, casting="safe"))
    return dict(fd=fd, rm=rm, dm=dm, fm=fm, fdf=fdf, wrap=wrap, wrap2=wrap2, sub=sub,
                bits=bits, pk=pk, pkl=pkl, up=up, up2=up2, bc=bc, dg=dg, dg2=dg2, hist=hist,
                he=he, hist2=hist2, casts=casts, cast_err=cast_err,
                pw=xp.power(a, 2), gcd=xp.gcd(a, 12), lcm=xp.lcm(b, 6))


# 9 --------------------------------------------------------------------------------------------
def booleans(xp):
    g = rng()
    m = xp.asarray(g.random((3, 4, 5)) > 0.6)
    anys = [xp.any(m, axis=ax) for ax in (0, 1, 2, (0, 2), None)]
    alls = [xp.all(m, axis=ax) for ax in (0, -1, None)]
    land = xp.logical_and.reduce(m, axis=1)
    lor = xp.logical_or.reduce(m.T, axis=0)
    lxor = xp.logical_xor.accumulate(m[0], axis=1)
    nz = xp.nonzero(m)
    aw = xp.argwhere(m[:, ::-1])
    fnz = xp.flatnonzero(m.transpose(1, 0, 2))
    x = xp.asarray(g.standard_normal(8))
    y = x + xp.asarray(g.standard_normal(8)) * 1e-9
    xn = x.copy()
    xn[2] = numpy.nan
    return dict(anys=anys, alls=alls, land=land, lor=lor, lxor=lxor, nz=nz, aw=aw, fnz=fnz,
                ae=xp.array_equal(xn, xn.copy(), equal_nan=True), ae2=xp.array_equal(xn, xn),
                ae3=xp.array_equal(x, x[:4]), aeq=xp.array_equiv(x[:2], xp.stack([x[:2]] * 2)),
                ac=xp.allclose(x, y), ac2=xp.allclose(xn, xn, equal_nan=True),
                ic=xp.isclose(xn, y, atol=1e-6), sb=xp.sort(m[0], axis=None),
                sb2=xp.sort(m, axis=1), nz0=err(lambda: xp.nonzero(xp.asarray(numpy.array(3)))),
                aw0=xp.argwhere(xp.zeros((3, 0))), e_any=xp.any(xp.zeros((0, 2)), axis=0),
                e_all=xp.all(xp.zeros((2, 0)), axis=1), ct=xp.sum(m, axis=2))


# 10 -------------------------------------------------------------------------------------------
def mixed_indexing(xp):
    g = rng()
    x = xp.asarray(g.integers(0, 100, (3, 4, 5)))
    mask = xp.asarray(numpy.array([True, False, True, True, False]))
    idx = xp.asarray(numpy.array([2, 0, -1]))
    out = dict(
        a=x[[0, 2], 1:, [1, 0]],            # advanced indices split by a slice: axes first
        b=x[:, [0, 2], [1, 0]],             # adjacent: in place
        c=x[..., mask],
        d=x[None, idx],
        e=x[-1, -2, -3],
        f=x[xp.asarray(numpy.array(1))],   # 0-d array index
        g=x[1, xp.asarray(numpy.array(2)), 1:3],
        h=x[idx[:, None], :, idx[None, :2]],
        i=x[::-1, ::2][[0, 1]],
        j=x[x[:, 0, 0] > 30],
        k=x[:, mask[::-1][:4]],
        m=x[[True, False, True]],
        n=x[[]],
        o=x[1:2, [True, True, False, True], 2],
    )
    errs = [err(lambda: x[3]), err(lambda: x[0, 4]), err(lambda: x[[0, 5]]),
            err(lambda: x[:, [-5]]), err(lambda: x[0, 0, 0, 0]),
            err(lambda: x[mask[:4]]), err(lambda: x[[1.0]]),
            err(lambda: x[idx, [0, 1]])]
    y = x.astype(xp.float64)
    y[[0, 1], [1, 2], 0] = xp.asarray([0.5, 0.25])
    z = x.copy()
    z[0, [1, 3]] = 2.75          # float into int: allowed, truncated
    z[..., mask] = -xp.arange(3)
    z[xp.asarray(numpy.array(2))] = 5
    errs.append(err(lambda: z.__setitem__(0, 1 + 2j)))
    errs.append(err(lambda: y.__setitem__((0, 0), 1j)))
    errs.append(err(lambda: z.__setitem__((0, slice(None)), xp.arange(3))))
    return dict(out=out, errs=errs, y=y, z=z)


# 11 -------------------------------------------------------------------------------------------
def pipelines(xp):
    """Forward fill, run-length encoding, ranks, a pivot table and one-hot labels."""
    g = rng()
    h = g.standard_normal(20)
    h[g.random(20) < 0.3] = numpy.nan
    x = xp.asarray(h)
    k = xp.asarray(numpy.sort(g.integers(0, 5, 20)))
    idx = xp.where(~xp.isnan(x), xp.arange(20), 0)
    xp.maximum.accumulate(idx, out=idx)
    starts = xp.r_[0, xp.flatnonzero(k[1:] != k[:-1]) + 1]
    lengths = xp.diff(xp.r_[starts, k.shape[0]])
    order = xp.argsort(x, kind="stable")
    ranks = xp.empty_like(order)
    ranks[order] = xp.arange(20)
    r, c = xp.asarray([0, 1, 2, 0, 1, 2, 0]), xp.asarray([0, 0, 1, 1, 2, 2, 2])
    t = xp.zeros((3, 3))
    xp.add.at(t, (r, c), xp.arange(7.0))
    xp.add.at(t, xp.asarray(numpy.array([True, False, True])), 0.5)    # a device mask
    oh = xp.zeros((20, 5), dtype=bool)
    oh[xp.arange(20), k] = True
    u8 = xp.zeros(5, dtype=xp.uint8)
    xp.add.at(u8, k, 100)                      # NumPy's at wraps: the value is not weak
    return dict(ffill=x[idx], rle=(starts, lengths, k[starts]), ranks=ranks, t=t, oh=oh,
                u8=u8, back=xp.repeat(k[starts], lengths),
                piv=xp.unravel_index(xp.argmax(t), t.shape))


PROGRAMS = [groupby, join, records, scatter, windows, reshaping, cleaning, integers, booleans,
            mixed_indexing, pipelines]


@pytest.mark.parametrize("prog", PROGRAMS, ids=[p.__name__ for p in PROGRAMS])
def test_workload(prog):
    run_both(prog)
