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
