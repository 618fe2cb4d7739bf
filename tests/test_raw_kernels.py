"""RawKernel / RawModule (issue 18): NVRTC compiles, logs, name expressions and argument checks
run everywhere; launches run on the GPU only (the simulator cannot run CUDA C++)."""
import os

import numpy as np
import pytest

import npgpu
from conftest import ON_GPU, assert_matches, needs_gpu, random_array

CODE = r"""
extern "C" __global__ void axpy(const float* x, float* y, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
template<typename T>
__global__ void fill(T* y, T v, long long n) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i < n) y[i] = v;
}
extern "C" __global__ void scale_c(double2* z, double2 s, unsigned char on, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (on && i < n) { double2 v = z[i];
        z[i] = make_double2(v.x * s.x - v.y * s.y, v.x * s.y + v.y * s.x); }
}
"""


@pytest.fixture(scope="module")
def module():
    return npgpu.RawModule(code=CODE, options=("-std=c++17",),
                           name_expressions=["fill<float>", "fill<double>"])


def test_compile_and_parameters(module):
    assert module.get_function("axpy")._fn.params == [("i", 8), ("i", 8), ("f", 4), ("i", 4)]
    f = module.get_function("fill<double>")
    assert f._fn.entry == "_Z4fillIdEvPT_S0_x"
    assert f._fn.params == [("i", 8), ("f", 8), ("i", 8)]
    assert module.get_function("scale_c")._fn.params == [("i", 8), ("b", 16), ("i", 1),
                                                         ("i", 4)]
    assert npgpu.RawKernel(CODE, "axpy").num_params == 4


def test_compile_error_has_nvrtc_log():
    k = npgpu.RawKernel('extern "C" __global__ void k(float* x) { x[0] = undefined_y; }', "k")
    with pytest.raises(npgpu.kernels.CompileError, match='identifier "undefined_y" is '
                                                         'undefined') as e:
        k.compile()
    assert "error" in e.value.log
    with pytest.raises(npgpu.kernels.CompileError):
        npgpu.RawModule(code="__global__ void broken( {")


def test_unknown_names(module):
    with pytest.raises(AttributeError, match="no kernel named 'fill'.*name_expressions"):
        module.get_function("fill")
    with pytest.raises(AttributeError, match="no kernel named 'nope'"):
        npgpu.RawKernel(CODE, "nope").compile()


def test_disk_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("NPGPU_CACHE_DIR", str(tmp_path))
    npgpu.RawModule(code=CODE + "\n// cache test\n")
    files = os.listdir(tmp_path)
    assert any(f.startswith("raw-") and f.endswith(".kernel") for f in files)
    m = npgpu.RawModule(code=CODE + "\n// cache test\n")      # loaded from the files
    assert m.get_function("axpy")._fn.params[2] == ("f", 4)


def test_bad_options():
    with pytest.raises(ValueError, match="backend must be 'nvrtc'"):
        npgpu.RawModule(code=CODE, backend="nvcc")
    with pytest.raises(TypeError, match="exactly one of code= or path="):
        npgpu.RawModule()
    with pytest.raises(npgpu.kernels.CompileError):
        npgpu.RawModule(code=CODE, options=("--no-such-option",))


@pytest.mark.parametrize("args,exc,match", [
    (lambda x: (x, x, 2.0), TypeError, "expects 4 arguments, got 3"),
    (lambda x: (x, x, np.float64(2), 8), TypeError, r"argument 2 \(numpy.float64\) does not "
                                                     "match parameter 2"),
    (lambda x: (x, x, 2.0, 8.5), TypeError, "argument 3 .float. cannot be passed"),
    (lambda x: (x, x, x, 8), TypeError, "argument 2 .* is an array"),
    (lambda x: (x, x, 2.0, 2 ** 40), OverflowError, "does not fit parameter 3"),
    (lambda x: (x, "y", 2.0, 8), TypeError, "argument 1 .str."),
    (lambda x: [x, x, np.float32(2)], TypeError, "expects 4 arguments"),
])
def test_argument_checks_before_launch(module, args, exc, match):
    k = module.get_function("axpy")
    x = npgpu.zeros(8, np.float32)
    with pytest.raises(exc, match=match):
        k((1,), (32,), args(x))


def test_struct_and_byte_parameters_checked(module):
    k = module.get_function("scale_c")
    z = npgpu.zeros(4, np.complex128)
    with pytest.raises(TypeError, match="does not match parameter 1"):
        k(1, 32, (z, np.complex64(1j), 1, 4))
    with pytest.raises(TypeError, match="is an array"):
        k(1, 32, (z, z, 1, 4))


@pytest.mark.skipif(ON_GPU, reason="the simulator's error")
def test_launch_on_simulator_says_it_needs_a_gpu(module):
    x = npgpu.zeros(8, np.float32)
    with pytest.raises(RuntimeError, match="need a GPU"):
        module.get_function("axpy")((1,), (32,), (x, x, np.float32(2), np.int32(8)))


