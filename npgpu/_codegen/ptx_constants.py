"""float64 constants of a kernel's PTX moved from immediates into a constant-memory table.

NVVM writes each float64 constant of a kernel (libdevice's polynomial coefficients above all)
as ``mov.f64 %fdN, 0d...``, and ptxas for sm_90 rebuilds every one of them before each use
with two uniform-register moves (UMOV), re-done for every element a thread computes: in
``erf`` float64 that is ~75 UMOVs next to ~65 DFMAs an element (ptxas 13.0, SASS counts of
benchmarks/experiments/sass_counts.py), and the kernel issues instructions rather than reading
memory (Nsight Compute on the H200: 137 instructions an element against PyTorch's 79, 63% of
copy bandwidth).  Loaded from a ``.const`` table instead, each constant is one ULDC.64 that
ptxas hoists into a uniform register (824 SASS instructions instead of 1000).

Measured on the H200 (2026-12-02, 2^27 float64, 4 elements a thread): fewer instructions did
not make it faster everywhere: erf 825 -> 1066 us (slower), gammaln 1.687 -> 1.53 ms, exp
541 -> 526 us.  So it is off by default; ``NPGPU_PTX_F64_TABLE=1`` turns it on (the option is
part of the kernel cache key).  Results: benchmarks/results/2026-12-02-h200-special-functions-
fused-softmax.md.
"""
import os
import re

ENABLED = os.environ.get("NPGPU_PTX_F64_TABLE", "0") == "1"
# kernels with fewer distinct float64 constants keep their immediates (nothing to win)
MIN_CONSTANTS = 8
NAME = "__npgpu_f64k"
_MOV = re.compile(r"^([ \t]*)mov\.f64[ \t]+(%fd\d+),[ \t]*(0d[0-9A-Fa-f]{16});[ \t]*$", re.M)
_ADDRESS_SIZE = re.compile(r"^\.address_size[ \t]+\d+[ \t]*\n", re.M)


def f64_table(ptx):
    """``ptx`` with its ``mov.f64`` immediates read from one module-level ``.const`` table
    (each distinct value once), or unchanged below :data:`MIN_CONSTANTS` distinct values."""
    values = {}
    for m in _MOV.finditer(ptx):
        values.setdefault(m.group(3).upper(), len(values))
    if len(values) < MIN_CONSTANTS or NAME in ptx:
        return ptx
    at = _ADDRESS_SIZE.search(ptx)
    if at is None:
        return ptx
    body = _MOV.sub(lambda m: f"{m.group(1)}ld.const.f64 \t{m.group(2)}, "
                              f"[{NAME}+{8 * values[m.group(3).upper()]}];", ptx)
    table = (f".const .align 8 .f64 {NAME}[{len(values)}] = "
             f"{{{', '.join(v.replace('0D', '0d') for v in values)}}};\n")
    return body[:at.end()] + table + body[at.end():]
