"""Submodules a package loads on first attribute access (PEP 562's module ``__getattr__``),
for the start-up budget (issue 20): ``npgpu.polynomial``, ``npgpu.testing``,
``npgpu.scipy.ndimage``, ``npgpu.scipy.sparse``."""
import importlib


def lazy_submodules(package, names, namespace):
    """``(__getattr__, __dir__)`` for the package ``package`` (its ``globals()``:
    ``namespace``) whose submodules ``names`` are imported when first read."""
    def __getattr__(name):
        if name in names:
            mod = importlib.import_module(f"{package}.{name}")
            namespace[name] = mod
            return mod
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__():
        return sorted(set(namespace) | set(names))
    return __getattr__, __dir__
