"""``acl.blas``: the BLAS namespace — gemm / gemv in fp16, int8 and mixed types (blas/gemm.py).

The six ``create_handle_for_*`` functions are not simulated (absent here, reported by the surface).
"""
from .gemm import gemm_ex, gemv_ex, hgemm, hgemv, s8gemm, s8gemv  # noqa: F401

from types import ModuleType as _ModuleType  # noqa: E402

__all__ = [name for name in dir()  # the functions only: a submodule (``model`` …) is not pyACL's
           if not name.startswith("_") and not isinstance(globals()[name], _ModuleType)]
