"""NumPy's API name by name, and npgpu's status on each: the table's reader, checker and updater.

The table is ``_api_status.toml`` beside this file: plain TOML, so tests, the docs' API table and
people read it without importing npgpu.  One row per name:

    name = "implemented"
    name = { pending = 14 }                  # an open issue will add it ([issues] names them)
    name = { omitted = "strings" }           # not planned, for the reason [reasons] gives
    name = { implemented = true, note = "..." }

Optional keys on any row: ``note`` (a caveat, e.g. a mode that is still pending) and ``defined``
(npgpu defines the name on purpose without NumPy's behaviour, e.g. ``ndarray.__array__`` raising
``TypeError``: the row stays pending/omitted although the name exists).  ``"unclassified"`` marks a
name ``--update`` found in NumPy but nowhere in the table; the test fails until a person
classifies it.

Which names are listed (the table may hold more, from other NumPy versions; only names of the
installed NumPy are required):

* ``numpy``: ``numpy.__all__`` without single-underscore names (NumPy 2.0 exported three private
  promotion-state helpers); types, constants and submodules included;
* ``numpy.linalg``, ``numpy.fft``, ``numpy.random``: their ``__all__``;
* ``numpy.random.Generator``, ``numpy.random.RandomState``: their public attributes;
* ``numpy.ndarray``: its public attributes, and the dunders it defines beyond ``object``'s
  (operators and the array protocols).

A name is *present* in npgpu when the matching npgpu object has the attribute after
``import npgpu`` (``npgpu.X``, ``npgpu.linalg.X``, ``npgpu.ndarray.X``...).

``python -m npgpu._api_status`` prints the counts and any problems; ``--docs`` writes the user
docs' API table, ``docs/api.md``, from the table alone (tests/test_docs.py fails when the two
differ); ``--update`` rewrites the table (and docs/api.md): present names become implemented,
NumPy names missing from the table are added as
unclassified, every other row (issue numbers, reasons, notes) is kept.  The file is always written
in one canonical form (sorted, no free comments: explanations go in ``note``), so diffs are one
line per changed name.
"""
import json
import re
import sys
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

PATH = Path(__file__).with_name("_api_status.toml")
DOCS_PATH = Path(__file__).resolve().parent.parent / "docs" / "api.md"

# section -> (how NumPy's names are collected, the object's path under numpy / npgpu)
SECTIONS = {
    "numpy": ("all", ""),
    "numpy.linalg": ("all", "linalg"),
    "numpy.fft": ("all", "fft"),
    "numpy.random": ("all", "random"),
    "numpy.random.Generator": ("attributes", "random.Generator"),
    "numpy.random.RandomState": ("attributes", "random.RandomState"),
    "numpy.ndarray": ("attributes+dunders", "ndarray"),
}

STATUSES = ("implemented", "pending", "omitted", "unclassified")
_ROW_KEYS = {"implemented", "pending", "omitted", "note", "defined"}

HEADER = """\
# npgpu's status for every name of NumPy's main namespace, linalg, fft, random (module, Generator,
# RandomState) and ndarray.  Read by tests/test_api_status.py and the docs' API table.
#
#   name = "implemented"
#   name = { pending = N }            an open issue ([issues]) will add it
#   name = { omitted = "reason" }     not planned ([reasons] says why)
#   optional keys: note = "..." (a caveat), defined = "..." (npgpu defines the name on purpose
#   without NumPy's behaviour; the row then stays pending/omitted)
#
# After adding functions, run:  python -m npgpu._api_status --update
# It flips names npgpu now has to "implemented", adds new NumPy names as "unclassified" (classify
# them by hand), keeps everything else.  The file is rewritten in canonical form: put
# explanations in `note`, not in comments.  Which names are listed: npgpu/_api_status.py.
"""


