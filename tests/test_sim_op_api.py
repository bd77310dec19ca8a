"""acl.op and the tensor-desc calls as pyACL's binding defines them: names, argument parsing, return shapes, codes."""
import os
import warnings

import numpy as np
import pytest

from acl_teach.sim import inspect as sim_inspect
from test_sim_op_helpers import ND, compile_ops, device, empty, fetch, op, tensor
from acl_teach.spec import constants as C

PYACL_OP_NAMES = {"set_model_dir", "create_attr", "destroy_attr", "set_attr_bool", "set_attr_int", "set_attr_float",
                  "set_attr_string", "set_attr_list_bool", "set_attr_list_int", "set_attr_list_float",
                  "set_attr_list_string", "set_attr_list_list_int", "set_attr_data_type", "set_attr_list_data_type",
                  "execute", "execute_v2", "cast", "create_handle", "create_handle_for_cast", "destroy_handle",
                  "execute_with_handle", "load", "infer_shape", "update_params"}
ADD = op("Add", [tensor("float32", [2, 3]), tensor("float32", [2, 3])], [tensor("float32", [2, 3])])
CAST = op("Cast", [tensor("float32", [3])], [tensor("int32", [3])], {"dst_type": ("int", 3)})


def test_the_op_namespace_holds_pyacl_functions_only(acl):
    from acl_teach.spec.binding import TABLE
    names = {n for n in dir(acl.op) if not n.startswith("__")}
    assert names == set(TABLE["acl.op"])  # op.cpp's method table, no helper leaks
    simulated = {n for n in names if not getattr(getattr(acl.op, n), "__acl_not_simulated__", False)}
    assert PYACL_OP_NAMES <= simulated
    assert all(getattr(acl.op, n).__acl_api__ == f"acl.op.{n}" for n in names)
    for name in ("get_tensor_desc_size", "data_type_size", "set_tensor_const", "create_tensor_desc"):
        assert getattr(acl, name).__acl_api__ == f"acl.{name}"


def test_create_tensor_desc_parses_dims_like_the_binding(acl):
    with pytest.raises(TypeError, match="argument 2 is not list"):
        acl.create_tensor_desc(0, (1, 2), 2)
    with pytest.raises(TypeError, match="invalid data type"):
        acl.create_tensor_desc(0, [1.5], 2)
    with pytest.raises(TypeError, match="invalid data type"):
        acl.create_tensor_desc(0, [np.int64(3)], 2)
    with pytest.raises(TypeError, match="args parse failed"):
        acl.create_tensor_desc(2 ** 40, [1], 2)  # "i": a C int
    assert acl.get_tensor_desc_num_dims(acl.create_tensor_desc(0, [True, 2], 2)) == 2
    unknown = acl.create_tensor_desc(999, [4], 77)  # CANN does not check the type or format
    assert unknown != 0 and acl.get_tensor_desc_type(unknown) == 999 and acl.get_tensor_desc_format(unknown) == 77
    assert acl.get_tensor_desc_size(unknown) == 32  # aclDataTypeSize: 8 for types it does not list


@pytest.mark.parametrize("data_type, size", [(0, 4), (1, 2), (2, 1), (3, 4), (4, 1), (6, 2), (7, 2), (8, 4), (9, 8),
                                             (10, 8), (11, 8), (12, 1), (13, 0), (16, 8), (17, 16), (27, 2), (29, 1),
                                             (33, 4), (-1, 0), (999, 8)])
def test_data_type_size(acl, data_type, size):
    assert acl.data_type_size(data_type) == size


def test_tensor_desc_getters(acl):
    desc = acl.create_tensor_desc(C.ACL_FLOAT16, [2, 3, 4], C.ACL_FORMAT_NCHW)
    assert acl.get_tensor_desc_size(desc) == 48
    assert acl.get_tensor_desc_element_count(desc) == 24
    assert acl.get_tensor_desc_num_dims(desc) == 3
    assert acl.get_tensor_desc_dim_v2(desc, 2) == (4, 0)
    assert acl.get_tensor_desc_dim_v2(desc, 3) == (0, 100000)
    assert acl.get_tensor_desc_dim_v2(0, 0) == (0, 100000)
    assert acl.get_tensor_desc_size(acl.create_tensor_desc(0, [], 2)) == 4  # a scalar
    assert acl.get_tensor_desc_size(acl.create_tensor_desc(0, [-1, 3], 2)) == 0  # dynamic: unknown
    assert acl.get_tensor_desc_size(0) == 0 and acl.get_tensor_desc_type(0) == -1
    assert acl.get_tensor_desc_format(0) == -1 and acl.get_tensor_desc_element_count(0) == 0
    assert acl.destroy_tensor_desc(desc) is None
    assert acl.get_tensor_desc_size(desc) == 0


