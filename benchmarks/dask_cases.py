"""Benchmark cases of Dask arrays of npgpu chunks (issue 22): ``((x - x.mean(axis=0)) ** 2).sum()``
over a (2^16, 2^14) float32 Dask array in (2^13, 2^14) chunks, made on the device by
``da.random`` under the ``"npgpu"`` backend and persisted; only ``.compute()`` is timed.
Rows: plain npgpu on the same data (one array), Dask's threaded scheduler, and dask-cuda's
``LocalCUDACluster`` with one worker when ``dask_cuda`` imports.  The CuPy column of the first two
rows is the same with CuPy chunks (Dask's ``"cupy"`` backend): what Dask costs a peer library on
the same workload, the reference for npgpu's ratio. Bytes: the two reads of ``x``
(the mean, then the squared deviations), against the copy ceiling. Without Dask: no cases."""
import atexit


def cases(cfg, api):
    try:
        import dask
        import dask.array as da
    except ImportError:
        return []
    Case, p2 = api.Case, api.p2
    rows, cols = ((1 << 8, 1 << 6) if cfg["smoke"] else (1 << 16, 1 << 14))
    chunk_rows = rows // 8
    nbytes = 2 * 4 * rows * cols
    shape = f"({p2(rows)}, {p2(cols)}) f32"
    state = {}

    def data(lib):
        # one persisted Dask array per library (npgpu or CuPy chunks), shared by the rows
        if lib.name not in state:
            with dask.config.set({"array.backend": lib.name}):
                x = da.random.default_rng(22).standard_normal(
                    (rows, cols), chunks=(chunk_rows, cols), dtype="float32")
            state[lib.name] = x.persist(scheduler="threads")
        return state[lib.name]

    def expr(x):
        return ((x - x.mean(axis=0)) ** 2).sum()

    def plain(lib):
        xp = lib.xp
        x = data(lib).compute(scheduler="threads")
        return lambda: xp.sum((x - x.mean(axis=0)) ** 2)

    def threaded(lib):
        e = expr(data(lib))
        return lambda: e.compute(scheduler="threads")

    both = ("npgpu", "cupy")
    out = [Case(f"plain {shape}", plain, nbytes=nbytes, libs=both),
           Case(f"dask threads {shape}", threaded, nbytes=nbytes, libs=both)]
    try:
        import dask_cuda  # noqa: F401
        import npgpu
        gpu = npgpu.backend() == "cuda"
    except ImportError:
        gpu = False
    if gpu:
        def cluster(lib):
            from dask_cuda import LocalCUDACluster
            from distributed import Client
            c = LocalCUDACluster(n_workers=1, dashboard_address=None)
            client = Client(c)
            atexit.register(c.close)
            atexit.register(client.close)
            with dask.config.set({"array.backend": "npgpu"}):
                x = da.random.default_rng(22).standard_normal(
                    (rows, cols), chunks=(chunk_rows, cols), dtype="float32")
            x = client.persist(x)
            e = expr(x)
            return lambda: client.compute(e).result()
        out.append(Case(f"dask LocalCUDACluster 1 worker {shape}", cluster, nbytes=nbytes,
                        libs=("npgpu",)))
    return out
