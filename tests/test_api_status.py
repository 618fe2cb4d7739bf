"""The API status table (npgpu/_api_status.toml) against the installed NumPy and npgpu itself.

A failure here means the table is out of date: `python -m npgpu._api_status --update` fixes the
mechanical part (names npgpu now has, NumPy names not yet listed); rows it marks "unclassified"
need a person to choose pending/omitted.
"""
import numpy as np
import pytest

from npgpu import _api_status as api

TABLE = api.load()
NAMES = api.numpy_names()


def _report(found, what):
    if found:
        pytest.fail(f"{len(found)} {what} in {api.PATH.name}:\n  " + "\n  ".join(found),
                    pytrace=False)


def test_rows_are_well_formed():
    _report(TABLE.malformed, "malformed rows")


def test_file_is_in_canonical_form():
    # --update rewrites the whole file; a hand edit out of order would make its diff noisy
    assert api.PATH.read_text(encoding="utf-8") == api.render(TABLE), (
        f"{api.PATH.name} is not in canonical form: run `python -m npgpu._api_status --update`")


def _problems(kind):
    found = api.problems(TABLE, NAMES)
    return [p for p in found if kind in p]


def test_every_numpy_name_is_listed():
    _report(_problems("is not listed") + _problems("is unclassified"),
            f"NumPy {np.__version__} names not classified")


def test_implemented_names_exist_in_npgpu():
    _report(_problems("is listed implemented but"), "implemented names missing from npgpu")


def test_npgpu_names_are_listed_implemented():
    _report(_problems("but is listed"), "npgpu names not listed as implemented")


def test_defined_rows_are_defined():
    _report(_problems("says defined"), "stale `defined` keys")


def test_no_other_problem_kind():
    # every message problems() can produce is covered by one of the tests above
    kinds = ("is not listed", "is unclassified", "is listed implemented but", "but is listed",
             "says defined", "malformed row")
    _report([p for p in api.problems(TABLE, NAMES) if not any(k in p for k in kinds)],
            "uncategorised problems")


def test_sections_cover_numpy_namespaces():
    assert set(TABLE.sections) == set(api.SECTIONS)
    assert "where" in NAMES["numpy"] and "_get_promotion_state" not in NAMES["numpy"]
    assert "fft" in NAMES["numpy.fft"] and "integers" in NAMES["numpy.random.Generator"]
    assert {"__add__", "__dlpack__", "T", "sum"} <= NAMES["numpy.ndarray"]
    assert "__init__" not in NAMES["numpy.ndarray"]


# ---- the checker and updater on a made-up table ---------------------------------------------------

_TEXT = '''
[issues]
13 = "indexing"

[reasons]
strings = "no strings on the device"

["numpy"]
gone = "implemented"
old = { omitted = "strings" }
pad = { pending = 13, note = "median mode later" }
take = { pending = 13 }
weird = { omitted = "strings", defined = "raises on purpose" }
'''


def _fake(present):
    names = {sec: set() for sec in api.SECTIONS}
    names["numpy"] = {"gone", "pad", "take", "weird", "brand_new", "also_new"}
    return names, (lambda sec, n: sec == "numpy" and n in present)


def test_update_flips_present_names_and_keeps_the_rest():
    table = api.parse(_TEXT)
    names, has = _fake({"pad", "also_new", "weird"})
    problems = api.problems(table, names, has)
    assert any(p.startswith("numpy.gone is listed implemented but npgpu.gone") for p in problems)
    assert any(p.startswith("numpy.pad exists as npgpu.pad but is listed pending") for p in problems)
    assert any(p.startswith("numpy.brand_new is not listed") for p in problems)
    assert not any("weird" in p or "take" in p or "old" in p for p in problems)

    changes = api.update(table, names, has)
    rows = table.sections["numpy"]
    assert rows["pad"] == api.Entry("implemented", note="median mode later")
    assert rows["take"] == api.Entry("pending", issue=13)
    assert rows["old"] == api.Entry("omitted", reason="strings")          # not in this NumPy
    assert rows["weird"] == api.Entry("omitted", reason="strings", defined="raises on purpose")
    assert rows["gone"] == api.Entry("implemented")                        # left for a person
    assert rows["also_new"] == api.Entry("implemented")
    assert rows["brand_new"] == api.Entry("unclassified")
    assert sorted(changes) == sorted([
        "~ numpy.pad: pending -> implemented", "+ numpy.also_new: implemented",
        "+ numpy.brand_new: unclassified",
        "! numpy.gone: listed implemented but missing from npgpu (left as is)"])

    # the rewritten text reads back to the same table, and is stable
    text = api.render(table)
    again = api.parse(text)
    assert not again.malformed and again.sections["numpy"] == rows and api.render(again) == text
    left = api.problems(again, names, has)
    assert sorted(p.split()[0] for p in left) == ["numpy.brand_new", "numpy.gone"]


@pytest.mark.parametrize("row, message", [
    ('x = "done"', "unknown status 'done'"),
    ('x = { pending = 99 }', "pending issue 99 is not in [issues]"),
    ('x = { omitted = "nope" }', "reason 'nope' is not in [reasons]"),
    ('x = { pending = 13, omitted = "strings" }', "exactly one of implemented / pending / omitted is needed"),
    ('x = { pending = "13" }', "pending takes an issue number"),
    ('x = { implemented = true, defined = "y" }', "defined is for rows that are not implemented"),
    ('x = { pending = 13, colour = "red" }', "unknown keys ['colour']"),
])
def test_malformed_rows_are_named(row, message):
    table = api.parse(_TEXT + row + "\n")
    assert len(table.malformed) == 1 and table.malformed[0] == f"numpy.x: {message}"
