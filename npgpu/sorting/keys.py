"""Sort keys: every sortable dtype as unsigned integers that sort, as integers, in NumPy's order.

The radix sort (:mod:`.radix`) only ever compares unsigned integers.  A value of dtype ``dt`` is
read through an unsigned view of its bits (bool as uint8, float16 as uint16, int32/float32 as
uint32, ...; complex as two words per element) and turned into one or more *key parts*, each a
:class:`KeyPart`: an expression of the element's bits giving an unsigned key of ``bits``
significant bits.  A sort by several parts sorts by the last part first, then the one before,
... (the parts are listed least significant first, as LSD radix passes take them).

* bool, unsigned: the bits themselves (bool: 1 bit).
* signed integers: the bits with the sign bit flipped (two's complement -> offset binary).
* floats (NumPy's order, NaN last; -0.0 and +0.0 equal): NaN -> all ones (every NaN, whatever
  its sign or payload, is one key, above +inf); +-0 -> the sign bit alone; negative -> all bits
  inverted; positive -> the sign bit set.  Not invertible, so sorted float *values* travel as a
  payload beside their keys (a stable sort then gives NumPy's stable result bit for bit).
* complex (NumPy's lexicographic order ``[R + Rj, R + nanj, nan + Rj, nan + nanj]``): three
  parts, least significant first: the imaginary part's float key, the real part's float key and
  a 2-bit class ``2 * isnan(re) + isnan(im)``.  Within a class the NaN part's key is constant, so
  ``R + nanj`` values sort by their real part and ``nan + Rj`` ones by their imaginary part.
* descending (the Array API's ``descending=True``): every part XORed with its all-ones mask --
  the exact reverse order, so a stable sort keeps ties in input order; NaN then come first.

A row id (``index // m``) is a key part too: the segmented sort of long rows sorts by it last.
"""
import numpy as np

from .._core.ndarray import _new

_BOOL = np.dtype(np.bool_)

# unsigned dtype of each width (the views kernels read values through, and the key arrays)
UINT = {1: np.dtype(np.uint8), 2: np.dtype(np.uint16), 4: np.dtype(np.uint32),
        8: np.dtype(np.uint64)}
_UNAME = {1: "uint8", 2: "uint16", 4: "uint32", 8: "uint64"}
# float widths: (bits, |x| mask, +inf bits)
_FLOAT = {2: (16, 0x7FFF, 0x7C00), 4: (32, 0x7FFFFFFF, 0x7F800000),
          8: (64, 0x7FFFFFFFFFFFFFFF, 0x7FF0000000000000)}


def uint_name(itemsize):
    return _UNAME[itemsize]


def key_width(bits):
    """Bytes of the unsigned type holding a key of ``bits`` bits."""
    for w in (1, 2, 4, 8):
        if bits <= 8 * w:
            return w
    raise ValueError(bits)


def float_key_source(w):
    """Device functions ``fkey{w}(b)`` (float bits -> key) and ``isnan{w}(b)`` for width ``w``."""
    bits, absmask, inf = _FLOAT[w]
    t = _UNAME[w]
    sign = 1 << (bits - 1)
    ones = (1 << bits) - 1
    return (f"@cuda.jit(device=True)\ndef fkey{w}(b):\n"
            f"    a = {t}(b & {t}({absmask:#x}))\n"
            f"    if a > {t}({inf:#x}):\n"
            f"        return {t}({ones:#x})\n"
            f"    if a == {t}(0):\n"
            f"        return {t}({sign:#x})\n"
            f"    if b >= {t}({sign:#x}):\n"
            f"        return {t}(b ^ {t}({ones:#x}))\n"
            f"    return {t}(b | {t}({sign:#x}))\n\n\n"
            f"@cuda.jit(device=True)\ndef isnan{w}(b):\n"
            f"    return {t}(b & {t}({absmask:#x})) > {t}({inf:#x})\n\n\n"
            # -0.0 or NaN: the values whose key does not give back their bits
            f"@cuda.jit(device=True)\ndef special{w}(b):\n"
            f"    return {t}(b & {t}({absmask:#x})) > {t}({inf:#x}) or b == {t}({sign:#x})\n\n\n"
            # the bits of a key of a value that is neither -0.0 nor NaN
            f"@cuda.jit(device=True)\ndef fdec{w}(k):\n"
            f"    if k >= {t}({sign:#x}):\n"
            f"        return {t}(k ^ {t}({sign:#x}))\n"
            f"    return {t}(k ^ {t}({ones:#x}))\n\n\n")


