"""ND dynamic dims (atc --dynamic_dims + set_input_dynamic_dims), dataset tensor descs, execute_v2, load_with_config."""
import numpy as np
import pytest

from acl_teach.spec import mdl_config as M

H2D, D2H = 1, 2


@pytest.fixture(scope="module")
def nd_model(tmp_path_factory):
    """The tiny a+b / 2a model with a and b of shape [-1, 4], gears one value per -1 (so two values)."""
    from helpers import build, make_onnx
    d = tmp_path_factory.mktemp("nd")
    return build(make_onnx(d / "tiny_nd.onnx", "batch"), d / "tiny_nd", "--input_shape=a:-1,4;b:-1,4",
                 "--dynamic_dims=1,1;2,2;4,4", "--input_format=ND")


def _datasets(acl, model_id, desc):
    ins, outs = acl.mdl.create_dataset(), acl.mdl.create_dataset()
    ptrs = []
    for i in range(acl.mdl.get_num_inputs(desc)):
        size = acl.mdl.get_input_size_by_index(desc, i)
        p, _ = acl.rt.malloc(size, 0)
        ptrs.append(p)
        acl.mdl.add_dataset_buffer(ins, acl.create_data_buffer(p, size))
    for i in range(acl.mdl.get_num_outputs(desc)):
        size = acl.mdl.get_output_size_by_index(desc, i)
        p, _ = acl.rt.malloc(size, 0)
        ptrs.append(p)
        acl.mdl.add_dataset_buffer(outs, acl.create_data_buffer(p, size))
    return ins, outs, ptrs


def test_atc_dynamic_dims_header(nd_model):
    from acl_teach.spec import om
    model = om.read(nd_model)
    assert model.dynamic == {"kind": "dims", "gears": [[1, 1], [2, 2], [4, 4]]}
    assert model.inputs[-1]["name"] == "ascend_mbatch_shape_data" and model.inputs[-1]["size"] == 16
    assert model.inputs[0]["gear_dims"] == {"1,1": [1, 4], "2,2": [2, 4], "4,4": [4, 4]}


def test_atc_dynamic_dims_refusals(tmp_path):
    from helpers import build, make_onnx
    from acl_teach.toolchain.atc import AtcError
    src = make_onnx(tmp_path / "m.onnx", "batch")
    with pytest.raises(AtcError, match="--input_format=ND"):
        build(src, tmp_path / "x", "--input_shape=a:-1,4;b:-1,4", "--dynamic_dims=1,1;2,2")
    with pytest.raises(AtcError, match="one per -1"):
        build(src, tmp_path / "x", "--input_shape=a:-1,4;b:-1,4", "--dynamic_dims=1;2", "--input_format=ND")
    with pytest.raises(AtcError, match="cannot be used together"):
        build(src, tmp_path / "x", "--input_shape=a:-1,4;b:-1,4", "--dynamic_dims=1,1;2,2",
              "--dynamic_batch_size=1,2", "--input_format=ND")


