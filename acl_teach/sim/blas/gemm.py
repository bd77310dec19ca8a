"""``acl.blas``: matrix-matrix and matrix-vector products queued on a stream, computed with numpy.

gemm: C = alpha * op(A) @ op(B) + beta * C (op: as is, or transposed with ACL_TRANS_T); gemv:
y = alpha * op(A) @ x + beta * y. *simulator:* matrices are read row-major with leading dimensions
lda/ldb/ldc (elements between rows), vectors with strides inc (elements), scalars alpha/beta from the
memory their pointers name (the data types are those of C: fp16 for hgemm, int32 for s8gemm, the
``data_type_c`` of gemm_ex); the product is computed in float64 (int64 for int8) and rounded to C's
type. The work runs when the stream does, like an operator, and bills the simulated clock
(timeline.py). ACL_TRANS_NZ layouts are not simulated and say so; the ``create_handle_for_*``
functions (handles run through acl.op.execute_with_handle) are not here at all, so the binding-table
surface answers them as not simulated.

Formats from blas.cpp at 134e2edb. Note the binding's own slip kept here: WrapAclblasGemvEx parses
``incx`` but passes ``incy`` in its place, so on a board x is read with y's stride; the simulator
does the same and warns when they differ. UNCONFIRMED codes: 100000 for sizes, leading dimensions,
strides or data types outside what the product needs; 207000 for what is not simulated.
"""
from __future__ import annotations

from typing import Any, List, Optional, Tuple

import numpy as np

from ...spec import blas as B
from ...spec import constants as C
from ...spec import dtypes
from ..core.args import INIT, binding
from ..rt.memory import space
from ..core.state import fail, warn
from ..rt.stream import enqueue, resolve_stream
from ..core.timeline import OP_OVERHEAD_US, charge, compute_cost

GEMM_TYPES = {(C.ACL_FLOAT16, C.ACL_FLOAT16), (C.ACL_FLOAT16, C.ACL_FLOAT), (C.ACL_INT8, C.ACL_INT32),
              (C.ACL_INT8, C.ACL_FLOAT), (C.ACL_FLOAT, C.ACL_FLOAT)}  # (A and B, C) UNCONFIRMED


class BlasError(Exception):
    def __init__(self, code: int, why: str) -> None:
        super().__init__(why)
        self.code, self.why = code, why


def _view(addr: int, count: int, acl_type: int, what: str) -> np.ndarray:
    """``count`` elements of ``acl_type`` at ``addr`` (writable view into simulated memory)."""
    dt = dtypes.numpy_dtype(acl_type)
    region, offset, why = space().resolve(addr, count * dt.itemsize)
    if region is None:
        raise BlasError(507015, f"{what}: {why}")
    return region.view(offset, count * dt.itemsize).view(dt)


def _matrix(addr: int, rows: int, cols: int, ld: int, acl_type: int, what: str) -> np.ndarray:
    """A rows x cols row-major matrix with leading dimension ``ld`` (a strided view)."""
    flat = _view(addr, (rows - 1) * ld + cols, acl_type, what)
    return np.lib.stride_tricks.as_strided(flat, (rows, cols), (ld * flat.itemsize, flat.itemsize))


def _vector(addr: int, n: int, inc: int, acl_type: int, what: str) -> np.ndarray:
    flat = _view(addr, (n - 1) * inc + 1, acl_type, what)
    return flat[::inc]


def _trans(api: str, value: int, what: str) -> bool:
    if value in (B.ACL_TRANS_NZ, B.ACL_TRANS_NZ_T):
        raise BlasError(207000, f"{what}: the fractal NZ layouts (ACL_TRANS_NZ, ACL_TRANS_NZ_T) are not simulated.")
    if value not in (B.ACL_TRANS_N, B.ACL_TRANS_T):
        raise BlasError(100000, f"{what} {value} is not an aclTransType (0 N, 1 T, 2 NZ, 3 NZ_T).")
    return value == B.ACL_TRANS_T


def _store(target: np.ndarray, value: np.ndarray) -> None:
    if np.issubdtype(target.dtype, np.integer):
        info = np.iinfo(target.dtype)
        value = np.clip(np.rint(value), info.min, info.max)
    target[...] = value.astype(target.dtype)


def _queue(api: str, stream: int, label: str, work) -> int:
    handle, ret = resolve_stream(api, stream)
    if ret:
        return ret

    def task() -> Optional[Tuple[int, str]]:
        try:
            macs, nbytes = work()
        except BlasError as exc:
            return exc.code, f"{label}: {exc.why}"
        charge(label, "operator", compute_cost(macs, nbytes, OP_OVERHEAD_US))
        return None

    return enqueue(handle, label, task, api, cat="operator")


def _gemm(api, trans, m, n, k, alpha, a, lda, ta, b, ldb, tb, beta, c, ldc, tc, stream) -> int:
    try:
        t_a, t_b = _trans(api, trans[0], "trans_a"), _trans(api, trans[1], "trans_b")
        _trans(api, trans[2], "trans_c")
        if min(m, n, k) <= 0:
            raise BlasError(100000, f"m, n, k = {m}, {n}, {k} must all be positive.")
        need = ((m if t_a else k), (k if t_b else n), n)
        for name, ld, cols in (("lda", lda, need[0]), ("ldb", ldb, need[1]), ("ldc", ldc, need[2])):
            if ld < cols:
                raise BlasError(100000, f"{name} {ld} is smaller than the {cols} columns its matrix has (row-major).")
        if ta != tb or (ta, tc) not in GEMM_TYPES:
            raise BlasError(100000, f"data types A {dtypes.type_name(ta)}, B {dtypes.type_name(tb)}, "
                            f"C {dtypes.type_name(tc)} are not a supported combination.")
    except BlasError as exc:
        return fail(exc.code, api, exc.why)

    def work():
        ma = _matrix(a, k if t_a else m, need[0], lda, ta, "A")
        mb = _matrix(b, n if t_b else k, need[1], ldb, tb, "B")
        mc = _matrix(c, m, n, ldc, tc, "C")
        al, be = (float(_view(p, 1, tc, w)[0]) for p, w in ((alpha, "alpha"), (beta, "beta")))
        wide = np.int64 if ta == C.ACL_INT8 else np.float64
        prod = (ma.T if t_a else ma).astype(wide) @ (mb.T if t_b else mb).astype(wide)
        _store(mc, al * prod + be * mc.astype(np.float64))
        return m * n * k, ma.nbytes + mb.nbytes + 2 * mc.nbytes

    return _queue(api, stream, f"gemm {m}x{n}x{k}", work)


