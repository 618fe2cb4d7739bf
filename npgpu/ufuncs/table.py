"""The ufunc table: one row per ufunc, the scalar code of its loops.

Row: ``name: {type class: code}``.  The type class is the ``kind`` of the
loop's first input dtype (``b`` bool, ``i`` signed, ``u`` unsigned, ``f``
float, ``c`` complex; several letters share code; ``""`` is the default).
The code is one expression of ``x0 .. x{nin-1}``, or a function body with
``return`` (several values for ufuncs with several outputs).

What the code may rely on:
* inputs arrive already cast to the loop's dtypes (NumPy's resolution), with
  float16 loops computed in float32; the result is cast to the output dtype
  by the kernel (explicitly, with NumPy's cast rules), so integer results may
  be computed wider and wrap on store;
* ``math``, ``cmath``, Numba's scalar types (``int64``, ``float32``, ...)
  and the helpers of :mod:`npgpu.ufuncs.helpers` (name them in ``HELPERS``);
* the same source runs on Numba's simulator (NumPy scalar rules) and is
  compiled by Numba for the GPU, so use only constructs valid in both.
"""

# name -> {type class: code}
TABLE = {
    # ---- arithmetic ----
    "add": {"b": "x0 or x1", "": "x0 + x1"},
    "subtract": {"": "x0 - x1"},
    "multiply": {"b": "x0 and x1", "": "x0 * x1"},
    "true_divide": {"": "x0 / x1"},
    "negative": {"": "-x0"},
    "positive": {"": "x0"},
    # ---- exp / log ----
    "exp": {"f": "math.exp(x0)", "c": "cmath.exp(x0)"},
    "sqrt": {"f": "math.sqrt(x0)", "c": "cmath.sqrt(x0)"},
    "sin": {"f": "math.sin(x0)", "c": "cmath.sin(x0)"},
    # ---- comparison ----
    "less": {"": "x0 < x1"},
    "equal": {"": "x0 == x1"},
}

# name -> helper names (from npgpu.ufuncs.helpers) its code calls
HELPERS = {}

# aliases NumPy exports under other names
ALIASES = {
    "divide": "true_divide",
}
