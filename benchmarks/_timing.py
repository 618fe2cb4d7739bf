"""Timing helpers and thin per-library adapters for benchmarks/run.py.

Every library is wrapped in a small ``Lib`` object that knows how to
  * put a host NumPy array on the device (``put``),
  * wait for the device (``sync``),
  * create a pair of timing events and read the time between them,
  * give cached device memory back between cases (``free``).

Three ways of timing a zero-argument callable ``fn``:
  * ``Lib.time_events`` -- device time between two CUDA events recorded
    around each single call; warm-up calls first, then the median of the
    repetitions.  (NumPy's ``Lib`` uses ``time.perf_counter`` instead.)
    ``time_interleaved`` does the same for several libraries at once, in
    rounds that take turns, so all of them sample the same minutes.
  * ``time_per_call_interleaved`` -- for tiny, host-overhead-bound ops:
    synchronize, run ``n`` calls back to back, synchronize, divide by ``n``;
    the libraries take turns, round by round.
Both return a ``dict`` (seconds per call, number of repetitions, spread).
"""

import gc
import statistics
import time

import numpy as np


def _summary(samples):
    """Median seconds of ``samples`` plus a little context for the JSON file."""
    return {
        "time_s": statistics.median(samples),
        "min_s": min(samples),
        "max_s": max(samples),
        "reps": len(samples),
    }


def _warm_up(fn, calls, budget_s, sync):
    """Run up to ``calls`` warm-up calls (the first compiles, caches, ...);
    stop early once they have used a quarter of the time budget."""
    t0 = time.perf_counter()
    for _ in range(calls):
        fn()
        sync()
        if time.perf_counter() - t0 > budget_s / 4:
            break


class Lib:
    """Base adapter.  Subclasses fill in the device-specific parts."""

    name = "?"
    gpu = True          # False only for NumPy (host timing)
    xp = None           # NumPy-like namespace used by the benchmark cases

    # -- device hooks (overridden) ------------------------------------------
    def put(self, host):
        raise NotImplementedError

    def sync(self):
        pass

    def events(self):
        """Return (start, end) event objects with a ``record()`` method."""
        raise NotImplementedError

    def elapsed_s(self, start, end):
        raise NotImplementedError

    def free(self):
        """Drop Python garbage and, where the library caches, device memory."""
        gc.collect()

    # -- timing ---------------------------------------------------------------
    def time_events(self, fn, reps, warmup, budget_s, min_reps=5):
        """Median device time of one ``fn()`` call, bracketed by CUDA events.

        Stops early (after at least ``min_reps``) when the timed calls have
        used up ``budget_s`` seconds, so one slow case cannot stall the run.
        """
        _warm_up(fn, warmup, budget_s, self.sync)
        samples = []
        wall0 = time.perf_counter()
        while len(samples) < reps:
            samples += self.event_samples(fn, 1)
            if len(samples) >= min_reps and time.perf_counter() - wall0 > budget_s:
                break
        return _summary(samples)

    def event_samples(self, fn, n):
        """Device seconds of each of ``n`` single ``fn()`` calls, bracketed by CUDA events."""
        start, end = self.events()
        out = []
        for _ in range(n):
            start.record()
            fn()
            end.record()
            end.synchronize()
            out.append(self.elapsed_s(start, end))
        return out


