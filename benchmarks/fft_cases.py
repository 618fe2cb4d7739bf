"""Section "fft" of benchmarks/run.py: issue 16's cases, npgpu.fft against cupy.fft and
torch.fft (and numpy.fft where it finishes in seconds).

Targets (issue 16, H200): each >= 0.97x the faster GPU peer, timed after a warm-up call (plan
creation excluded): complex64 1-D 2^24; batched (2^12, 2^12) along the last axis; rfft of 2^26
float32; fft2 of (8192, 8192) complex64; fftn of 512^3 complex64; and per call, a 16-point
transform (a repeated call is a plan-cache lookup).  Bytes counted: the input read and the
output written once (an FFT's floor; cuFFT's large sizes take more than one pass).
"""
import numpy as np

GPU_ONLY = ("npgpu", "cupy", "torch")     # numpy.fft takes tens of seconds on these sizes


def _complex(api, shape, tag):
    """Random complex64 host data of ``shape`` (two random float32 per element)."""
    shape = tuple(np.atleast_1d(shape))
    return lambda: api.H.rand(shape + (2,), np.float32, tag).view(np.complex64)[..., 0]


def _case(api, label, host, f_np, f_torch, nbytes, kind="bw", libs=None):
    c = api.case(label, [host], f_np, f_torch, nbytes=nbytes, kind=kind)
    if libs is not None:
        c.libs = libs
    return c


def cases(cfg, api):
    smoke = cfg["smoke"]
    n1 = 2 ** 8 if smoke else 2 ** 24               # complex64 1-D
    b = 2 ** 5 if smoke else 2 ** 12                 # batched (b, b), last axis
    nr = 2 ** 8 if smoke else 2 ** 26                # rfft float32
    s2 = 2 ** 5 if smoke else 2 ** 13                # fft2 (s2, s2)
    s3 = 2 ** 3 if smoke else 2 ** 9                 # fftn s3^3
    p2 = api.p2
    f32 = np.float32
    return [
        _case(api, f"fft c64 {p2(n1)}", _complex(api, n1, "a"),
              lambda xp, x: xp.fft.fft(x), lambda t, x: t.fft.fft(x), 16 * n1),
        _case(api, f"fft c64 ({p2(b)},{p2(b)}) last axis", _complex(api, (b, b), "b"),
              lambda xp, x: xp.fft.fft(x, axis=-1), lambda t, x: t.fft.fft(x, dim=-1),
              16 * b * b),
        _case(api, f"rfft f32 {p2(nr)}", lambda: api.H.rand(nr, f32, "r"),
              lambda xp, x: xp.fft.rfft(x), lambda t, x: t.fft.rfft(x),
              4 * nr + 8 * (nr // 2 + 1), libs=None if smoke else GPU_ONLY),
        _case(api, f"fft2 c64 ({p2(s2)},{p2(s2)})", _complex(api, (s2, s2), "c"),
              lambda xp, x: xp.fft.fft2(x), lambda t, x: t.fft.fft2(x), 16 * s2 * s2,
              libs=None if smoke else GPU_ONLY),
        _case(api, f"fftn c64 {s3}^3", _complex(api, (s3, s3, s3), "d"),
              lambda xp, x: xp.fft.fftn(x), lambda t, x: t.fft.fftn(x), 16 * s3 ** 3,
              libs=None if smoke else GPU_ONLY),
        _case(api, "fft c64 16 (per call)", _complex(api, 16, "e"),
              lambda xp, x: xp.fft.fft(x), lambda t, x: t.fft.fft(x), None, kind="call"),
        _case(api, f"ifft c64 ({p2(b)},{p2(b)}) axis 0, ortho", _complex(api, (b, b), "f"),
              lambda xp, x: xp.fft.ifft(x, axis=0, norm="ortho"),
              lambda t, x: t.fft.ifft(x, dim=0, norm="ortho"), 16 * b * b),
    ]
