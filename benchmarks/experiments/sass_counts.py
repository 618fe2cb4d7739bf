"""Registers and SASS instruction counts of the kernels a snippet renders (no GPU needed).

Run: ``python3 benchmarks/experiments/sass_counts.py "<python snippet>" [name prefix]``, e.g.
``"import npgpu.scipy.special as s, numpy as n; s.erf(npgpu.asarray(n.ones(9000)))"``.  The
snippet runs on the simulator with ``NPGPU_RECORD_KERNELS`` (``npgpu`` is imported for it);
each recorded kernel is compiled as the GPU path compiles it (NVVM -O3, npgpu's PTX rewrites),
then ptxas for sm_90 gives registers and cuobjdump the SASS opcode histogram.  Needs ptxas
(CUDA toolkit) and cuobjdump with the nvdisasm it runs (``pip install nvidia-cuda-cuobjdump
nvidia-cuda-nvdisasm``: found in the Python environment's ``nvidia/*/bin`` or on PATH).  SASS_TOP=N: the N most common opcodes (8);
SASS_DUMP=DIR: each kernel's SASS written to DIR.  ``NPGPU_PTX_F64_TABLE=0`` shows NVVM's PTX unrewritten.

Where the time of a compute-bound elementwise kernel goes (issue 25): erf float64 rebuilt each
float64 constant with two UMOVs per use (302 UMOV next to 259 DFMA); with the constants in a
table (npgpu/_codegen/ptx_constants.py), 86 ULDC hoisted out of the element work.
"""
import collections
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _tool(name):
    for base in (sysconfig.get_paths()["purelib"],):
        hits = glob.glob(os.path.join(base, "nvidia", "*", "bin", name))
        if hits:
            return hits[0]
    return shutil.which(name)


def record(snippet):
    d = tempfile.mkdtemp(prefix="npgpu-sass-")
    env = dict(os.environ, NPGPU_RECORD_KERNELS=d, NPGPU_BACKEND="simulator",
               PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    subprocess.run([sys.executable, "-c", "import npgpu\n" + snippet], env=env, check=True)
    return d


def compile_all(d, prefix):
    os.environ["NUMBA_ENABLE_CUDASIM"] = "0"
    os.environ["NPGPU_BACKEND"] = "compile-only"
    sys.path.insert(0, ROOT)
    from npgpu._codegen import compiler, ptxcheck
    from npgpu._codegen.compiler import KernelSource, compile_ptx
    ptxcheck._setup(False)
    ptxas, cuobjdump = _tool("ptxas"), _tool("cuobjdump")
    for path in sorted(glob.glob(os.path.join(d, "*.json"))):
        with open(path) as f:
            meta = json.load(f)
        if not meta["name"].startswith(prefix):
            continue
        ks = KernelSource.from_record(meta)
        params = ks.params
        ptx = compile_ptx(compiler.python_function(ks), params, (9, 0),
                          launch_bounds=ks.launch_bounds, f64_table=ks.f64_table)
        line = f"{meta['name']} ({', '.join(p[1] for p in meta['params'] if p[0] == 'array')})"
        if not ptxas:
            print(line, "(no ptxas: PTX only)", len(ptx.splitlines()), "PTX lines")
            continue
        with tempfile.TemporaryDirectory() as t:
            src, cub = os.path.join(t, "k.ptx"), os.path.join(t, "k.cubin")
            with open(src, "w") as f:
                # NVVM may write a newer PTX ISA version than this ptxas reads
                f.write(re.sub(r"^\.version .*$", ".version 9.0", ptx, count=1, flags=re.M))
            r = subprocess.run([ptxas, "-arch=sm_90", "-v", "-o", cub, src],
                               capture_output=True, text=True)
            regs = re.search(r"Used (\d+) registers", r.stderr + r.stdout)
            line += f": {regs.group(1) if regs else '?'} registers"
            if cuobjdump and os.path.exists(cub):
                # cuobjdump runs nvdisasm from PATH: the wheels' bin folder holds both
                env = dict(os.environ, PATH=os.path.dirname(cuobjdump) + os.pathsep
                           + os.environ.get("PATH", ""))
                sass = subprocess.run([cuobjdump, "-sass", cub], capture_output=True,
                                      text=True, env=env).stdout
                ops = collections.Counter(
                    m.group(1) for m in re.finditer(r"/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9]*)", sass))
                top = ", ".join(f"{k} {v}" for k, v in ops.most_common(int(os.environ.get("SASS_TOP", "8"))))
                line += f", {sum(ops.values())} SASS: {top}"
                if os.environ.get("SASS_DUMP"):     # a folder: each kernel's SASS as text
                    os.makedirs(os.environ["SASS_DUMP"], exist_ok=True)
                    with open(os.path.join(os.environ["SASS_DUMP"], meta["name"] + ".sass"),
                              "w") as f:
                        f.write(sass)
        print(line, flush=True)


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    compile_all(record(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 else "")
    return 0


if __name__ == "__main__":
    sys.exit(main())
