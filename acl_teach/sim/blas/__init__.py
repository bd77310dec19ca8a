"""``acl.blas``: the BLAS namespace — gemm / gemv in fp16, int8 and mixed types (blas/gemm.py).

The six ``create_handle_for_*`` functions are not simulated (absent here, reported by the surface).
"""
from .gemm import gemm_ex, gemv_ex, hgemm, hgemv, s8gemm, s8gemv  # noqa: F401

from ..core.names import functions_of as _functions_of  # noqa: E402

__all__ = _functions_of(globals())  # the functions only: a submodule (``model`` …) is not pyACL's
