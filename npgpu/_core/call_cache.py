"""What the host-replay fast paths share: keys from plain Python arguments, and bounded caches.

A repeat call of a function whose arguments are plain Python values replays the launch its
first call stored (``_remap`` for tile/roll/pad, take along the last axis, ndimage's filters and
interpolation).  Its key carries each argument with its type: ``3``, ``3.0`` and ``True`` hash
alike but NumPy and SciPy answer them differently.  Anything else (NumPy scalars, lists,
arrays) keys nothing, so such calls take the full path and its errors.
"""
PLAIN = frozenset((int, float, str, bool, type(None)))


def plain_key(value):
    """``value`` with the type of every item beside it, or None for anything but plain values
    and tuples of them."""
    t = type(value)
    if t in PLAIN:
        return (t, value)
    if t is tuple:
        items = tuple(plain_key(v) for v in value)
        return None if None in items else (t, items)
    return None


def store(cache, key, value, cap=256):
    """``cache[key] = value``, a full cache (``cap`` entries) emptied first; returns ``value``."""
    if len(cache) >= cap:
        cache.clear()
    cache[key] = value
    return value