def test_set_tensor_const(ready):
    acl = ready
    desc = acl.create_tensor_desc(C.ACL_INT32, [2], ND)
    data = np.array([1, 2], np.int32).tobytes()
    ptr = acl.util.bytes_to_ptr(data)
    assert acl.set_tensor_const(0, ptr, 8) == 100000
    assert acl.set_tensor_const(desc, 0, 8) == 100000
    assert acl.set_tensor_const(desc, ptr, 0) == 100000
    assert acl.set_tensor_const(desc, ptr, 8) == 0


def test_set_attr_family_return_shapes_and_parsing(acl):
    attr = acl.op.create_attr()
    assert attr != 0
    assert acl.op.set_attr_bool(attr, "b", True) == 0
    assert acl.op.set_attr_bool(attr, "b", 256) == 0  # a C unsigned char: 256 is 0, false
    assert acl.op.set_attr_int(attr, "i", -(2 ** 63)) == 0
    assert acl.op.set_attr_float(attr, "f", 1) == 0
    assert acl.op.set_attr_string(attr, "s", "NHWC") == 0
    assert acl.op.set_attr_list_bool(attr, "lb", [True, 0, 1]) == 0
    assert acl.op.set_attr_list_int(attr, "li", [1, -2]) == 0
    assert acl.op.set_attr_list_float(attr, "lf", [0.5, 1.0]) == 0
    assert acl.op.set_attr_list_string(attr, "ls", ["a", "b"]) == 0
    assert acl.op.set_attr_list_list_int(attr, "lli", [[1, 2], [3]]) == 0
    assert acl.op.set_attr_data_type(attr, "dt", C.ACL_INT32) == (attr, 0)
    assert acl.op.set_attr_list_data_type(attr, "ldt", [0, 1]) == (attr, 0)
    for call, args in ((acl.op.set_attr_int, (5,)), (acl.op.set_attr_list_int, ([1],)),
                       (acl.op.set_attr_string, ("x",))):
        assert call(0, "n", *args) == 100000  # a NULL attr
    assert acl.op.set_attr_data_type(0, "dt", 1) == (0, 100000)
    with pytest.raises(TypeError, match="acl.op.set_attr_float args parse failed"):
        acl.op.set_attr_float(attr, "f", "1.5")
    with pytest.raises(TypeError, match="acl.op.set_attr_int args parse failed"):
        acl.op.set_attr_int(attr, "i", 2 ** 63)
    with pytest.raises(ValueError, match="get values from PyList failed"):
        acl.op.set_attr_list_float(attr, "lf", [1, 2.0])  # an int in a float list
    with pytest.raises(ValueError, match="get values from PyList failed"):
        acl.op.set_attr_list_bool(attr, "lb", [300])
    with pytest.raises(ValueError, match="get values from PyList failed"):
        acl.op.set_attr_list_int(attr, "li", ["1"])
    with pytest.raises(TypeError, match="argument 3 is not list"):
        acl.op.set_attr_list_string(attr, "ls", ("a",))
    with pytest.raises(RuntimeError, match="PyUnicode_AsUTF8String failed"):
        acl.op.set_attr_list_string(attr, "ls", ["a", 1])
    with pytest.raises(ValueError, match="parse argument 3 failed"), pytest.warns(Warning, match="format of list"):
        acl.op.set_attr_list_list_int(attr, "lli", [[1], "x"])
    with pytest.raises(TypeError, match="the third argument is not list"):
        acl.op.set_attr_list_data_type(attr, "ldt", (0,))
    with pytest.warns(Warning, match="only support the format of list in the future"):
        assert acl.op.set_attr_list_int(attr, "li", np.array([4, 5], np.int64)) == 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(TypeError, match="argument 3 is not list or numpy array"):
            acl.op.set_attr_list_int(attr, "li", (4, 5))
    assert acl.op.destroy_attr(attr) is None


def test_attributes_match_compiled_ones_by_type_and_float32_value(ready, tmp_path):
    """Exp compiled with scale 0.1 (a JSON double) matches set_attr_float(0.1) (a C float); an int does not."""
    exp = op("Exp", [tensor("float32", [4])], [tensor("float32", [4])], {"scale": ("float", 0.1)})
    acl = ready
    assert acl.op.set_model_dir(compile_ops(tmp_path, [exp])) == 0
    d = [acl.create_tensor_desc(C.ACL_FLOAT, [4], ND) for _ in range(2)]
    x = np.array([0, 1, 2, 10], np.float32)
    (_, xb), (yp, yb) = device(acl, x), empty(acl, 16)
    attr = acl.op.create_attr()
    assert acl.op.set_attr_float(attr, "scale", 0.1) == 0
    assert acl.op.execute_v2("Exp", d[:1], [xb], d[1:], [yb], attr, 0) == 0
    assert acl.rt.synchronize_stream(0) == 0
    np.testing.assert_allclose(fetch(acl, yp, np.float32, (4,)), np.exp(x * np.float32(0.1)), rtol=1e-6)
    assert acl.op.set_attr_int(attr, "scale", 0) == 0
    assert acl.op.execute_v2("Exp", d[:1], [xb], d[1:], [yb], attr, 0) == 100024
    assert "attrs {scale: 0 (int)} given, {scale: 0.10000000149011612 (float)} compiled" in acl.get_recent_err_msg()


