"""The PTX rewrite that reads float64 immediates from a constant table (npgpu/_codegen/
ptx_constants.py): every ``mov.f64`` immediate becomes a load of the same bits, each distinct
value stored once; few constants, or a module already rewritten, stay as they are.  (On the
GPU every float64 kernel of the suite runs through it.)"""
import re
import struct

import numpy as np

from npgpu._codegen import ptx_constants as pc

rng = np.random.default_rng(7)


def _ptx(values):
    body = "\n".join(f"\tmov.f64 \t%fd{i}, 0d{struct.unpack('<Q', struct.pack('<d', v))[0]:016X};"
                     for i, v in enumerate(values))
    return (".version 9.0\n.target sm_90\n.address_size 64\n\n.visible .entry k(\n)\n{\n"
            "\t.reg .f64 \t%fd<99>;\n" + body + "\n\tadd.f64 \t%fd0, %fd1, %fd2;\n\tret;\n}\n")


def _table(ptx):
    m = re.search(r"\.const \.align 8 \.f64 __npgpu_f64k\[(\d+)\] = \{([^}]*)\};", ptx)
    vals = [struct.unpack("<d", struct.pack("<Q", int(v.strip()[2:], 16)))[0]
            for v in m.group(2).split(",")]
    assert int(m.group(1)) == len(vals)
    return vals


def test_loads_read_the_same_bits():
    values = list(rng.standard_normal(12)) + [-0.0, np.inf, 1e-310]
    values += values[:5]                         # repeated constants share one slot
    src = _ptx(values)
    out = pc.f64_table(src)
    table = _table(out)
    assert len(table) == len(values) - 5
    loads = re.findall(r"ld\.const\.f64 \t%fd(\d+), \[__npgpu_f64k\+(\d+)\];", out)
    assert len(loads) == len(values) and "mov.f64" not in out
    for reg, off in loads:
        got, want = table[int(off) // 8], values[int(reg)]
        assert struct.pack("<d", got) == struct.pack("<d", want)      # -0.0 and subnormals too
    # the table sits after .address_size, the rest of the module is untouched
    assert out.index("__npgpu_f64k[") > out.index(".address_size")
    assert out.replace(out[out.index(".const"):out.index("\n", out.index(".const")) + 1], "") \
        .count("add.f64 \t%fd0, %fd1, %fd2;") == 1
    assert pc.f64_table(out) == out              # applied once only


def test_few_constants_unchanged():
    src = _ptx(list(rng.standard_normal(pc.MIN_CONSTANTS - 1)))
    assert pc.f64_table(src) == src
    assert pc.f64_table("no module header") == "no module header"


def _bits(v):
    return f"{struct.unpack('<Q', struct.pack('<d', v))[0]:016X}"


def test_wide_operand_immediates_read_from_the_table():
    """fma/mul/add operands (how NVVM writes ``cuda.fma``'s constants) with a nonzero low word
    become loads into fresh registers just before their instruction; narrow ones (1.0, 0.5,
    the 1.5 * 2**52 shift: SASS encodes them) stay; the register count grows by the loads."""
    wide = [float(v) for v in rng.standard_normal(9)]
    lines = [f"\tfma.rn.f64 \t%fd{i + 1}, %fd{i}, 0d{_bits(v)}, 0d{_bits(wide[-1 - i])};"
             for i, v in enumerate(wide)]
    lines += ["\tadd.rn.f64 \t%fd20, %fd9, 0d3FF0000000000000;",
              "\tfma.rn.f64 \t%fd21, %fd20, 0d4010000000000000, 0d4338000000000000;"]
    src = (".version 9.0\n.target sm_90\n.address_size 64\n\n.visible .entry k(\n)\n{\n"
           "\t.reg .f64 \t%fd<22>;\n" + "\n".join(lines) + "\n\tret;\n}\n")
    out = pc.f64_table(src)
    table = _table(out)
    assert sorted(table) == sorted(set(wide))
    assert "\t.reg .f64 \t%fd<40>;" in out                      # 18 operands, 18 fresh registers
    body = out[out.index("{"):]
    loads = dict(re.findall(r"ld\.const\.f64 \t(%fd\d+), \[__npgpu_f64k\+(\d+)\];", body))
    assert len(loads) == 18 and all(int(r[3:]) >= 22 for r in loads)
    for i, v in enumerate(wide):
        m = re.search(rf"fma\.rn\.f64 \t%fd{i + 1}, %fd{i}, (%fd\d+), (%fd\d+);", body)
        got = [table[int(loads[r]) // 8] for r in m.groups()]
        assert got == [v, wide[-1 - i]]
        assert body.index(f"{m.group(1)}, [") < m.start()     # loaded before its use
    assert "add.rn.f64 \t%fd20, %fd9, 0d3FF0000000000000;" in body
    assert "0d4010000000000000, 0d4338000000000000;" in body
    assert pc.f64_table(out) == out
