"""Lazy registration with Dask, without importing Dask.

Dask's ``Dispatch.register_lazy("npgpu", fn)`` calls ``fn`` on the first dispatch on a type
whose module is ``npgpu``; :func:`install` puts :func:`_register` there on every Dispatch object
npgpu fills. It needs those objects to exist: when npgpu is imported before Dask, a one-shot
import hook (:class:`_AfterImport`) runs :func:`install` right after ``dask`` and
``dask.array.dispatch`` execute, then leaves ``sys.meta_path``.
"""
import sys

# module -> names of its Dispatch objects that npgpu registers with
_TABLES = {
    "dask.sizeof": ("sizeof",),
    "dask.tokenize": ("normalize_token",),
    "dask.array.dispatch": ("concatenate_lookup", "take_lookup", "tensordot_lookup",
                            "einsum_lookup", "empty_lookup", "divide_lookup",
                            "percentile_lookup", "numel_lookup", "nannumel_lookup",
                            "to_numpy_dispatch", "to_cupy_dispatch"),
}
# the imports after which the Dispatch objects above exist
_WATCHED = {"dask": ("dask.sizeof", "dask.tokenize"), "dask.array.dispatch": ("dask.array.dispatch",)}


def _register():
    from npgpu.dask._dispatch import register_dispatch

    register_dispatch()


def _install_into(module_name):
    module = sys.modules.get(module_name)
    if module is None:
        return
    for table in _TABLES[module_name]:
        getattr(module, table).register_lazy("npgpu", _register)


class _AfterImport:
    """A meta-path finder that only wraps the loaders of the watched Dask modules."""

    def __init__(self):
        self.pending = {name for name in _WATCHED if name not in sys.modules}

    def find_spec(self, name, path, target=None):
        if name not in self.pending:
            return None
        spec = None
        for finder in list(sys.meta_path):
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None:
                break
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        exec_module = spec.loader.exec_module

        def exec_then_install(module):
            exec_module(module)
            # done only once the module ran (a bare importlib.util.find_spec also comes here)
            self.pending.discard(name)
            if not self.pending and self in sys.meta_path:
                sys.meta_path.remove(self)
            for module_name in _WATCHED[name]:
                _install_into(module_name)

        spec.loader.exec_module = exec_then_install
        return spec


def install():
    """Lazy registrations into the Dask modules already imported; a hook for the others."""
    for names in _WATCHED.values():
        for module_name in names:
            _install_into(module_name)
    hook = _AfterImport()
    if hook.pending:
        sys.meta_path.insert(0, hook)
