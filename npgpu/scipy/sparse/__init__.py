"""SciPy's ``scipy.sparse`` on the device: CSR/CSC/COO/DIA matrices and arrays of npgpu arrays,
products through cuSPARSE (``_cusparse.py``) or generated kernels (``_kernels.py``), every
conversion and operation with npgpu's own sort, scan and compaction.  ``docs/sparse.md``."""
from ._base import (issparse, isspmatrix, isspmatrix_csr, isspmatrix_csc, isspmatrix_coo,
                    isspmatrix_dia, SparseEfficiencyWarning, sparray, spmatrix)
from ._compressed import csr_matrix, csr_array, csc_matrix, csc_array
from ._coo import coo_matrix, coo_array
from ._dia import dia_matrix, dia_array
from ._construct import (eye, eye_array, identity, diags, diags_array, spdiags, random,
                         random_array, rand, kron, kronsum, hstack, vstack, bmat, block_array,
                         block_diag, find, tril, triu)
from . import linalg

__all__ = ["issparse", "isspmatrix", "isspmatrix_csr", "isspmatrix_csc", "isspmatrix_coo",
           "isspmatrix_dia", "SparseEfficiencyWarning", "csr_matrix", "csr_array", "csc_matrix",
           "csc_array",
           "coo_matrix", "coo_array", "dia_matrix", "dia_array", "eye", "eye_array",
           "identity", "diags", "diags_array", "spdiags", "random", "random_array", "rand",
           "kron", "kronsum", "hstack", "vstack", "bmat", "block_array", "block_diag", "find",
           "tril", "triu", "sparray", "spmatrix", "linalg"]