def test_set_input_dynamic_dims_runs_the_gear(ready, nd_model):
    acl = ready
    model_id, ret = acl.mdl.load_from_file(nd_model)
    assert ret == 0
    desc = acl.mdl.create_desc()
    assert acl.mdl.get_desc(desc, model_id) == 0
    count, _ = acl.mdl.get_input_dynamic_gear_count(desc, -1)
    gears, ret = acl.mdl.get_input_dynamic_dims(desc, -1, count)
    assert ret == 0 and [g["dims"] for g in gears] == [[1, 4, 1, 4], [2, 4, 2, 4], [4, 4, 4, 4]]
    assert acl.mdl.get_input_dims_range(desc, 0) == ({"rangeCount": 2, "range": [[1, 4], [4, 4]]}, 0)
    assert acl.mdl.get_input_dims_range(desc, 9) == ({"rangeCount": 0, "range": []}, 100000)
    index, ret = acl.mdl.get_input_index_by_name(desc, "ascend_mbatch_shape_data")
    assert (index, ret) == (2, 0)
    ins, outs, ptrs = _datasets(acl, model_id, desc)
    a = np.arange(8, dtype=np.float32).reshape(2, 4)
    b = np.full((2, 4), 10, np.float32)
    ab, bb = a.tobytes(), b.tobytes()  # alive while their pointers are used
    acl.rt.memcpy(ptrs[0], a.nbytes, acl.util.bytes_to_ptr(ab), a.nbytes, H2D)
    acl.rt.memcpy(ptrs[1], b.nbytes, acl.util.bytes_to_ptr(bb), b.nbytes, H2D)
    assert acl.mdl.set_input_dynamic_dims(model_id, ins, index, gears[1]) == 0
    assert acl.mdl.execute(model_id, ins, outs) == 0
    dims, ret = acl.mdl.get_cur_output_dims(desc, 0)
    assert ret == 0 and dims["dims"] == [2, 4]
    out = np.zeros((2, 4), np.float32)
    acl.rt.memcpy(acl.util.numpy_to_ptr(out), out.nbytes, ptrs[3], out.nbytes, D2H)
    np.testing.assert_array_equal(out, a + b)
    # the output dataset now carries the real shape as a tensor desc
    tdesc = acl.mdl.get_dataset_tensor_desc(outs, 0)
    assert tdesc and acl.get_tensor_desc_num_dims(tdesc) == 2
    assert [acl.get_tensor_desc_dim_v2(tdesc, i)[0] for i in range(2)] == [2, 4]
    assert acl.get_tensor_desc_size(tdesc) == out.nbytes
    # wrong calls
    assert acl.mdl.set_input_dynamic_dims(model_id, ins, index,
                                          {"name": "", "dimCount": 4, "dims": [3, 4, 3, 4]}) == 145013
    assert acl.mdl.set_input_dynamic_dims(model_id, ins, index, {"dimCount": 2, "dims": [2, 4]}) == 100000
    assert acl.mdl.set_input_dynamic_dims(model_id, ins, index,
                                          {"dimCount": 4, "dims": [2, 5, 2, 4]}) == 100000
    with pytest.raises(TypeError, match="argument 4 is not dict"):
        acl.mdl.set_input_dynamic_dims(model_id, ins, index, [2, 4, 2, 4])
    with pytest.raises(TypeError, match="The dims of parameter 4 is not a list."):
        acl.mdl.set_input_dynamic_dims(model_id, ins, index, {"dimCount": 4, "dims": (2, 4, 2, 4)})
    with pytest.raises(TypeError, match="not list of int"):
        acl.mdl.set_input_dynamic_dims(model_id, ins, index, {"dimCount": 4, "dims": [2, 4]})
    assert acl.mdl.destroy_dataset(outs) == 0
    assert acl.get_tensor_desc_num_dims(tdesc) == 0  # went with its dataset


def test_set_input_dynamic_dims_on_a_static_model(ready, tiny_models):
    model_id, _ = ready.mdl.load_from_file(tiny_models["static"])
    ds = ready.mdl.create_dataset()
    assert ready.mdl.set_input_dynamic_dims(model_id, ds, 0, {"dimCount": 2, "dims": [1, 4]}) == 100019


def test_dataset_tensor_desc_set_and_get(ready):
    acl = ready
    ds = acl.mdl.create_dataset()
    p, _ = acl.rt.malloc(16, 0)
    desc = acl.create_tensor_desc(0, [1, 4], 2)
    assert acl.mdl.set_dataset_tensor_desc(ds, desc, 0) == (ds, 100000)  # no buffer yet
    acl.mdl.add_dataset_buffer(ds, acl.create_data_buffer(p, 16))
    assert acl.mdl.set_dataset_tensor_desc(ds, desc, 0) == (ds, 0)
    assert acl.mdl.get_dataset_tensor_desc(ds, 0) == desc
    assert acl.mdl.get_dataset_tensor_desc(ds, 1) == 0
    assert acl.mdl.set_dataset_tensor_desc(ds, 12345, 0) == (ds, 100000)


