"""Overlapping kernels on several CUDA streams, ordered and timed with events.

A Mandelbrot image is computed strip by strip with an ``ElementwiseKernel`` (an escape-time
loop per pixel).  A strip is only a few hundred blocks, far from filling the GPU, and each of
its threads runs a long dependent loop: launched one after another on one stream the strips
leave most of the GPU idle; spread over several streams they run side by side.  Events order
the work (every stream waits for the start event; the main stream waits for each strip's
"done" event before summing the image) and time it, so the speed-up printed is the overlap.
On the simulator every launch runs to completion in order: the results are checked there, the
overlap timing needs a GPU.

    python examples/streams_overlap.py            # 1024^2 pixels on a GPU, 32^2 on the simulator
    python examples/streams_overlap.py --size 2048
"""
import numpy as np
from timing_and_checks import ON_GPU, check_true, done, host, note, size_from_args, skipped, step

import npgpu        # after timing_and_checks, which quiets the simulator's warning
from npgpu.cuda import Event, Stream, get_elapsed_time

MAX_ITER = 2000 if ON_GPU else 60
N_STREAMS = 16 if ON_GPU else 4

escape_time = npgpu.ElementwiseKernel(
    "float64 cr, float64 ci, int64 max_iter", "int32 count",
    """
    zr = 0.0
    zi = 0.0
    it = 0
    while it < max_iter and zr * zr + zi * zi <= 4.0:
        zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
        it += 1
    count = it
    """,
    "escape_time")


def escape_time_numpy(cr, ci, max_iter):
    """The same iteration with NumPy, updating only the points that have not escaped yet."""
    c = (cr + 1j * ci).ravel()
    z = np.zeros_like(c)
    count = np.zeros(c.shape, np.int32)
    live = np.arange(c.size)
    for _ in range(max_iter):
        zl = z[live]
        zr, zi = zl.real, zl.imag
        inside = zr * zr + zi * zi <= 4.0
        live, zr, zi = live[inside], zr[inside], zi[inside]
        if not live.size:
            break
        cl = c[live]
        z[live] = (zr * zr - zi * zi + cl.real) + 1j * (2.0 * zr * zi + cl.imag)
        count[live] += 1
    return count.reshape(np.broadcast_shapes(cr.shape, ci.shape))


def render(image, xs, ys, strips, streams, main):
    """Compute ``image`` strip by strip, strip ``i`` on ``streams[i % len(streams)]``; returns
    the milliseconds between the start and stop events and the image's total count."""
    start, stop = Event(), Event()
    start.record(main)
    bounds = np.linspace(0, image.shape[0], strips + 1).astype(int)
    done_events = []
    for s in streams:
        s.wait_event(start)                 # nothing starts before the start event
    for i in range(strips):
        s = streams[i % len(streams)]
        lo, hi = bounds[i], bounds[i + 1]
        with s:                             # launches go on the current stream
            escape_time(xs, ys[lo:hi], MAX_ITER, image[lo:hi])
    for s in streams:
        done_events.append(s.record())
    for ev in done_events:
        main.wait_event(ev)                 # the sum below reads every strip
    with main:
        total = image.sum()
    stop.record(main)
    return get_elapsed_time(start, stop), total


def main():
    n = size_from_args(__doc__, gpu_size=1024, sim_size=32, what="image side (pixels)")
    strips = max(1, min(64, n // 4))
    xs_h = np.linspace(-2.2, 0.8, n)
    ys_h = np.linspace(-1.5, 1.5, n)[:, None]
    xs, ys = npgpu.asarray(xs_h), npgpu.asarray(ys_h)      # copied on the default stream
    note(f"{strips} strips of {n // strips} rows, at most {MAX_ITER} iterations a pixel, "
         f"{N_STREAMS} streams")

    # non-blocking streams: nothing orders them with the default stream or each other but events
    main_stream = Stream(non_blocking=True)
    streams = [Stream(non_blocking=True) for _ in range(N_STREAMS)]
    main_stream.wait_event(npgpu.cuda.get_current_stream().record())     # after the copies
    with main_stream:
        one = npgpu.zeros((n, n), np.int32)
        many = npgpu.zeros((n, n), np.int32)
    rows = slice(None) if not ON_GPU else slice(None, None, 16)   # NumPy: every 16th row on a GPU
    (t_one, total_one), ref = step(
        "escape times, one stream" + (" (NumPy: 1/16 rows)" if ON_GPU else ""),
        lambda: render(one, xs, ys, strips, [main_stream], main_stream),
        lambda: escape_time_numpy(xs_h, ys_h[rows], MAX_ITER))
    (t_many, total_many), _ = step(f"escape times, {N_STREAMS} streams",
                                   lambda: render(many, xs, ys, strips, streams, main_stream))
    main_stream.synchronize()
    for name, img, total in (("one stream", one, total_one),
                             (f"{N_STREAMS} streams", many, total_many)):
        got = host(img)
        # the same float64 operations in the same order (npgpu compiles without FMA): equal
        # counts, though a chaotic orbit may flip on a last-bit difference now and then
        bad = int((got[rows] != ref).sum())
        check_true(f"{name}: escape times vs NumPy", bad <= max(1, ref.size // 1000),
                   f"{ref.size - bad} of {ref.size} pixels equal")
        check_true(f"{name}: sum on the main stream", int(host(total)) == int(got.sum()),
                   "ordered after every strip by events")
    check_true("both renderings equal", bool((host(one) == host(many)).all()), "bit for bit")
    if ON_GPU:
        note(f"one stream:   {t_one:8.3f} ms (event timing)")
        # printed, not asserted: at small sizes launches, not kernels, take the time
        note(f"{N_STREAMS} streams:   {t_many:8.3f} ms  -> overlap speed-up {t_one / t_many:.1f}x")
    else:
        skipped("overlap timing (one stream vs several)")
    done()


if __name__ == "__main__":
    main()
