"""acl.op.load (an op model from memory), acl.op.infer_shape and acl.op.update_params."""
import glob
import os

import numpy as np
import pytest

from test_sim_op_helpers import ND, compile_ops, op, tensor

H2D, D2H = 1, 2
ADD = op("Add", [tensor("float32", [2, 3]), tensor("float32", [2, 3])], [tensor("float32", [2, 3])])


def test_op_load_from_memory_then_execute(ready, tmp_path):
    acl = ready
    folder = compile_ops(tmp_path, [ADD])
    path = glob.glob(os.path.join(folder, "**", "*.om"), recursive=True)[0]
    data = open(path, "rb").read()
    assert acl.op.load(acl.util.bytes_to_ptr(data), len(data)) == 0
    junk = b"not an op model"
    assert acl.op.load(acl.util.bytes_to_ptr(junk), len(junk)) == 100000
    assert acl.op.load(0, 10) == 100000
    descs = [acl.create_tensor_desc(0, [2, 3], ND) for _ in range(3)]
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    raw = x.tobytes()
    ptrs = [acl.rt.malloc(24, 0)[0] for _ in range(3)]
    for p in ptrs[:2]:
        acl.rt.memcpy(p, 24, acl.util.bytes_to_ptr(raw), 24, H2D)
    bufs = [acl.create_data_buffer(p, 24) for p in ptrs]
    stream, _ = acl.rt.create_stream()
    assert acl.op.execute_v2("Add", descs[:2], bufs[:2], descs[2:], bufs[2:], 0, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    host, _ = acl.rt.malloc_host(24)
    acl.rt.memcpy(host, 24, ptrs[2], 24, D2H)
    np.testing.assert_array_equal(np.frombuffer(acl.util.ptr_to_bytes(host, 24), np.float32).reshape(2, 3), 2 * x)


def test_infer_shape_writes_the_output_shape(ready, tmp_path):
    acl = ready
    assert acl.op.set_model_dir(compile_ops(tmp_path, [ADD])) == 0
    a = acl.create_tensor_desc(0, [5, 7], ND)
    b = acl.create_tensor_desc(0, [1, 7], ND)   # broadcast: ONNX shape inference gives [5, 7]
    y = acl.create_tensor_desc(0, [0], ND)
    assert acl.op.infer_shape("Add", [a, b], [0, 0], 1, [y], 0) == 0
    assert acl.get_tensor_desc_num_dims(y) == 2
    assert [acl.get_tensor_desc_dim_v2(y, i)[0] for i in range(2)] == [5, 7]
    same = [acl.create_tensor_desc(0, [2, 3], ND) for _ in range(2)]
    assert acl.op.infer_shape("Add", same, [0, 0], 1, [y], 0) == 0
    assert [acl.get_tensor_desc_dim_v2(y, i)[0] for i in range(2)] == [2, 3]
    bad = acl.create_tensor_desc(0, [4, 9], ND)
    assert acl.op.infer_shape("Add", [a, bad], [0, 0], 1, [y], 0) == 100024  # 7 vs 9 cannot broadcast
    assert acl.op.infer_shape("Relu", [a], [0], 1, [y], 0) == 100024           # nothing of that type loaded
    i32 = acl.create_tensor_desc(3, [2, 3], ND)
    assert acl.op.infer_shape("Add", [i32, i32], [0, 0], 1, [y], 0) == 100024  # other data types
    assert acl.op.infer_shape("Add", [a, b], [0, 0], 2, [y, y], 0) == 100000
    with pytest.raises(TypeError, match="argument 2, 3, or 5 is not list"):
        acl.op.infer_shape("Add", (a, b), [0, 0], 1, [y], 0)


def test_update_params_has_no_registered_compile_function(ready):
    acl = ready
    d = acl.create_tensor_desc(0, [2], ND)
    assert acl.op.update_params("MyKernel", [d], [d], 0) == 100028
    with pytest.raises(TypeError, match="argument 2 or 3 is not list"):
        acl.op.update_params("MyKernel", d, [d], 0)