def time_interleaved(entries, reps, rounds, warmup, budget_s, min_reps=5):
    """Median device time of one call for each ``name: (lib, fn)`` of ``entries``, the
    libraries' calls interleaved: ``rounds`` rounds, each timing every library's ``fn`` for
    ``reps // rounds`` calls in turn (after one untimed call).  The device's speed drifts by several % over a minute
    (clocks, memory placement); interleaving lets every library sample the same minutes, so
    the ratios between them do not carry that drift.  Stops after the round in which the
    timed calls passed ``budget_s`` per library (once every library has ``min_reps``).

    Returns ``name: summary`` (or ``{"error": ...}`` for a library whose ``fn`` raised)."""
    out, live = {}, dict(entries)
    for name, (lib, fn) in list(live.items()):
        try:
            _warm_up(fn, warmup, budget_s, lib.sync)
        except Exception as e:
            out[name] = {"error": f"{type(e).__name__}: {e}".strip()}
            del live[name]
    per = max(1, reps // rounds)
    samples = {name: [] for name in live}
    wall0 = time.perf_counter()
    for _ in range(rounds):
        for name, (lib, fn) in list(live.items()):
            try:
                # one untimed call first: the turn's first call pays for the other libraries'
                # traces in the caches (host and device), which none of them would in a loop
                fn()
                samples[name] += lib.event_samples(fn, per)
            except Exception as e:
                out[name] = {"error": f"{type(e).__name__}: {e}".strip()}
                del live[name], samples[name]
        done = all(len(s) >= min_reps for s in samples.values())
        if done and time.perf_counter() - wall0 > budget_s * max(1, len(live)):
            break
    for name, s in samples.items():
        out[name] = _summary(s)
        out[name]["rounds"] = len(s) // per
    return out


def time_per_call_interleaved(entries, n, warmup, rounds=7):
    """Host time per call for each ``name: (lib, fn)`` of ``entries``, the libraries taking
    turns: ``rounds`` rounds, each timing a batch
    of ``n`` back-to-back calls of every library in turn (synchronized before and after).  A
    tiny call's time moves by tens of % between minutes of one run (the host's clock, the
    driver's queue); taking turns lets every library sample the same minutes.

    Returns ``name: summary`` (or ``{"error": ...}`` for a library whose ``fn`` raised)."""
    out, live = {}, dict(entries)
    for name, (lib, fn) in list(live.items()):
        try:
            for _ in range(warmup):
                fn()
            lib.sync()
        except Exception as e:
            out[name] = {"error": f"{type(e).__name__}: {e}".strip()}
            del live[name]
    samples = {name: [] for name in live}
    for _ in range(rounds):
        for name, (lib, fn) in list(live.items()):
            try:
                lib.sync()
                t0 = time.perf_counter()
                for _ in range(n):
                    fn()
                lib.sync()
                samples[name].append((time.perf_counter() - t0) / n)
            except Exception as e:
                out[name] = {"error": f"{type(e).__name__}: {e}".strip()}
                del live[name], samples[name]
    for name, s in samples.items():
        out[name] = _summary(s)
        out[name]["calls"] = n
        out[name]["rounds"] = len(s)
    return out


class NumpyLib(Lib):
    """Host reference: wall-clock time with ``time.perf_counter``."""

    name = "numpy"
    gpu = False
    xp = np

    def put(self, host):
        return host

    def time_events(self, fn, reps, warmup, budget_s, min_reps=1):
        # Host ops on 1 GiB arrays take ~0.1-1 s each, so NumPy gets one
        # warm-up call and as many repetitions as fit in the budget.
        _warm_up(fn, min(warmup, 1), budget_s, self.sync)
        samples = []
        wall0 = time.perf_counter()
        while len(samples) < reps:
            t0 = time.perf_counter()
            fn()
            samples.append(time.perf_counter() - t0)
            if len(samples) >= min_reps and time.perf_counter() - wall0 > budget_s:
                break
        return _summary(samples)


class NpgpuLib(Lib):
    name = "npgpu"

    def __init__(self):
        import npgpu
        self.xp = self.gp = npgpu

    def put(self, host):
        return self.gp.asarray(host)

    def sync(self):
        self.gp.cuda.Device().synchronize()

    def events(self):
        return self.gp.cuda.Event(), self.gp.cuda.Event()

    def elapsed_s(self, start, end):
        return self.gp.cuda.get_elapsed_time(start, end) / 1e3

    def free(self):
        gc.collect()
        pool = getattr(self.gp, "get_default_memory_pool", None)
        if pool is not None:  # only if npgpu grows a CuPy-style pool
            try:
                pool().free_all_blocks()
            except Exception:
                pass


class CupyLib(Lib):
    name = "cupy"

    def __init__(self):
        import cupy
        if cupy.cuda.runtime.getDeviceCount() < 1:
            raise RuntimeError("no CUDA device")
        self.xp = self.cp = cupy

    def put(self, host):
        return self.cp.asarray(host)

    def sync(self):
        self.cp.cuda.Device().synchronize()

    def events(self):
        return self.cp.cuda.Event(), self.cp.cuda.Event()

    def elapsed_s(self, start, end):
        return self.cp.cuda.get_elapsed_time(start, end) / 1e3

    def free(self):
        gc.collect()
        self.cp.get_default_memory_pool().free_all_blocks()
        self.cp.get_default_pinned_memory_pool().free_all_blocks()


class _TorchNumpy:
    """The few NumPy-style functions the cases need, mapped onto torch."""

    def __init__(self, torch):
        self.t = torch
        self.linalg = torch.linalg   # solve / cholesky / svd have NumPy names

    def exp(self, a):
        return self.t.exp(a)

    def sum(self, a, axis=None):
        return a.sum() if axis is None else a.sum(dim=axis)

    def argmax(self, a):
        return self.t.argmax(a)

    def cumsum(self, a):
        return self.t.cumsum(a, 0)

    def matmul(self, a, b):
        return self.t.matmul(a, b)

    def empty(self, shape, dtype):
        return self.t.empty(shape, dtype=self.dtype(dtype), device="cuda")

    def dtype(self, np_dtype):
        return getattr(self.t, np.dtype(np_dtype).name)


class TorchLib(Lib):
    name = "torch"

    def __init__(self):
        import torch
        if not torch.cuda.is_available():
            raise RuntimeError("torch.cuda not available")
        # Plain FP32 matmuls (TF32 off is the default; make it explicit).
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
        self.torch = torch
        self.xp = _TorchNumpy(torch)

    def put(self, host):
        return self.torch.from_numpy(np.ascontiguousarray(host)).cuda()

    def sync(self):
        self.torch.cuda.synchronize()

    def events(self):
        E = self.torch.cuda.Event
        return E(enable_timing=True), E(enable_timing=True)

    def elapsed_s(self, start, end):
        return start.elapsed_time(end) / 1e3

    def free(self):
        gc.collect()
        self.torch.cuda.empty_cache()


def load_libs():
    """Import each library lazily; return (libs, load errors by name)."""
    libs, errors = {}, {}
    for cls in (NpgpuLib, CupyLib, TorchLib, NumpyLib):
        try:
            libs[cls.name] = cls()
        except Exception as e:  # missing package or no GPU: column shows "-"
            errors[cls.name] = f"{type(e).__name__}: {e}"
    return libs, errors
