"""SciPy's filter boundary modes as rendered source: the one place that maps an index outside
an axis to one inside it (or marks it as taking ``cval``).

Every ndimage template that reads a neighbour renders :func:`index_lines` for it, so a mode is
a compile-time choice of a few lines.  Filter semantics (``scipy.ndimage`` filters,
``_extend_mode_to_code(mode, is_filter=True)``): 'grid-mirror' is 'reflect', 'grid-wrap' is
'wrap', 'grid-constant' is 'constant'.  Extensions longer than the axis repeat periodically, as
SciPy's line extension does (reflect: period 2n, mirror: 2n - 2, wrap: n).

Contract of the rendered lines: ``i`` is a signed integer expression, ``n`` (>= 1) the axis
extent; the lines assign ``j`` in ``[0, n)``.  Constant modes also set ``oob = True`` when ``i``
is outside (and leave ``oob`` alone otherwise): the caller sets ``oob = False`` once before the
axes' lines and reads ``cval`` where it is true.  Inside the axis every mode costs one
two-sided compare; the division of a periodic mode runs only outside.
"""

MODES = ("reflect", "constant", "nearest", "mirror", "wrap", "grid-constant", "grid-mirror",
         "grid-wrap")
_CANONICAL = {"reflect": "reflect", "grid-mirror": "reflect", "constant": "constant",
              "grid-constant": "constant", "nearest": "nearest", "mirror": "mirror",
              "wrap": "wrap", "grid-wrap": "wrap"}

# canonical mode -> body run when i is outside [0, n) (j holds i on entry)
_OUTSIDE = {
    "nearest": ["{j} = 0 if {j} < 0 else {n} - 1"],
    "wrap": ["{j} = {j} % {n}", "if {j} < 0:", "    {j} += {n}"],
    "reflect": ["{j} = {j} % (2 * {n})", "if {j} < 0:", "    {j} += 2 * {n}", "if {j} >= {n}:",
                "    {j} = 2 * {n} - 1 - {j}"],
    "mirror": ["if {n} == 1:", "    {j} = 0", "else:", "    {j} = {j} % (2 * {n} - 2)",
               "    if {j} < 0:", "        {j} += 2 * {n} - 2", "    if {j} >= {n}:",
               "        {j} = 2 * {n} - 2 - {j}"],
    "constant": ["{j} = 0", "{oob} = True"],
}


def canonical(mode):
    """The filter mode ``mode`` stands for (one of reflect, constant, nearest, mirror, wrap);
    SciPy's RuntimeError('boundary mode not supported') for anything else."""
    m = _CANONICAL.get(mode) if isinstance(mode, str) else None
    if m is None:
        raise RuntimeError("boundary mode not supported")
    return m


def is_constant(mode):
    """Does ``mode`` read ``cval`` outside the array (then the lines set ``oob``)?"""
    return canonical(mode) == "constant"


def index_lines(mode, i, n, j="j", pad="", oob="oob"):
    """Source lines assigning ``j`` = the in-range index for index expression ``i`` on an axis
    of extent ``n`` (an expression) under ``mode``; constant modes set ``oob`` = True outside.

    ``pad``: the indentation of the lines; ``j``/``oob``: the variable names to assign."""
    n = n if n.isidentifier() else f"({n})"
    L = [f"{j} = {i}", f"if {j} < 0 or {j} >= {n}:"]
    L += ["    " + line.format(j=j, n=n, oob=oob) for line in _OUTSIDE[canonical(mode)]]
    return [pad + line for line in L]


# mode as a runtime value: one kernel serves every mode (its interior never reads the mode)
CODES = {"nearest": 0, "wrap": 1, "reflect": 2, "mirror": 3, "constant": 4}


def code(mode):
    """The runtime code of ``mode`` for :func:`any_mode_lines` (SciPy's error if unknown)."""
    return CODES[canonical(mode)]


def any_mode_lines(mode, i, n, j="j", pad="", oob="oob"):
    """Like :func:`index_lines`, for the mode whose :func:`code` is the runtime value ``mode``
    (an expression): every mode's lines under one switch, run only outside the axis.  ``oob``
    is set for the constant mode, so the caller always sets it False first."""
    n = n if n.isidentifier() else f"({n})"
    L = [f"{j} = {i}", f"if {j} < 0 or {j} >= {n}:"]
    for k, (name, c) in enumerate(CODES.items()):
        head = "if" if k == 0 else "elif"
        L.append(f"    {head} {mode} == {c}:" if k < len(CODES) - 1 else "    else:")
        L += ["        " + line.format(j=j, n=n, oob=oob) for line in _OUTSIDE[name]]
    return [pad + line for line in L]


def real_cval(cval):
    """``cval`` as the C double SciPy's extension functions parse it: a float, anything with
    ``__float__`` or ``__index__``; SciPy's TypeError ('must be real number, not str') else."""
    t = type(cval)
    if hasattr(t, "__float__"):
        return float(cval)
    if hasattr(t, "__index__"):
        return float(cval.__index__())
    raise TypeError(f"must be real number, not {t.__name__}")
