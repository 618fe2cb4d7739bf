"""Sorting (issue 14): the radix sort primitive (:mod:`.radix`, :mod:`.keys`) and NumPy's
sorting functions on top of it (:mod:`.functions`).  Searching, sets, counting and order
statistics live in sibling modules and build on :func:`argsort` / :func:`sort`."""
from .functions import argpartition, argsort, lexsort, partition, sort, sort_complex

__all__ = ["sort", "argsort", "lexsort", "sort_complex", "partition", "argpartition"]
