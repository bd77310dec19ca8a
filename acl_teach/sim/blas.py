"""``acl.blas``: the BLAS namespace — gemm / gemv in fp16, int8 and mixed types (cblas.py)."""
from .cblas import (create_handle_for_gemm_ex, create_handle_for_gemv_ex, create_handle_for_hgemm,  # noqa: F401
                    create_handle_for_hgemv, create_handle_for_s8gemm, create_handle_for_s8gemv, gemm_ex, gemv_ex,
                    hgemm, hgemv, s8gemm, s8gemv)

__all__ = sorted(name for name in dir() if not name.startswith("_"))