def test_set_model_dir_codes(acl, tmp_path, capsys):
    folder = compile_ops(tmp_path, [ADD])
    assert acl.op.set_model_dir(str(tmp_path / "missing")) == 100014
    assert acl.op.set_model_dir(str(tmp_path / "op_list.json")) == 100014  # a file, not a folder
    (tmp_path / "op_models" / "sub").mkdir()
    (tmp_path / "op_models" / "sub" / "real.om").write_bytes(b"IMOD" + bytes(60))
    (tmp_path / "op_models" / "junk.om").write_bytes(b"not a model")
    assert acl.op.set_model_dir(folder) == 0  # no acl.init needed; unusable files are skipped
    assert "skipped" in capsys.readouterr().err
    assert acl.op.set_model_dir(folder) == 100002  # once per process
    empty_dir = tmp_path / "empty"
    empty_dir.mkdir()
    sim_inspect.reset()
    assert acl.op.set_model_dir(str(empty_dir)) == 0
    assert "no op models" in capsys.readouterr().err


def test_models_in_sub_folders_are_found_two_levels_down(acl, tmp_path):
    compile_ops(tmp_path, [ADD], folder="a/b/c/too_deep")
    compile_ops(tmp_path, [CAST], folder="a/b")
    from acl_teach.sim.op import models as opmodels
    assert acl.op.set_model_dir(str(tmp_path / "a")) == 0
    assert sorted(k[0] for k in opmodels.registry().by_key) == ["Cast"]


def test_execute_v2_checks_in_cannes_order(ready, tmp_path):
    acl = ready
    assert acl.op.set_model_dir(compile_ops(tmp_path, [ADD])) == 0
    d = [acl.create_tensor_desc(C.ACL_FLOAT, [2, 3], ND) for _ in range(3)]
    (_, a), (_, b), (_, c) = device(acl, np.ones((2, 3), np.float32)), empty(acl, 24), empty(acl, 24)
    with pytest.raises(TypeError, match="argument 2, 3, 4, or 5 is not list"):
        acl.op.execute_v2("Add", tuple(d[:2]), [a, b], d[2:], [c], 0, 0)
    with pytest.raises(TypeError, match="the list argument is not list of int"):
        acl.op.execute_v2("Add", d[:2], [a, None], d[2:], [c], 0, 0)
    with pytest.raises(ValueError, match="PyLong_AsVoidPtr failed"):
        acl.op.execute_v2("Add", d[:2], [a, 2 ** 64], d[2:], [c], 0, 0)
    assert acl.op.execute_v2("Add", d[:1], [a, b], d[2:], [c], 0, 0) == 100000  # one desc short: NULL
    assert acl.op.execute_v2("Add", d[:2], [a, 0], d[2:], [c], 0, 0) == 100000
    assert acl.op.execute_v2("Add", d[:2], [a, acl.create_data_buffer(0, 24)], d[2:], [c], 0, 0) == 100000
    assert acl.op.execute("Add", d[:2], [a, acl.create_data_buffer(0, 0)], d[2:], [c], 0, 0) == 145000
    assert acl.op.execute_v2("Add", d[:2], [a, b], d[2:], [c], 12345, 0) == 100000  # not an attr
    small = acl.create_data_buffer(acl.get_data_buffer_addr(c), 20)
    assert acl.op.execute_v2("Add", d[:2], [a, b], d[2:], [small], 0, 0) == 145000
    assert acl.op.execute_v2("Add", d, [a, b], d[2:], [c], 0, 0) == 0  # extra descs are ignored, as in op.cpp
    empty_out = acl.create_tensor_desc(C.ACL_FLOAT, [0, 3], ND)
    assert acl.op.execute_v2("Nothing", [], [], [empty_out], [c], 0, 0) == 0  # all outputs empty: no-op
    assert acl.rt.synchronize_stream(0) == 0


def test_execution_needs_acl_init_after_argument_parsing(acl):
    """UNCONFIRMED: 100001 before acl.init; the arguments are parsed first, as the binding does."""
    assert acl.op.execute_v2("Add", [], [], [], [], 0, 0) == 100001
    assert acl.op.execute("Add", [], [], [], [], 0, 0) == 100001
    assert acl.op.cast(0, 0, 0, 0, 0, 0) == 100001
    assert acl.op.create_handle("Add", [], [], 0) == (0, 100001)
    assert acl.op.create_handle_for_cast(0, 0, False) == (0, 100001)
    assert acl.op.execute_with_handle(0, [], [], 0) == 100001
    with pytest.raises(TypeError, match="argument 2, 3, 4, or 5 is not list"):
        acl.op.execute_v2("Add", (), [], [], [], 0, 0)
    with pytest.raises(TypeError, match="acl.op.cast args parse failed"):
        acl.op.cast(0, 0, 0, 0, None, 0)