class Entry:
    """One row: status, and the issue / reason / note / defined fields that go with it."""
    __slots__ = ("status", "issue", "reason", "note", "defined")

    def __init__(self, status, issue=None, reason=None, note=None, defined=None):
        self.status, self.issue, self.reason = status, issue, reason
        self.note, self.defined = note, defined

    def __eq__(self, other):
        return isinstance(other, Entry) and all(getattr(self, k) == getattr(other, k)
                                                for k in self.__slots__)

    def __repr__(self):
        return f"Entry({self.to_toml()})"

    @classmethod
    def parse(cls, value):
        """A TOML value -> Entry; ValueError names what is wrong."""
        if isinstance(value, str):
            if value in ("implemented", "unclassified"):
                return cls(value)
            raise ValueError(f"unknown status {value!r}")
        if not isinstance(value, dict):
            raise ValueError(f"expected a string or an inline table, got {value!r}")
        unknown = set(value) - _ROW_KEYS
        if unknown:
            raise ValueError(f"unknown keys {sorted(unknown)}")
        kinds = [k for k in ("implemented", "pending", "omitted") if k in value]
        if len(kinds) != 1:
            raise ValueError("exactly one of implemented / pending / omitted is needed")
        kind = kinds[0]
        for k in ("note", "defined"):
            if k in value and not (isinstance(value[k], str) and value[k]):
                raise ValueError(f"{k} must be a non-empty string")
        extra = {"note": value.get("note"), "defined": value.get("defined")}
        if kind == "implemented":
            if value["implemented"] is not True:
                raise ValueError("implemented must be true")
            if extra["defined"]:
                raise ValueError("defined is for rows that are not implemented")
            return cls("implemented", **extra)
        if kind == "pending":
            if type(value["pending"]) is not int:
                raise ValueError("pending takes an issue number")
            return cls("pending", issue=value["pending"], **extra)
        if not isinstance(value["omitted"], str):
            raise ValueError("omitted takes a reason key")
        return cls("omitted", reason=value["omitted"], **extra)

    def to_toml(self):
        if self.status in ("implemented", "unclassified") and not (self.note or self.defined):
            return _q(self.status)
        parts = {"implemented": "implemented = true", "pending": f"pending = {self.issue}",
                 "omitted": f"omitted = {_q(self.reason)}"}[self.status]
        parts = [parts] + [f"{k} = {_q(getattr(self, k))}" for k in ("note", "defined")
                           if getattr(self, k)]
        return "{ " + ", ".join(parts) + " }"


class Table:
    """The parsed file: ``issues`` {number: title}, ``reasons`` {key: text}, ``sections``
    {section: {name: Entry}}, and ``malformed`` (messages for rows that did not parse)."""

    def __init__(self, issues, reasons, sections, malformed=()):
        self.issues, self.reasons, self.sections = issues, reasons, sections
        self.malformed = list(malformed)


def _q(s):
    # a TOML basic string: JSON's escapes are valid TOML
    return json.dumps(s, ensure_ascii=False)


def _key(name):
    return name if re.fullmatch(r"[A-Za-z0-9_-]+", name) else _q(name)


def parse(text):
    raw = tomllib.loads(text)
    malformed = []
    issues = {}
    for k, v in raw.pop("issues", {}).items():
        if not k.isdigit() or not isinstance(v, str):
            malformed.append(f"[issues] {k} = {v!r}: expected  N = \"title\"")
        else:
            issues[int(k)] = v
    reasons = {}
    for k, v in raw.pop("reasons", {}).items():
        if not isinstance(v, str) or not v:
            malformed.append(f"[reasons] {k}: expected a sentence")
        else:
            reasons[k] = v
    sections = {}
    for sec, rows in raw.items():
        if sec not in SECTIONS:
            malformed.append(f"[{sec}]: unknown section (known: {', '.join(SECTIONS)})")
            continue
        sections[sec] = {}
        for name, value in rows.items():
            try:
                e = Entry.parse(value)
            except ValueError as exc:
                malformed.append(f"{sec}.{name}: {exc}")
                continue
            if e.status == "pending" and e.issue not in issues:
                malformed.append(f"{sec}.{name}: pending issue {e.issue} is not in [issues]")
            if e.status == "omitted" and e.reason not in reasons:
                malformed.append(f"{sec}.{name}: reason {e.reason!r} is not in [reasons]")
            sections[sec][name] = e
    return Table(issues, reasons, sections, malformed)


def load(path=PATH):
    return parse(Path(path).read_text(encoding="utf-8"))


def _order(name):
    return (name.lower(), name)


def render(table):
    out = [HEADER, "[issues]"]
    out += [f"{n} = {_q(t)}" for n, t in sorted(table.issues.items())]
    out += ["", "[reasons]"]
    out += [f"{_key(k)} = {_q(t)}" for k, t in sorted(table.reasons.items())]
    for sec in SECTIONS:
        rows = table.sections.get(sec, {})
        out += ["", f"[{_q(sec)}]"]
        out += [f"{_key(n)} = {rows[n].to_toml()}" for n in sorted(rows, key=_order)]
    return "\n".join(out) + "\n"


# ---- the two namespaces ---------------------------------------------------------------------------

def _resolve(root, dotted):
    obj = root
    for part in filter(None, dotted.split(".")):
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj


def numpy_names(numpy=None):
    """{section: set of names} for the installed NumPy (or the module given)."""
    if numpy is None:
        import numpy
    out = {}
    for sec, (how, path) in SECTIONS.items():
        obj = _resolve(numpy, path)
        if how == "all":
            names = {n for n in obj.__all__ if not (n.startswith("_") and not n.startswith("__"))}
        else:
            names = {n for n in dir(obj) if not n.startswith("_")}
            if how == "attributes+dunders":
                names |= {n for n in set(dir(obj)) - set(dir(object)) if n.startswith("__")}
        out[sec] = names
    return out


