"""SciPy's ``scipy.sparse.linalg`` on npgpu: linear operators, Krylov solvers, direct solves,
norms and a few extreme eigenpairs / singular triplets (``docs/sparse_linalg.md``)."""
from ._interface import IdentityOperator, LinearOperator, MatrixLinearOperator, aslinearoperator
from ._iterative import bicgstab, cg, cgs, gmres
from ._minres import minres
from ._dsolve import MatrixRankWarning, spsolve, spsolve_triangular
from ._norm import norm
from ._eigen import ArpackNoConvergence, eigsh, svds

__all__ = ["LinearOperator", "aslinearoperator", "IdentityOperator", "MatrixLinearOperator",
           "cg", "cgs", "bicgstab", "gmres", "minres", "spsolve", "spsolve_triangular",
           "MatrixRankWarning", "norm", "eigsh", "svds", "ArpackNoConvergence"]
