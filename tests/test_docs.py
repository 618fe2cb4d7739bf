"""The user docs: their code snippets run, and the API table is the one the status file generates.

Snippets: every ```python block of README.md and docs/*.md runs, in file order, in one namespace
per file that starts with ``numpy`` and ``npgpu`` imported (so a page's later blocks may use its
earlier ones' names).  Two HTML comments just before a block change that:

    <!-- no-run: why -->            the block is not run (GPU-only, GPU-sized, or a fragment)
    <!-- setup                      this code runs first, unseen by readers (test data for a
    x = npgpu.arange(8.0)           block that shows only the call)
    -->

Snippets must stay small: the simulator interprets every element (about 2-4 us each).
"""
import re
from pathlib import Path

import numpy
import pytest

import npgpu
from npgpu import _api_status

ROOT = Path(__file__).resolve().parent.parent
PAGES = [p for p in [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
         if "```python" in p.read_text(encoding="utf-8")]

_BLOCK = re.compile(r"^```python[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)
_COMMENT = re.compile(r"<!--((?:(?!-->).)*)-->\s*\Z", re.S)   # one comment, then only blanks


def blocks(text):
    """[(line, code, setup or None, skip reason or None)] of a page's python blocks."""
    out = []
    for m in _BLOCK.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        setup = skip = None
        i = text.rfind("<!--", 0, m.start())
        c = _COMMENT.match(text, i, m.start()) if i >= 0 else None
        if c is not None:
            body = c.group(1).strip()
            if body.startswith("no-run"):
                skip = body[len("no-run"):].lstrip(": ") or "marked no-run"
            elif body.startswith("setup"):
                setup = body[len("setup"):].strip("\n")
        out.append((line, m.group(1), setup, skip))
    return out


def test_block_markers_are_read():
    text = ("a\n<!-- no-run: GPU only -->\n```python\nboom()\n```\n"
            "<!-- setup\nx = 1\n-->\n\n```python\ny = x + 1\n```\n```python\nz = 2\n```\n")
    got = blocks(text)
    assert [(b[2], b[3]) for b in got] == [(None, "GPU only"), ("x = 1", None), (None, None)]
    assert [b[1] for b in got] == ["boom()\n", "y = x + 1\n", "z = 2\n"]
    assert [b[0] for b in got] == [3, 10, 13]


@pytest.fixture
def clean_state():
    """Snippets may set the allocator or enter streams (memory_and_streams.md does): undo it."""
    yield
    npgpu.cuda.set_allocator(None)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_snippets_run(page, clean_state):
    ns = {"numpy": numpy, "npgpu": npgpu, "__name__": "__docs__"}
    ran = 0
    for line, code, setup, skip in blocks(page.read_text(encoding="utf-8")):
        if skip:
            continue
        where = f"{page.relative_to(ROOT)}:{line}"
        if setup:
            exec(compile(setup, f"{where} (setup)", "exec"), ns)
        # the line offset makes tracebacks point at the page's own lines
        exec(compile("\n" * line + code, str(page.relative_to(ROOT)), "exec"), ns)
        ran += 1
    if not ran:
        pytest.skip("every python block is marked no-run")


def test_api_table_is_generated_from_the_status_file():
    table = _api_status.load()
    assert not table.malformed
    want = _api_status.render_docs(table)
    have = _api_status.DOCS_PATH.read_text(encoding="utf-8")
    assert have == want, ("docs/api.md is out of date with npgpu/_api_status.toml: run "
                          "`python -m npgpu._api_status --docs`")


def test_api_table_lists_every_row():
    table = _api_status.load()
    text = _api_status.render_docs(table)
    rows = sum(len(r) for r in table.sections.values())
    assert text.count("\n| `") == rows
    assert "| `ndarray.__array__` | omitted: [implicit-host-copy](#reason-implicit-host-copy)" in text
    for reason in table.reasons:
        assert f'<a id="reason-{reason}"></a>' in text
