"""acl.mdl get_desc_from_file / get_desc_from_mem (a desc without loading) and get_tensor_real_name."""
from acl_teach import sim


def test_desc_from_file_matches_get_desc_without_loading(ready, tiny_models):
    m = ready.mdl
    free0 = ready.rt.get_mem_info(0)[0]
    desc = m.create_desc()
    assert m.get_desc_from_file(desc, tiny_models["static"]) == 0
    assert ready.rt.get_mem_info(0)[0] == free0                       # nothing loaded, nothing charged
    assert (m.get_num_inputs(desc), m.get_num_outputs(desc)) == (2, 2)
    assert [m.get_input_name_by_index(desc, i) for i in range(2)] == ["a", "b"]
    assert m.get_output_dims(desc, 1) == ({"name": "mul0:0:scaled", "dimCount": 2, "dims": [1, 4]}, 0)
    assert m.get_input_size_by_index(desc, 0) == 16
    assert m.get_cur_output_dims(desc, 0) == ({}, 100000)            # no loaded model behind this desc
    model_id, _ = m.load_from_file(tiny_models["static"])
    loaded = m.create_desc()
    assert m.get_desc(loaded, model_id) == 0
    for i in range(2):
        assert m.get_output_dims(desc, i) == m.get_output_dims(loaded, i)
        assert m.get_input_dims(desc, i) == m.get_input_dims(loaded, i)
    assert m.get_desc(desc, model_id) == 0                            # refilled from the loaded model
    assert m.get_cur_output_dims(desc, 0)[1] == 0


def test_desc_from_mem_and_bad_inputs(ready, tiny_models, tmp_path):
    m = ready.mdl
    data = open(tiny_models["batch"], "rb").read()
    desc = m.create_desc()
    assert m.get_desc_from_mem(desc, ready.util.bytes_to_ptr(data), len(data)) == 0
    assert m.get_num_inputs(desc) == 3                                 # a, b and the dynamic-batch input
    assert m.get_desc_from_mem(desc, 0, len(data)) == 100000
    assert m.get_desc_from_mem(desc, ready.util.bytes_to_ptr(data), 0) == 100000
    assert m.get_desc_from_mem(0, ready.util.bytes_to_ptr(data), len(data)) == 100000
    assert m.get_desc_from_file(0, tiny_models["static"]) == 100000
    junk = tmp_path / "junk.om"
    junk.write_bytes(b"not a model")
    assert m.get_desc_from_file(desc, str(junk)) != 0
    assert m.get_desc_from_file(desc, str(tmp_path / "missing.om")) != 0
    sim.reset()
    assert ready.mdl.get_desc_from_file(ready.mdl.create_desc(), tiny_models["static"]) == 100001


def test_tensor_real_name(ready, tiny_models):
    m = ready.mdl
    desc = m.create_desc()
    assert m.get_tensor_real_name(desc, "a") is None                 # desc not filled yet
    assert m.get_desc_from_file(desc, tiny_models["static"]) == 0
    assert m.get_tensor_real_name(desc, "a") == "a"
    assert m.get_tensor_real_name(desc, "mul0:0:scaled") == "mul0:0:scaled"
    assert m.get_tensor_real_name(desc, "scaled") == "mul0:0:scaled"  # the output's own name
    assert m.get_tensor_real_name(desc, "nothing") is None
    assert m.get_tensor_real_name(desc, "") is None
    assert m.get_tensor_real_name(0, "a") is None
