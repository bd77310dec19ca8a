"""``acl.blas``: the BLAS namespace — gemm / gemv in fp16, int8 and mixed types (cblas.py).

The six ``create_handle_for_*`` functions are not simulated (absent here, reported by the surface).
"""
from .cblas import gemm_ex, gemv_ex, hgemm, hgemv, s8gemm, s8gemv  # noqa: F401

__all__ = sorted(name for name in dir() if not name.startswith("_"))
