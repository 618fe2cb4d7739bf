"""The README's "Ten lines" snippet runs as written, at its stated size, and gives NumPy's
values (read from README.md, so the test and the README cannot drift apart).  On the
simulator this is the suite's one large case (a 1000 x 1000 array, about a minute)."""
import os
import re

import numpy

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def readme_snippet():
    with open(os.path.join(ROOT, "README.md")) as f:
        text = f.read()
    m = re.search(r"^## Ten lines\s*\n+(?:<!--.*?-->\s*\n)?```python\n(.*?)^```", text,
                  re.S | re.M)     # the comment: tests/test_docs.py's no-run marker
    assert m is not None, "README.md has no '## Ten lines' python block"
    return m.group(1)


def test_ten_lines_run_as_written(capsys):
    snippet = readme_snippet()
    assert "(1000, 1000)" in snippet           # the size the README states
    ns = {}
    exec(compile(snippet, os.path.join(ROOT, "README.md"), "exec"), ns)
    x = numpy.random.default_rng(0).standard_normal((1000, 1000), dtype=numpy.float32)
    want = numpy.sin(x) * 2 + x.T
    want[::2, :10] = 0
    host = ns["host"]
    assert host.dtype == numpy.float32 and host.shape == (1000, 1000)
    numpy.testing.assert_allclose(host, want, rtol=2e-6, atol=2e-6)
    assert (host[::2, :10] == 0).all()
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].startswith(f"{ns['np'].backend()} float32 ")
    assert int(printed[1]) >= host.nbytes             # y is still alive in the pool
