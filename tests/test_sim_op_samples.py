"""Single operators the way the official samples use them (acl_operator_add, execute-slice, BatchMatMul):
ops compiled by `acl-teach atc --singleop`, run through acl.op on a stream, results compared byte for byte."""
import numpy as np

from acl_teach.sim import inspect as sim_inspect
from test_sim_op_helpers import ND, compile_ops, device, empty, fetch, om_files, op, tensor
from acl_teach.spec import constants as C

F32, F16, I32, I64 = 0, 1, 3, 9
ADD = op("Add", [tensor("float16", [8, 16]), tensor("float16", [8, 16])], [tensor("float16", [8, 16])])


def _open(acl, folder):
    """init -> device -> context -> stream -> set_model_dir, as the samples do."""
    assert acl.init() == 0
    assert acl.rt.set_device(0) == 0
    context, ret = acl.rt.create_context(0)
    assert ret == 0
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    assert acl.op.set_model_dir(folder) == 0
    return context, stream


def _close(acl, context, stream):
    assert acl.rt.destroy_stream(stream) == 0
    assert acl.rt.destroy_context(context) == 0
    assert acl.rt.reset_device(0) == 0
    assert acl.finalize() == 0


def test_acl_operator_add_sample(acl, tmp_path):
    """Add of two fp16 [8, 16] tensors: file named like ATC names it, result equal to numpy's bytes."""
    folder = compile_ops(tmp_path, [ADD])
    assert om_files(folder) == ["0_Add_1_2_8_16_1_2_8_16_1_2_8_16.om"]
    context, stream = _open(acl, folder)
    rng = np.random.default_rng(7)
    a = rng.standard_normal((8, 16)).astype(np.float16)
    b = rng.standard_normal((8, 16)).astype(np.float16)
    descs = [acl.create_tensor_desc(C.ACL_FLOAT16, [8, 16], C.ACL_FORMAT_ND) for _ in range(3)]
    assert acl.get_tensor_desc_size(descs[0]) == 256
    (pa, ba), (pb, bb) = device(acl, a), device(acl, b)
    pc, bc = empty(acl, acl.get_tensor_desc_size(descs[2]))
    attr = acl.op.create_attr()
    assert acl.op.execute_v2("Add", descs[:2], [ba, bb], descs[2:], [bc], attr, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert fetch(acl, pc, np.float16, (8, 16)).tobytes() == (a + b).tobytes()
    acl.op.destroy_attr(attr)
    for d in descs:
        acl.destroy_tensor_desc(d)
    for buf in (ba, bb, bc):
        assert acl.destroy_data_buffer(buf) == 0
    for ptr in (pa, pb, pc):
        assert acl.rt.free(ptr) == 0
    _close(acl, context, stream)
    assert sim_inspect.leaks() == []


def test_acl_execute_slice_sample(acl, tmp_path):
    """Slice with offsets/size given as const tensors (is_const + acl.set_tensor_const), and SliceD with attrs."""
    offsets, size = np.array([1, 2], np.int32), np.array([2, 3], np.int32)
    ops = [op("Slice", [tensor("float32", [4, 6]),
                        tensor("int32", [2], is_const=True, const_value=offsets.tolist()),
                        tensor("int32", [2], is_const=True, const_value=size.tolist())],
              [tensor("float32", [2, 3])]),
           op("SliceD", [tensor("float32", [4, 6])], [tensor("float32", [2, 3])],
              {"offsets": ("list_int", [1, 2]), "size": ("list_int", [2, 3])})]
    context, stream = _open(acl, compile_ops(tmp_path, ops))
    x = np.arange(24, dtype=np.float32).reshape(4, 6) / 7
    px, bx = device(acl, x)
    x_desc = acl.create_tensor_desc(C.ACL_FLOAT, [4, 6], ND)
    y_desc = acl.create_tensor_desc(C.ACL_FLOAT, [2, 3], ND)
    const_descs = []
    for values in (offsets, size):
        desc = acl.create_tensor_desc(C.ACL_INT32, [2], ND)
        data = values.tobytes()
        assert acl.set_tensor_const(desc, acl.util.bytes_to_ptr(data), len(data)) == 0
        const_descs.append(desc)
    py, by = empty(acl, 24)
    # a const input still gets a data buffer in the lists; a (0, 0) one is fine
    nulls = [acl.create_data_buffer(0, 0) for _ in range(2)]
    assert acl.op.execute_v2("Slice", [x_desc] + const_descs, [bx] + nulls, [y_desc], [by], 0, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert fetch(acl, py, np.float32, (2, 3)).tobytes() == x[1:3, 2:5].tobytes()

    attr = acl.op.create_attr()
    assert acl.op.set_attr_list_int(attr, "offsets", [1, 2]) == 0
    assert acl.op.set_attr_list_int(attr, "size", [2, -1]) == 0
    assert acl.op.execute_v2("SliceD", [x_desc], [bx], [y_desc], [by], attr, stream) == 100024  # size differs
    assert acl.op.set_attr_list_int(attr, "size", [2, 3]) == 0
    acl.rt.memset(py, 24, 0, 24)
    assert acl.op.execute_v2("SliceD", [x_desc], [bx], [y_desc], [by], attr, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert fetch(acl, py, np.float32, (2, 3)).tobytes() == x[1:3, 2:5].tobytes()


def test_batch_matmul_sample(acl, tmp_path):
    """BatchMatMul fp16 [2,3,4] x [2,5,4] with adj_x2, and int32; exact for small integer values."""
    ops = [op("BatchMatMul", [tensor("float16", [2, 3, 4]), tensor("float16", [2, 5, 4])],
              [tensor("float16", [2, 3, 5])], {"adj_x2": ("bool", True)}),
           op("BatchMatMul", [tensor("int32", [2, 3, 4]), tensor("int32", [2, 4, 5])], [tensor("int32", [2, 3, 5])])]
    context, stream = _open(acl, compile_ops(tmp_path, ops))
    rng = np.random.default_rng(3)
    a = rng.integers(-3, 4, (2, 3, 4)).astype(np.float16)
    b = rng.integers(-3, 4, (2, 5, 4)).astype(np.float16)
    attr = acl.op.create_attr()
    assert acl.op.set_attr_bool(attr, "adj_x2", True) == 0
    descs = [acl.create_tensor_desc(C.ACL_FLOAT16, d, ND) for d in ([2, 3, 4], [2, 5, 4], [2, 3, 5])]
    (_, ba), (_, bb), (pc, bc) = device(acl, a), device(acl, b), empty(acl, 60)
    assert acl.op.execute_v2("BatchMatMul", descs[:2], [ba, bb], descs[2:], [bc], attr, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    want = np.matmul(a.astype(np.float32), b.astype(np.float32).transpose(0, 2, 1)).astype(np.float16)
    assert fetch(acl, pc, np.float16, (2, 3, 5)).tobytes() == want.tobytes()

    ai = rng.integers(-100, 100, (2, 3, 4)).astype(np.int32)
    bi = rng.integers(-100, 100, (2, 4, 5)).astype(np.int32)
    idescs = [acl.create_tensor_desc(C.ACL_INT32, d, ND) for d in ([2, 3, 4], [2, 4, 5], [2, 3, 5])]
    (_, bai), (_, bbi), (pci, bci) = device(acl, ai), device(acl, bi), empty(acl, 120)
    assert acl.op.execute_v2("BatchMatMul", idescs[:2], [bai, bbi], idescs[2:], [bci], 0, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert fetch(acl, pci, np.int32, (2, 3, 5)).tobytes() == np.matmul(ai, bi).tobytes()


def test_op_not_compiled_wrong_attr_and_bad_dtype(acl, tmp_path, capsys):
    """Failures a board gives: 100024 for anything not compiled exactly (op type, dtype, attr)."""
    ops = [ADD, op("ArgMaxD", [tensor("float32", [4, 10])], [tensor("int32", [4])], {"dimension": ("int", 1)})]
    context, stream = _open(acl, compile_ops(tmp_path, ops))
    x = acl.create_tensor_desc(C.ACL_FLOAT, [4, 10], ND)
    y = acl.create_tensor_desc(C.ACL_INT32, [4], ND)
    (_, bx), (py, by) = device(acl, np.arange(40, dtype=np.float32).reshape(4, 10)), empty(acl, 16)
    attr = acl.op.create_attr()
    # not compiled at all
    assert acl.op.execute_v2("Softmax", [x], [bx], [y], [by], attr, stream) == 100024
    assert "holds no Softmax model" in acl.get_recent_err_msg()
    # missing attr, then a wrong one
    assert acl.op.execute_v2("ArgMaxD", [x], [bx], [y], [by], attr, stream) == 100024
    assert acl.op.set_attr_int(attr, "dimension", 0) == 0
    assert acl.op.execute_v2("ArgMaxD", [x], [bx], [y], [by], attr, stream) == 100024
    assert "attrs {dimension: 0 (int)} given, {dimension: 1 (int)} compiled" in acl.get_recent_err_msg()
    # the right attr but a dtype that was not compiled
    assert acl.op.set_attr_int(attr, "dimension", 1) == 0
    x16 = acl.create_tensor_desc(C.ACL_FLOAT16, [4, 10], ND)
    assert acl.op.execute_v2("ArgMaxD", [x16], [bx], [y], [by], attr, stream) == 100024
    assert "input 0: ACL_FLOAT16 [4, 10] ND given, ACL_FLOAT [4, 10] ND compiled" in acl.get_recent_err_msg()
    # nothing was queued by the refusals; the good call runs
    assert acl.op.execute_v2("ArgMaxD", [x], [bx], [y], [by], attr, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert fetch(acl, py, np.int32, (4,)).tolist() == [9, 9, 9, 9]