class KeyPart:
    """One unsigned key of ``bits`` bits per element.

    ``kind``: ``"xor"`` (the element's bits XOR ``xor``: bool, integers; invertible),
    ``"float"`` (the float key of the bits), ``"re"``/``"im"`` (float key of a complex element's
    real/imaginary word), ``"class"`` (complex NaN class), ``"row"`` (``index // m``: no array).
    ``src``: the values as a C-contiguous 1-d unsigned view (complex: two words per element),
    None for ``"row"``.  ``flip``: XOR mask applied last (descending: all ones)."""

    __slots__ = ("kind", "src", "bits", "xor", "flip", "w", "m")

    def __init__(self, kind, src, bits, w, xor=0, flip=0, m=0):
        self.kind, self.src, self.bits, self.w = kind, src, bits, w
        self.xor, self.flip, self.m = xor, flip, m

    @property
    def dtype(self):
        """dtype of the key (and of key arrays between passes)."""
        return UINT[self.w]

    @property
    def invertible(self):
        return self.kind == "xor"

    def device_source(self):
        """Device functions the key expression calls."""
        if self.kind in ("float", "re", "im", "class"):
            return float_key_source(self.src.dtype.itemsize)
        return ""

    def expr(self, X, e):
        """Source of the key (of type ``uint{8*w}``) of element index ``e`` in array ``X``."""
        t = _UNAME[self.w]
        sw = self.src.dtype.itemsize if self.src is not None else 0
        if self.kind == "xor":
            k = f"{X}[{e}]"
            c = self.xor ^ self.flip
            return f"{t}({k} ^ {t}({c:#x}))" if c else f"{t}({k})"
        if self.kind == "float":
            k = f"fkey{sw}({X}[{e}])"
        elif self.kind == "re":
            k = f"fkey{sw}({X}[2 * ({e})])"
        elif self.kind == "im":
            k = f"fkey{sw}({X}[2 * ({e}) + 1])"
        elif self.kind == "class":
            k = (f"{t}(({t}(2) if isnan{sw}({X}[2 * ({e})]) else {t}(0)) | "
                 f"({t}(1) if isnan{sw}({X}[2 * ({e}) + 1]) else {t}(0)))")
        else:           # row
            k = f"{t}(({e}) // m)"
        return f"{t}({k} ^ {t}({self.flip:#x}))" if self.flip else f"{t}({k})"

    def special(self, X, e):
        """Source: is element ``e`` a value whose key does not decode to it (float parts:
        -0.0, NaN)?"""
        return f"special{self.src.dtype.itemsize}({X}[{e}])"

    def decode(self, key):
        """Source of the element's bits from its key (``invertible`` parts; float parts: values
        that are neither -0.0 nor NaN)."""
        t = _UNAME[self.w]
        if self.kind == "float":
            k = f"{t}({key} ^ {t}({self.flip:#x}))" if self.flip else key
            return f"fdec{self.w}({k})"
        c = self.xor ^ self.flip
        return f"{t}({key} ^ {t}({c:#x}))" if c else key

    def cache_key(self):
        return (self.kind, None if self.src is None else self.src.dtype.str, self.bits, self.w,
                self.xor, self.flip)


def bits_view(a):
    """``a`` (C-contiguous) as a 1-d unsigned view of its bits (complex: 2 words an element),
    made directly (a whole-array sort's host path: no reshape, no layout passes)."""
    dt = a._dtype
    u = UINT[dt.itemsize // 2] if dt.kind == "c" else UINT[dt.itemsize]
    if not a._c_contig:
        return a.reshape(-1).view(u)            # (a copy; callers pass contiguous arrays)
    n = 1
    for s in a._shape:
        n *= s
    n = n * dt.itemsize // u.itemsize
    return _new(a._mem, a._ptr, (n,), (u.itemsize,), u, a._root(), (True, True), a._ro)


def parts_for(a, descending=False):
    """The key parts (least significant first) of C-contiguous array ``a``, in NumPy's order."""
    dt = a.dtype
    src = bits_view(a)
    if dt.kind == "b":
        return [KeyPart("xor", src, 1, 1, flip=1 if descending else 0)]
    w = dt.itemsize if dt.kind != "c" else dt.itemsize // 2
    bits = 8 * w
    ones = (1 << bits) - 1
    flip = ones if descending else 0
    if dt.kind == "u":
        return [KeyPart("xor", src, bits, w, flip=flip)]
    if dt.kind == "i":
        return [KeyPart("xor", src, bits, w, xor=1 << (bits - 1), flip=flip)]
    if dt.kind == "f":
        return [KeyPart("float", src, bits, w, flip=flip)]
    if dt.kind == "c":
        return [KeyPart("im", src, bits, w, flip=flip), KeyPart("re", src, bits, w, flip=flip),
                KeyPart("class", src, 2, 1, flip=3 if descending else 0)]
    raise TypeError(f"cannot sort dtype {dt}")


def row_part(nrow, m):
    """The row id ``index // m`` of ``nrow`` rows as a key part (None for one row)."""
    if nrow <= 1:
        return None
    bits = int(nrow - 1).bit_length()
    return KeyPart("row", None, bits, key_width(bits), m=m)