def npgpu_presence():
    """``has(section, name)``: whether npgpu's matching object has the attribute."""
    import npgpu
    objs = {sec: _resolve(npgpu, path) for sec, (_, path) in SECTIONS.items()}
    return lambda sec, name: objs[sec] is not None and hasattr(objs[sec], name)


# ---- check and update -----------------------------------------------------------------------------

_UPDATE = "python -m npgpu._api_status --update"


def problems(table, names=None, has=None):
    """Every disagreement between the table, the installed NumPy and npgpu, as messages."""
    names = numpy_names() if names is None else names
    has = npgpu_presence() if has is None else has
    out = [f"malformed row: {m}" for m in table.malformed]
    for sec, installed in names.items():
        rows = table.sections.get(sec, {})
        obj = "npgpu." + SECTIONS[sec][1] if SECTIONS[sec][1] else "npgpu"
        for n in sorted(installed - set(rows), key=_order):
            out.append(f"{sec}.{n} is not listed: run `{_UPDATE}`, then classify the rows it "
                       f"adds as \"unclassified\"")
        for n in sorted(set(rows) | installed, key=_order):
            e, present = rows.get(n), has(sec, n)
            if e is None:
                continue
            if e.status == "unclassified":
                out.append(f"{sec}.{n} is unclassified: mark it implemented, "
                           f"{{ pending = N }} or {{ omitted = \"reason\" }}")
            elif e.status == "implemented" and not present:
                out.append(f"{sec}.{n} is listed implemented but {obj}.{n} does not exist: "
                           f"restore it or change its row to pending/omitted")
            elif e.status != "implemented" and present and not e.defined:
                out.append(f"{sec}.{n} exists as {obj}.{n} but is listed {e.status}: run "
                           f"`{_UPDATE}` (or add defined = \"...\" if npgpu defines it on "
                           f"purpose without NumPy's behaviour)")
            elif e.defined and not present:
                out.append(f"{sec}.{n} says defined = ... but {obj}.{n} does not exist: "
                           f"drop the defined key")
    return out


def update(table, names=None, has=None):
    """Flip present names to implemented and add unlisted NumPy names as unclassified (in
    place); returns the changes as lines."""
    names = numpy_names() if names is None else names
    has = npgpu_presence() if has is None else has
    changes = []
    for sec, installed in names.items():
        rows = table.sections.setdefault(sec, {})
        for n in sorted(set(rows) | installed, key=_order):
            e, present = rows.get(n), has(sec, n)
            if e is None:
                rows[n] = Entry("implemented" if present else "unclassified")
                changes.append(f"+ {sec}.{n}: {rows[n].status}")
            elif present and e.status != "implemented" and not e.defined:
                changes.append(f"~ {sec}.{n}: {e.status} -> implemented")
                rows[n] = Entry("implemented", note=e.note)
            elif e.status == "implemented" and not present:
                changes.append(f"! {sec}.{n}: listed implemented but missing from npgpu "
                               f"(left as is)")
    return changes


def counts(table, names=None):
    """{"implemented": n, "pending": {issue: n}, "omitted": {reason: n}, "unclassified": n}
    over the rows of names in the installed NumPy."""
    names = numpy_names() if names is None else names
    c = {"implemented": 0, "pending": {}, "omitted": {}, "unclassified": 0}
    for sec, installed in names.items():
        for n, e in table.sections.get(sec, {}).items():
            if n not in installed:
                continue
            if e.status == "pending":
                c["pending"][e.issue] = c["pending"].get(e.issue, 0) + 1
            elif e.status == "omitted":
                c["omitted"][e.reason] = c["omitted"].get(e.reason, 0) + 1
            else:
                c[e.status] += 1
    return c


def summary(table, names=None):
    import numpy
    names = numpy_names() if names is None else names
    lines = [f"NumPy {numpy.__version__}: {sum(map(len, names.values()))} names"]
    for sec, installed in names.items():
        c = counts(table, {sec: installed})
        lines.append(f"  {sec}: {len(installed)} names, {c['implemented']} implemented, "
                     f"{sum(c['pending'].values())} pending, {sum(c['omitted'].values())} "
                     f"omitted" + (f", {c['unclassified']} unclassified" if c["unclassified"]
                                   else ""))
    c = counts(table, names)
    lines.append(f"implemented {c['implemented']}")
    for i, k in sorted(c["pending"].items()):
        lines.append(f"pending #{i} ({table.issues.get(i, '?')}): {k}")
    lines.append(f"omitted {sum(c['omitted'].values())}: " +
                 ", ".join(f"{r} {k}" for r, k in sorted(c["omitted"].items(),
                                                          key=lambda rk: -rk[1])))
    if c["unclassified"]:
        lines.append(f"unclassified {c['unclassified']}")
    return "\n".join(lines)