def _gemv(api, trans, m, n, alpha, a, lda, ta, x, incx, beta, y, incy, ty, stream) -> int:
    try:
        t_a = _trans(api, trans, "trans_a")
        if min(m, n) <= 0 or lda < n or incx <= 0 or incy <= 0:
            raise BlasError(100000, f"m {m}, n {n} must be positive, lda {lda} >= n, incx/incy positive.")
    except BlasError as exc:
        return fail(exc.code, api, exc.why)

    def work():
        ma = _matrix(a, m, n, lda, ta, "A")
        vx = _vector(x, m if t_a else n, incx, ta, "x")
        vy = _vector(y, n if t_a else m, incy, ty, "y")
        al, be = (float(_view(p, 1, ty, w)[0]) for p, w in ((alpha, "alpha"), (beta, "beta")))
        wide = np.int64 if ta == C.ACL_INT8 else np.float64
        prod = (ma.T if t_a else ma).astype(wide) @ vx.astype(wide)
        _store(vy, al * prod + be * vy.astype(np.float64))
        return m * n, ma.nbytes + vx.nbytes + 2 * vy.nbytes

    return _queue(api, stream, f"gemv {m}x{n}", work)


@binding("acl.blas.gemm_ex", "iiiiiikkiikiikkiiik", needs=INIT)
def gemm_ex(api, trans_a, trans_b, trans_c, m, n, k, alpha, matrix_a, lda, data_type_a, matrix_b, ldb,
            data_type_b, beta, matrix_c, ldc, data_type_c, compute_type, stream):
    """C = alpha * op(A) @ op(B) + beta * C with the data types given (queued on ``stream``)."""
    return _gemm(api, (trans_a, trans_b, trans_c), m, n, k, alpha, matrix_a, lda, data_type_a, matrix_b, ldb,
                 data_type_b, beta, matrix_c, ldc, data_type_c, stream)


@binding("acl.blas.hgemm", "iiiiiikkikikkiik", needs=INIT)
def hgemm(api, trans_a, trans_b, trans_c, m, n, k, alpha, matrix_a, lda, matrix_b, ldb, beta, matrix_c, ldc,
          compute_type, stream):
    """gemm with A, B, C, alpha and beta all fp16."""
    h = C.ACL_FLOAT16
    return _gemm(api, (trans_a, trans_b, trans_c), m, n, k, alpha, matrix_a, lda, h, matrix_b, ldb, h, beta,
                 matrix_c, ldc, h, stream)


@binding("acl.blas.s8gemm", "iiiiiikkikikkiik", needs=INIT)
def s8gemm(api, trans_a, trans_b, trans_c, m, n, k, alpha, matrix_a, lda, matrix_b, ldb, beta, matrix_c, ldc,
           compute_type, stream):
    """gemm with A, B int8 and C, alpha, beta int32."""
    return _gemm(api, (trans_a, trans_b, trans_c), m, n, k, alpha, matrix_a, lda, C.ACL_INT8, matrix_b, ldb,
                 C.ACL_INT8, beta, matrix_c, ldc, C.ACL_INT32, stream)


@binding("acl.blas.gemv_ex", "iiikkiikiikkiiik", needs=INIT)
def gemv_ex(api, trans_a, m, n, alpha, a, lda, data_type_a, x, incx, data_type_x, beta, y, incy, data_type_y,
            compute_type, stream):
    """y = alpha * op(A) @ x + beta * y; as in the binding, x is read with incy's stride."""
    if incx != incy:
        warn(0, api, f"incx {incx} differs from incy {incy}: pyACL's binding passes incy for both "
             f"(blas.cpp), so x is read with stride {incy} — on a board too.")
    if data_type_a != data_type_x or (data_type_a, data_type_y) not in GEMM_TYPES:
        return fail(100000, api, "data types A/x/y are not a supported combination.")
    return _gemv(api, trans_a, m, n, alpha, a, lda, data_type_a, x, incy, beta, y, incy, data_type_y, stream)


@binding("acl.blas.hgemv", "iiikkikikkiik", needs=INIT)
def hgemv(api, trans_a, m, n, alpha, a, lda, x, incx, beta, y, incy, compute_type, stream):
    """gemv with everything fp16."""
    return _gemv(api, trans_a, m, n, alpha, a, lda, C.ACL_FLOAT16, x, incx, beta, y, incy, C.ACL_FLOAT16, stream)


@binding("acl.blas.s8gemv", "iiikkikikkiik", needs=INIT)
def s8gemv(api, trans_a, m, n, alpha, a, lda, x, incx, beta, y, incy, compute_type, stream):
    """gemv with A, x int8 and y, alpha, beta int32."""
    return _gemv(api, trans_a, m, n, alpha, a, lda, C.ACL_INT8, x, incx, beta, y, incy, C.ACL_INT32, stream)