def test_execute_v2_with_an_exec_config_is_asynchronous(ready, tiny_models):
    acl = ready
    model_id, _ = acl.mdl.load_from_file(tiny_models["static"])
    desc = acl.mdl.create_desc()
    acl.mdl.get_desc(desc, model_id)
    ins, outs, ptrs = _datasets(acl, model_id, desc)
    a = np.array([[1, 2, 3, 4]], np.float32)
    raw = a.tobytes()
    for p in ptrs[:2]:
        acl.rt.memcpy(p, 16, acl.util.bytes_to_ptr(raw), 16, H2D)
    handle = acl.mdl.create_exec_config_handle()
    assert handle and acl.mdl.set_exec_config_opt(handle, 0, 1) == 0
    stream, _ = acl.rt.create_stream()
    acl.rt.memset(ptrs[2], 16, 0, 16)
    assert acl.mdl.execute_v2(model_id, ins, outs, stream, handle) == 0
    out = np.zeros((1, 4), np.float32)
    acl.rt.memcpy(acl.util.numpy_to_ptr(out), 16, ptrs[2], 16, D2H)
    assert not out.any()  # not run yet
    assert acl.rt.synchronize_stream(stream) == 0
    acl.rt.memcpy(acl.util.numpy_to_ptr(out), 16, ptrs[2], 16, D2H)
    np.testing.assert_array_equal(out, 2 * a)
    assert acl.mdl.execute_v2(model_id, ins, outs, stream, 777) == 100000
    assert acl.mdl.destroy_exec_config_handle(handle) == 0


def test_load_with_config_each_load_type(ready, tiny_models):
    acl = ready
    path = tiny_models["static"]
    data = open(path, "rb").read()
    work, weight, _ = acl.mdl.query_size(path)
    wptr, _ = acl.rt.malloc(max(work, 1), 0)
    gptr, _ = acl.rt.malloc(max(weight, 1), 0)
    for kind, opts in ((M.ACL_MDL_LOAD_FROM_FILE, {M.ACL_MDL_PATH_PTR: path}),
                       (M.ACL_MDL_LOAD_FROM_FILE_WITH_MEM, {M.ACL_MDL_PATH_PTR: path,
                                                            M.ACL_MDL_WORKSPACE_ADDR_PTR: wptr,
                                                            M.ACL_MDL_WORKSPACE_SIZET: work,
                                                            M.ACL_MDL_WEIGHT_ADDR_PTR: gptr,
                                                            M.ACL_MDL_WEIGHT_SIZET: weight}),
                       (M.ACL_MDL_LOAD_FROM_MEM, {M.ACL_MDL_MEM_ADDR_PTR: acl.util.bytes_to_ptr(data),
                                                  M.ACL_MDL_MEM_SIZET: len(data)})):
        cfg = acl.mdl.create_config_handle()
        assert acl.mdl.set_config_opt(cfg, M.ACL_MDL_LOAD_TYPE_SIZET, kind) == 0
        for attr, value in opts.items():
            assert acl.mdl.set_config_opt(cfg, attr, value) == 0
        model_id, ret = acl.mdl.load_with_config(cfg)
        assert ret == 0 and model_id > 0
        desc = acl.mdl.create_desc()
        assert acl.mdl.get_desc(desc, model_id) == 0 and acl.mdl.get_num_inputs(desc) == 2
        assert acl.mdl.unload(model_id) == 0
        assert acl.mdl.destroy_config_handle(cfg) == 0
    cfg = acl.mdl.create_config_handle()
    assert acl.mdl.load_with_config(cfg) == (0, 100000)            # no load type
    assert acl.mdl.set_config_opt(cfg, M.ACL_MDL_LOAD_TYPE_SIZET, 9) == 100000
    acl.mdl.set_config_opt(cfg, M.ACL_MDL_LOAD_TYPE_SIZET, M.ACL_MDL_LOAD_FROM_FILE)
    assert acl.mdl.load_with_config(cfg) == (0, 100000)            # no path
    with pytest.raises(TypeError, match="acl.mdl.set_config_opt args parse failed!"):
        acl.mdl.set_config_opt(cfg, M.ACL_MDL_PATH_PTR, 5)
    with pytest.raises(TypeError, match="acl.mdl.set_config_opt args parse failed!"):
        acl.mdl.set_config_opt(cfg, M.ACL_MDL_WEIGHT_SIZET, "big")
    acl.mdl.set_config_opt(cfg, M.ACL_MDL_PATH_PTR, "/no/such.om")
    model_id, ret = acl.mdl.load_with_config(cfg)
    assert model_id == 0 and ret != 0