# ---- the docs' API table ---------------------------------------------------------------------------

_DOCS_SECTIONS = {     # section -> (heading, how a name is written)
    "numpy": ("Main namespace (`numpy.X` -> `npgpu.X`)", "{}"),
    "numpy.linalg": ("`numpy.linalg` -> `npgpu.linalg`", "linalg.{}"),
    "numpy.fft": ("`numpy.fft` -> `npgpu.fft`", "fft.{}"),
    "numpy.random": ("`numpy.random` -> `npgpu.random`", "random.{}"),
    "numpy.random.Generator": ("`numpy.random.Generator` methods", "Generator.{}"),
    "numpy.random.RandomState": ("`numpy.random.RandomState` methods", "RandomState.{}"),
    "numpy.ndarray": ("`numpy.ndarray` attributes and methods", "ndarray.{}"),
}


def _cell(text):
    return text.replace("|", "\\|").replace("\n", " ")


def _status_cell(e):
    if e.status == "pending":
        return f"pending: issue {e.issue}"
    if e.status == "omitted":
        return f"omitted: [{e.reason}](#reason-{e.reason})"
    return e.status


def render_docs(table):
    """docs/api.md from the table alone (not the installed NumPy or npgpu), so it reads the same
    on every machine; ``--docs`` writes it."""
    out = ["# API status: NumPy's names in npgpu", "",
           "<!-- Generated from npgpu/_api_status.toml by `python -m npgpu._api_status --docs`;",
           "     do not edit by hand (tests/test_docs.py fails when it is out of date). -->", "",
           "Every name of NumPy's main namespace, `linalg`, `fft`, `random` (module, `Generator`, "
           "`RandomState`) and `ndarray`, with npgpu's status: **implemented**, **pending** (an "
           "open issue adds it) or **omitted** (not planned, for the reason linked).  The table "
           "also keeps names that other NumPy 2.x versions have.  Behaviour that differs from "
           "NumPy's where a name *is* implemented: [differences.md](differences.md).", "",
           "| section | names | implemented | pending | omitted |", "|---|---|---|---|---|"]
    for sec in SECTIONS:
        rows = table.sections.get(sec, {}).values()
        n = {s: sum(e.status == s for e in rows) for s in STATUSES}
        out.append(f"| [{sec}](#{_anchor(_DOCS_SECTIONS[sec][0])}) | {len(rows)} | "
                   f"{n['implemented']} | {n['pending']} | {n['omitted']} |")
    pending = {e.issue for rows in table.sections.values() for e in rows.values()
               if e.status == "pending"}
    out += ["", "## Open issues that add pending names", "", "| issue | title |", "|---|---|"]
    out += [f"| {i} | {_cell(t)} |" for i, t in sorted(table.issues.items()) if i in pending]
    out += ["", "## Reasons for omissions", "", "| reason | why |", "|---|---|"]
    out += [f"| <a id=\"reason-{k}\"></a>`{k}` | {_cell(t)} |"
            for k, t in sorted(table.reasons.items())]
    for sec in SECTIONS:
        heading, fmt = _DOCS_SECTIONS[sec]
        rows = table.sections.get(sec, {})
        out += ["", f"## {heading}", "", "| name | status | note |", "|---|---|---|"]
        for name in sorted(rows, key=_order):
            e = rows[name]
            note = "; ".join(x for x in (e.note, e.defined and f"defined: {e.defined}") if x)
            out.append(f"| `{fmt.format(name)}` | {_status_cell(e)} | {_cell(note)} |")
    return "\n".join(out) + "\n"


def _anchor(heading):
    # GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if set(argv) - {"--update", "--docs"}:
        print(f"usage: python -m npgpu._api_status [--update] [--docs]\n\n{__doc__}")
        return 2
    table = load()
    if table.malformed and argv:
        print("fix these rows first:\n  " + "\n  ".join(table.malformed))
        return 1
    if "--update" in argv:
        changes = update(table)
        PATH.write_text(render(table), encoding="utf-8")
        print(f"{PATH}: {len(changes)} change(s)")
        print("\n".join(changes))
    if argv:        # --update keeps the docs' table in step too
        DOCS_PATH.write_text(render_docs(table), encoding="utf-8")
        print(f"wrote {DOCS_PATH}")
        if "--update" not in argv:
            return 0
    print(summary(table))
    found = problems(table)
    if found:
        print(f"\n{len(found)} problem(s):\n  " + "\n  ".join(found))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