def test_op_handles(ready, tmp_path):
    acl = ready
    assert acl.op.set_model_dir(compile_ops(tmp_path, [ADD, CAST])) == 0
    d = [acl.create_tensor_desc(C.ACL_FLOAT, [2, 3], ND) for _ in range(3)]
    with pytest.raises(TypeError, match="argument 2 or 3 is not list"):
        acl.op.create_handle("Add", d[:2], tuple(d[2:]), 0)
    assert acl.op.create_handle("Sub", d[:2], d[2:], 0) == (0, 100024)
    assert acl.op.create_handle("Add", [d[0], 0], d[2:], 0) == (0, 100000)
    handle, ret = acl.op.create_handle("Add", d[:2], d[2:], 0)
    assert ret == 0 and handle != 0
    assert any(e.kind == "op handle" for e in sim_inspect.live())
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    (_, a), (_, b), (cp, c) = device(acl, x), device(acl, x * 10), empty(acl, 24)
    assert acl.op.execute_with_handle(handle, [a], [c], 0) == 100021
    assert acl.op.execute_with_handle(handle, [a, b], [c, c], 0) == 100022
    assert acl.op.execute_with_handle(handle, [a, 0], [c], 0) == 100000
    assert acl.op.execute_with_handle(handle, [a, b], [acl.create_data_buffer(cp, 0)], 0) == 0  # outputs empty
    assert acl.op.execute_with_handle(handle, [a, b], [c], 0) == 0
    assert acl.rt.synchronize_stream(0) == 0
    assert fetch(acl, cp, np.float32, (2, 3)).tobytes() == (x + x * 10).tobytes()
    assert acl.op.destroy_handle(handle) is None
    assert acl.op.execute_with_handle(handle, [a, b], [c], 0) == 100000

    src = acl.create_tensor_desc(C.ACL_FLOAT, [3], ND)
    dst = acl.create_tensor_desc(C.ACL_INT32, [3], ND)
    cast_handle, ret = acl.op.create_handle_for_cast(src, dst, 0)
    assert ret == 0
    (_, sb), (dp, db) = device(acl, np.array([1.9, -2.9, 3.0], np.float32)), empty(acl, 12)
    assert acl.op.execute_with_handle(cast_handle, [sb], [db], 0) == 0
    assert acl.rt.synchronize_stream(0) == 0
    assert fetch(acl, dp, np.int32, (3,)).tolist() == [1, -2, 3]  # truncation toward zero (UNCONFIRMED)
    assert acl.op.create_handle_for_cast(src, 0, 0) == (0, 100000)


def test_cast_passes_truncate_only_when_a_loaded_cast_model_has_it(ready, tmp_path):
    """aclopCast adds the truncate attribute when a registered Cast model carries one (GetIfCastHasTruncateAttr)."""
    truncating = op("Cast", [tensor("float32", [3])], [tensor("int32", [3])],
                    {"dst_type": ("int", 3), "truncate": ("bool", True)})
    acl = ready
    assert acl.op.set_model_dir(compile_ops(tmp_path, [truncating])) == 0
    src, dst = acl.create_tensor_desc(C.ACL_FLOAT, [3], ND), acl.create_tensor_desc(C.ACL_INT32, [3], ND)
    (_, sb), (_, db) = device(acl, np.ones(3, np.float32)), empty(acl, 12)
    assert acl.op.cast(src, sb, dst, db, 0, 0) == 100024  # truncate=false was not compiled
    assert acl.op.cast(src, sb, dst, db, 1, 0) == 0
    assert acl.op.cast(src, sb, dst, db, 257, 0) == 0  # a C uint8_t: 257 is 1
    assert acl.rt.synchronize_stream(0) == 0


def test_finalize_reclaims_op_handles_attrs_and_descs(ready, tmp_path, capsys):
    acl = ready
    assert acl.op.set_model_dir(compile_ops(tmp_path, [ADD])) == 0
    d = acl.create_tensor_desc(C.ACL_FLOAT, [2, 3], ND)
    acl.op.create_attr()
    assert acl.op.create_handle("Add", [d, d], [d], 0)[1] == 0
    assert acl.rt.reset_device(0) == 0
    assert acl.finalize() == 0
    report = capsys.readouterr().err
    assert "op handle" in report and "op attr" in report and "tensor desc" in report
    assert os.path.isdir(tmp_path / "op_models")
