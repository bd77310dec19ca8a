"""Regressions: no single-operator call may raise a Python exception or poison its stream.

Bad calls are refused at the call with a code; a kernel that fails on the device reports a code
from synchronize_stream exactly once, and the stream keeps working."""
import numpy as np
import pytest

from test_sim_op_helpers import ND, compile_ops, device, empty, fetch, op, tensor
from acl_teach.spec import constants as C

CAST = op("Cast", [tensor("float32", [4])], [tensor("float16", [4])], {"dst_type": ("int", 1)})
ARGMAX = op("ArgMaxD", [tensor("float16", [4])], [tensor("int32", [1])], {"dimension": ("int", 0)})
DIV = op("Div", [tensor("int32", [3]), tensor("int32", [3])], [tensor("int32", [3])])


@pytest.fixture
def ops(ready, tmp_path):
    """acl ready, a stream, and Cast/ArgMaxD/Div compiled and loaded."""
    assert ready.op.set_model_dir(compile_ops(tmp_path, [CAST, ARGMAX, DIV])) == 0
    stream, _ = ready.rt.create_stream()
    return ready, stream


def _cast_works(acl, stream):
    """The stream still runs work after whatever happened before."""
    src, dst = (acl.create_tensor_desc(t, [4], ND) for t in (C.ACL_FLOAT, C.ACL_FLOAT16))
    (_, sb), (dp, db) = device(acl, np.array([1.5, -2, 3, 4], np.float32)), empty(acl, 8)
    assert acl.op.cast(src, sb, dst, db, 0, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    return fetch(acl, dp, np.float16, (4,)).tolist() == [1.5, -2.0, 3.0, 4.0]


def test_cast_with_no_inputs_is_refused_at_the_call(ops):
    acl, stream = ops
    d = acl.create_tensor_desc(C.ACL_FLOAT16, [4], ND)
    _, buf = empty(acl, 8)
    assert acl.op.execute_v2("Cast", [], [], [d], [buf], 0, stream) == 100024
    for _ in range(3):
        assert acl.rt.synchronize_stream(stream) == 0
    assert _cast_works(acl, stream)


def test_argmax_dimension_that_does_not_fit_a_c_int(ops):
    acl, stream = ops
    attr = acl.op.create_attr()
    assert acl.op.set_attr_int(attr, "dimension", 2 ** 40) == 0
    x, y = acl.create_tensor_desc(C.ACL_FLOAT16, [4], ND), acl.create_tensor_desc(C.ACL_INT32, [1], ND)
    (_, xb), (_, yb) = device(acl, np.ones(4, np.float16)), empty(acl, 4)
    assert acl.op.execute_v2("ArgMaxD", [x], [xb], [y], [yb], attr, stream) == 100024
    assert acl.rt.synchronize_stream(stream) == 0
    assert _cast_works(acl, stream)


def test_argmax_over_an_empty_axis(ops, tmp_path):
    acl, stream = ops
    attr = acl.op.create_attr()
    acl.op.set_attr_int(attr, "dimension", 0)
    x = acl.create_tensor_desc(C.ACL_FLOAT16, [0], ND)
    (_, xb), (_, yb) = empty(acl, 0), empty(acl, 4)
    y = acl.create_tensor_desc(C.ACL_INT32, [1], ND)
    assert acl.op.execute_v2("ArgMaxD", [x], [xb], [y], [yb], attr, stream) == 100024
    y0 = acl.create_tensor_desc(C.ACL_INT32, [0], ND)  # every output empty: nothing to do (IsAllTensorEmpty)
    assert acl.op.execute_v2("ArgMaxD", [x], [xb], [y0], [yb], attr, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert _cast_works(acl, stream)


def test_cast_on_a_desc_too_big_for_memory(ops):
    acl, stream = ops
    src = acl.create_tensor_desc(C.ACL_FLOAT, [2 ** 31, 2 ** 31, 4], ND)
    dst = acl.create_tensor_desc(C.ACL_FLOAT16, [2 ** 31, 2 ** 31, 4], ND)
    assert acl.get_tensor_desc_size(src) == 0  # 2**66 bytes overflow size_t: CANN reports 0
    (_, sb), (_, db) = empty(acl, 16), empty(acl, 8)
    assert acl.op.cast(src, sb, dst, db, 0, stream) == 100024
    assert acl.rt.synchronize_stream(stream) == 0
    assert _cast_works(acl, stream)


def test_dims_beyond_int64_fail_in_argument_parsing(ready):
    with pytest.raises(ValueError, match="PyLong_AsLongLong failed"):
        ready.create_tensor_desc(0, [2 ** 70], 2)
    with pytest.raises(ValueError, match="PyLong_AsLongLong failed"):
        ready.create_tensor_desc(0, [-(2 ** 63) - 1], 2)
    assert ready.create_tensor_desc(0, [2 ** 63 - 1], 2) != 0


def test_a_kernel_failure_is_reported_once_and_the_stream_recovers(ops):
    acl, stream = ops
    d = [acl.create_tensor_desc(C.ACL_INT32, [3], ND) for _ in range(3)]
    (_, a), (_, b), (_, c) = device(acl, np.array([1, 2, 3], np.int32)), device(acl, np.array([1, 0, 1], np.int32)), \
        empty(acl, 12)
    assert acl.op.execute_v2("Div", d[:2], [a, b], d[2:], [c], 0, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 507015
    assert "Div failed on the device" in acl.get_recent_err_msg()
    assert acl.rt.synchronize_stream(stream) == 0
    assert _cast_works(acl, stream)


def test_memory_freed_before_the_stream_runs(ops):
    acl, stream = ops
    src, dst = (acl.create_tensor_desc(t, [4], ND) for t in (C.ACL_FLOAT, C.ACL_FLOAT16))
    (sp, sb), (_, db) = device(acl, np.ones(4, np.float32)), empty(acl, 8)
    assert acl.op.cast(src, sb, dst, db, 0, stream) == 0
    assert acl.rt.free(sp) == 0
    assert acl.rt.synchronize_stream(stream) == 507011
    assert acl.rt.synchronize_stream(stream) == 0
    assert _cast_works(acl, stream)


def test_a_value_dependent_kernel_checks_the_values_it_was_built_for(ready, tmp_path):
    """ArgMaxV2 compiled with a non-const dimension: the output shape fixes it; another value fails on the device."""
    argmax = op("ArgMaxV2", [tensor("float32", [3, 5]), tensor("int32", [1])], [tensor("int32", [3])],
                {"dtype": ("data_type", "DT_INT32")})
    acl = ready
    assert acl.op.set_model_dir(compile_ops(tmp_path, [argmax])) == 0
    stream, _ = acl.rt.create_stream()
    attr = acl.op.create_attr()
    assert acl.op.set_attr_data_type(attr, "dtype", C.ACL_INT32) == (attr, 0)
    x = np.array([[0, 9, 1, 2, 3], [7, 1, 1, 1, 1], [1, 1, 1, 1, 8]], np.float32)
    descs = [acl.create_tensor_desc(t, s, ND) for t, s in ((0, [3, 5]), (3, [1]), (3, [3]))]
    (_, xb), (_, yb) = device(acl, x), empty(acl, 12)
    for value, code, want in ((1, 0, [1, 0, 4]), (-1, 0, [1, 0, 4]), (0, 507015, None)):
        _, db = device(acl, np.array([value], np.int32))
        yp, yb = empty(acl, 12)
        assert acl.op.execute_v2("ArgMaxV2", descs[:2], [xb, db], descs[2:], [yb], attr, stream) == 0
        assert acl.rt.synchronize_stream(stream) == code
        if want:
            assert fetch(acl, yp, np.int32, (3,)).tolist() == want


@pytest.mark.parametrize("args", [
    ("Cast", [0], [0], [0], [0], 0, 0),
    ("Cast", [1 << 63], [12345], [7], [8], 99, 0),
    ("Cast", [-1], [-1], [-1], [-1], 0, 0),
    ("", [], [], [], [], 0, 0),
    ("Add", [], [], [], [], 0, 0),
])
def test_garbage_handles_give_codes_not_exceptions(ops, args):
    acl, stream = ops
    ret = acl.op.execute_v2(*args[:-1], stream)
    assert isinstance(ret, int) and ret != 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert _cast_works(acl, stream)
