"""acl.blas: gemm/gemv queued on a stream, computed as numpy does, with the binding's formats."""
import numpy as np
import pytest

from acl_teach.spec import blas as B

H2D, D2H = 1, 2
FP16, FP32, INT8, INT32 = 1, 0, 2, 3


def _dev(acl, array, keep):
    raw = np.ascontiguousarray(array).tobytes()
    keep.append(raw)
    ptr, _ = acl.rt.malloc(len(raw), 0)
    acl.rt.memcpy(ptr, len(raw), acl.util.bytes_to_ptr(raw), len(raw), H2D)
    return ptr


def _back(acl, ptr, like):
    host, _ = acl.rt.malloc_host(like.nbytes)
    acl.rt.memcpy(host, like.nbytes, ptr, like.nbytes, D2H)
    return np.frombuffer(acl.util.ptr_to_bytes(host, like.nbytes), like.dtype).reshape(like.shape)


def test_hgemm_with_transposed_a(ready):
    acl, keep = ready, []
    rng = np.random.default_rng(0)
    m, n, k = 4, 5, 3
    a = rng.standard_normal((k, m)).astype(np.float16)   # stored k x m, used transposed
    b = rng.standard_normal((k, n)).astype(np.float16)
    c = rng.standard_normal((m, n)).astype(np.float16)
    alpha, beta = np.float16(2.0), np.float16(0.5)
    pa, pb, pc = _dev(acl, a, keep), _dev(acl, b, keep), _dev(acl, c, keep)
    pal, pbe = _dev(acl, np.array([alpha]), keep), _dev(acl, np.array([beta]), keep)
    s, _ = acl.rt.create_stream()
    assert acl.blas.hgemm(B.ACL_TRANS_T, B.ACL_TRANS_N, B.ACL_TRANS_N, m, n, k, pal, pa, m, pb, n, pbe, pc, n,
                          B.ACL_COMPUTE_HIGH_PRECISION, s) == 0
    np.testing.assert_array_equal(_back(acl, pc, c), c)   # not run before the stream is
    assert acl.rt.synchronize_stream(s) == 0
    want = (2.0 * (a.astype(np.float64).T @ b.astype(np.float64)) + 0.5 * c.astype(np.float64)).astype(np.float16)
    assert _back(acl, pc, c).tobytes() == want.tobytes()


def test_s8gemm_and_gemm_ex(ready):
    acl, keep = ready, []
    a = np.array([[1, -2], [3, 4]], np.int8)
    b = np.array([[5, 6, 7], [-8, 9, 10]], np.int8)
    c = np.ones((2, 3), np.int32)
    pa, pb, pc = _dev(acl, a, keep), _dev(acl, b, keep), _dev(acl, c, keep)
    one, two = _dev(acl, np.array([1], np.int32), keep), _dev(acl, np.array([2], np.int32), keep)
    s, _ = acl.rt.create_stream()
    assert acl.blas.s8gemm(0, 0, 0, 2, 3, 2, one, pa, 2, pb, 3, two, pc, 3, 0, s) == 0
    acl.rt.synchronize_stream(s)
    np.testing.assert_array_equal(_back(acl, pc, c), a.astype(np.int32) @ b.astype(np.int32) + 2)
    c32 = np.zeros((2, 3), np.float32)
    pc32 = _dev(acl, c32, keep)
    f1, f0 = _dev(acl, np.array([1.0], np.float32), keep), _dev(acl, np.array([0.0], np.float32), keep)
    ah, bh = a.astype(np.float16), b.astype(np.float16)
    assert acl.blas.gemm_ex(0, 0, 0, 2, 3, 2, f1, _dev(acl, ah, keep), 2, FP16, _dev(acl, bh, keep), 3, FP16, f0,
                            pc32, 3, FP32, 0, s) == 0
    acl.rt.synchronize_stream(s)
    np.testing.assert_array_equal(_back(acl, pc32, c32), ah.astype(np.float32) @ bh.astype(np.float32))
    assert acl.blas.gemm_ex(0, 0, 0, 2, 3, 2, f1, pa, 2, FP16, pb, 3, INT8, f0, pc32, 3, FP32, 0, s) == 100000
    assert acl.blas.gemm_ex(0, 0, 0, 2, 3, 2, f1, pa, 1, FP16, pb, 3, FP16, f0, pc32, 3, FP32, 0, s) == 100000
    assert acl.blas.gemm_ex(2, 0, 0, 2, 3, 2, f1, pa, 2, FP16, pb, 3, FP16, f0, pc32, 3, FP32, 0, s) == 207000
    with pytest.raises(TypeError, match="acl.blas.gemm_ex args parse failed"):
        acl.blas.gemm_ex(0, 0, 0, 2, 3, 2, f1, pa, 2, FP16, pb, 3, FP16, f0, pc32, 3, FP32, 0)


def test_gemv_ex_reads_x_with_incy_as_the_binding_does(ready, acl):
    r, keep = ready, []
    a = np.arange(6, dtype=np.float16).reshape(2, 3)
    x = np.array([1, 100, 2, 100, 3, 100], np.float16)   # stride 2
    y = np.zeros(4, np.float16)                          # stride 2 too
    pa, px, py = _dev(r, a, keep), _dev(r, x, keep), _dev(r, y, keep)
    one, zero = _dev(r, np.array([1], np.float16), keep), _dev(r, np.array([0], np.float16), keep)
    s, _ = r.rt.create_stream()
    assert r.blas.gemv_ex(0, 2, 3, one, pa, 3, FP16, px, 1, FP16, zero, py, 2, FP16, 0, s) == 0
    from acl_teach import sim
    assert any("incy" in w.message for w in sim.warnings())
    r.rt.synchronize_stream(s)
    got = _back(r, py, y)
    np.testing.assert_array_equal(got[::2], a.astype(np.float32) @ np.array([1, 2, 3], np.float32))
    hy = np.zeros(3, np.float16)
    phy = _dev(r, hy, keep)
    ones = _dev(r, np.array([1, 1], np.float16), keep)
    assert r.blas.hgemv(B.ACL_TRANS_T, 2, 3, one, pa, 3, ones, 1, zero, phy, 1, 0, s) == 0
    r.rt.synchronize_stream(s)
    np.testing.assert_array_equal(_back(r, phy, hy), a.sum(axis=0))


def test_blas_handles_are_left_to_the_not_simulated_surface(acl):
    from acl_teach import sim
    assert sim.blas.__all__ == ["gemm_ex", "gemv_ex", "hgemm", "hgemv", "s8gemm", "s8gemv"]
    assert not hasattr(sim.blas, "create_handle_for_hgemm")
    with pytest.raises(sim.NotSimulatedError, match="acl.blas.create_handle_for_hgemm"):
        acl.blas.create_handle_for_hgemm(0, 0, 0, 0, 0, 0, 0)
