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

NVVM writes the constants of ``cuda.fma`` calls (npgpu's own polynomials) as immediate operands
(``fma.rn.f64 %fd5, %fd4, 0d3FC2..., %fd3``), not as ``mov.f64``: those with a nonzero low word
(the ones SASS cannot encode in the instruction) are loaded from the same table into fresh
registers.  The random kernels opt in (``KernelSource.f64_table``): the float64 Box-Muller's
loop 226 -> 187 SASS instructions (41 UMOVs gone).
"""
import os
import re

ENABLED = os.environ.get("NPGPU_PTX_F64_TABLE", "0") == "1"
# kernels with fewer distinct float64 constants keep their immediates (nothing to win)
MIN_CONSTANTS = 8
NAME = "__npgpu_f64k"
_MOV = re.compile(r"^([ \t]*)mov\.f64[ \t]+(%fd\d+),[ \t]*(0d[0-9A-Fa-f]{16});[ \t]*$", re.M)
_ADDRESS_SIZE = re.compile(r"^\.address_size[ \t]+\d+[ \t]*\n", re.M)


_IMM = re.compile(r"0[dD]([0-9A-Fa-f]{8})([0-9A-Fa-f]{8})")
_REG_DECL = re.compile(r"^([ \t]*\.reg[ \t]+\.f64[ \t]+%fd<)(\d+)(>;)", re.M)


def _wide(hex16):
    """Whether ptxas must build the float64 immediate from two 32-bit halves (a nonzero low
    word: SASS encodes only the high word of a float64 operand in the instruction)."""
    return int(hex16[8:], 16) != 0


def _operand_loads(segment, values):
    """``segment`` (one function's body, from its ``.reg .f64`` declaration on) with each wide
    float64 immediate operand of an arithmetic instruction read into a fresh register from the
    table just before the instruction (``fma.rn.f64 %fd5, %fd4, 0d3FC2..., %fd3``: NVVM writes
    the constants of ``cuda.fma`` calls so, which ptxas rebuilds with two UMOVs at each use)."""
    decl = _REG_DECL.match(segment)
    free = [int(decl.group(2))]
    out = []
    for line in segment.splitlines(keepends=True):
        stripped = line.lstrip()
        if "0d" not in line and "0D" not in line or stripped.startswith(("mov.", ".", "//")):
            out.append(line)
            continue
        indent = line[:len(line) - len(stripped)]

        def load(m):
            hex16 = (m.group(1) + m.group(2)).upper()
            if not _wide(hex16):
                return m.group(0)
            values.setdefault(hex16, len(values))
            reg = f"%fd{free[0]}"
            free[0] += 1
            out.append(f"{indent}ld.const.f64 \t{reg}, [{NAME}+{8 * values[hex16]}];\n")
            return reg
        out.append(_IMM.sub(load, line))
    return (decl.group(1) + str(free[0]) + decl.group(3)
            + "".join(out)[decl.end():])


def f64_table(ptx):
    """``ptx`` with its float64 constants read from one module-level ``.const`` table (each
    distinct value once): the ``mov.f64`` immediates and the wide immediate operands of
    arithmetic instructions; unchanged below :data:`MIN_CONSTANTS` distinct values."""
    if NAME in ptx:
        return ptx
    at = _ADDRESS_SIZE.search(ptx)
    decls = list(_REG_DECL.finditer(ptx))
    if at is None:
        return ptx
    values = {}
    for m in _MOV.finditer(ptx):
        values.setdefault(m.group(3)[2:].upper(), len(values))
    body = _MOV.sub(lambda m: f"{m.group(1)}ld.const.f64 \t{m.group(2)}, "
                              f"[{NAME}+{8 * values[m.group(3)[2:].upper()]}];", ptx)
    if decls:
        # one segment a function: from its .reg .f64 declaration to the next one
        cuts = [m.start() for m in _REG_DECL.finditer(body)] + [len(body)]
        body = body[:cuts[0]] + "".join(_operand_loads(body[a:b], values)
                                        for a, b in zip(cuts, cuts[1:]))
    if len(values) < MIN_CONSTANTS:
        return ptx
    table = (f".const .align 8 .f64 {NAME}[{len(values)}] = "
             f"{{{', '.join('0d' + v for v in values)}}};\n")
    at = _ADDRESS_SIZE.search(body)
    return body[:at.end()] + table + body[at.end():]