@needs_gpu
def test_launch_axpy(module, rng):
    hx, hy = random_array(1000, np.float32, rng), random_array(1000, np.float32, rng)
    x, y = npgpu.asarray(hx), npgpu.asarray(hy)
    module.get_function("axpy")((4,), (256,), (x, y, np.float32(0.5), np.int32(1000)))
    assert_matches(y, np.float32(0.5) * hx + hy)
    k = npgpu.RawKernel(CODE, "axpy")
    k(4, 256, (x, y, 2.0, 1000))                      # Python numbers are converted
    assert_matches(y, np.float32(2) * hx + (np.float32(0.5) * hx + hy), rtol=1e-5)


@needs_gpu
def test_launch_templates_structs_and_stream(module, rng):
    y = npgpu.empty(300, np.float64)
    s = npgpu.cuda.Stream()
    module.get_function("fill<double>")(3, 128, (y, 2.5, 300), stream=s)
    s.synchronize()
    assert_matches(y, np.full(300, 2.5))
    hz = random_array(50, np.complex128, rng)
    z = npgpu.asarray(hz)
    module.get_function("scale_c")(1, 64, (z, np.complex128(1j), True, 50))
    assert_matches(z, hz * 1j)
    yf = npgpu.zeros(10, np.float32)
    module.get_function("fill<float>")((1, 1, 1), (32, 1, 1), (yf, np.float32(-1), 10))
    assert_matches(yf, np.full(10, -1, np.float32))


@needs_gpu
def test_launch_shared_memory(rng):
    code = r"""
    extern "C" __global__ void rev(const int* x, int* y, int n) {
        extern __shared__ int buf[];
        int t = threadIdx.x;
        if (t < n) buf[t] = x[t];
        __syncthreads();
        if (t < n) y[t] = buf[n - 1 - t];
    }"""
    hx = random_array(64, np.int32, rng)
    y = npgpu.empty(64, np.int32)
    npgpu.RawKernel(code, "rev")(1, 64, (npgpu.asarray(hx), y, 64), shared_mem=64 * 4)
    assert_matches(y, hx[::-1])


MANY = r"""
extern "C" __global__ void many(float* y, signed char a, unsigned short b, int c, unsigned int d,
                                long long e, unsigned long long f, float g, double h) {
    if (threadIdx.x == 0) y[0] = a + b + c + d + e + f + g + h;
}
"""


def _packed(fn, args):
    """The parameter bytes ``fn`` writes for ``args``: (checked path, per-signature packer)."""
    mv, params = fn._tls.bufs if hasattr(fn._tls, "bufs") else fn._buffers()
    n = fn._slot * len(fn.params)
    mv[:n] = b"\xa5" * n
    fn._pack_checked(args, "many", mv)
    slow = bytes(mv[:n])
    mv[:n] = b"\xa5" * n
    fn._fast = None
    fn.pack(args, "many")                     # checks, then makes the packer of this signature
    assert fn._fast is not None
    mv[:n] = b"\xa5" * n
    assert fn.pack(args, "many") is params
    return slow, bytes(mv[:n])


@pytest.mark.parametrize("args", [
    lambda y: (y, np.int8(-5), np.uint16(65535), np.int32(-7), np.uint32(4000000000),
               np.int64(-2 ** 62), np.uint64(2 ** 64 - 3), np.float32(1.5), np.float64(-2.25)),
    lambda y: (y, -128, 65535, -2 ** 31, 2 ** 32 - 1, -2 ** 63, 2 ** 63 - 1, 1.25, 3),
    lambda y: (y, True, False, 255, -1, 7, 0, -0.0, float("inf")),
    lambda y: (y[::2], np.bool_(True), np.int16(-2), np.int32(3), np.int32(-3), np.uint64(9),
               np.int64(5), np.float32("nan"), 1e300),
])
def test_per_signature_packer_writes_the_checked_bytes(args):
    fn = npgpu.RawKernel(MANY, "many").compile()._fn
    y = npgpu.asarray(random_array(8, np.float32, np.random.default_rng(3)))
    slow, fast = _packed(fn, args(y))
    for k, (_, size) in enumerate(fn.params):     # the bytes each parameter reads (not padding)
        at = k * fn._slot
        assert slow[at:at + size] == fast[at:at + size], k


def test_per_signature_packer_falls_back_to_the_checks():
    k = npgpu.RawKernel(CODE, "axpy").compile()
    fn = k._fn
    x = npgpu.zeros(8, np.float32)
    fn.pack((x, x, 2.0, 8), "axpy")
    assert fn._fast is not None               # this signature's packer exists now ...
    with pytest.raises(OverflowError, match="does not fit parameter 3"):
        fn.pack((x, x, 2.0, 2 ** 40), "axpy")  # ... a value out of range still raises
    with pytest.raises(TypeError, match=r"argument 2 \(numpy.float64\) does not match"):
        fn.pack((x, x, np.float64(2), 8), "axpy")     # ... and so does another class
    with pytest.raises(TypeError, match="argument 3 .float. cannot be passed"):
        fn.pack((x, x, 2.0, 8.5), "axpy")
    with pytest.raises(TypeError, match="expects 4 arguments, got 3"):
        fn.pack((x, x, 2.0), "axpy")
    fn.pack((x, x, 2.0, 8), "axpy")           # complex scalars: always the checked path
    z = npgpu.zeros(4, np.complex128)
    sc = npgpu.RawModule(code=CODE, options=("-std=c++17",)).get_function("scale_c")._fn
    sc.pack((z, np.complex128(1j), 1, 4), "scale_c")
    assert sc._fast is None
