"""Device-function helpers that ufunc loops call by name (sources, rendered into kernels).

Each entry is the source of one ``def``; a table row lists the helpers it
uses in ``table.HELPERS``.  Helpers may call helpers listed before them.
"""

SOURCES = {}
