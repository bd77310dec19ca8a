"""acl.mdl on the simulator: load, desc, datasets, execute (sync/async), dynamic gears, ledger."""
import numpy as np
import pytest
from acl_teach import sim

H2D, D2H = 1, 2
A = np.array([[1.0, 2.0, 3.0, 4.0]], np.float32)
B = np.array([[10.0, 20.0, 30.0, 40.0]], np.float32)


def load(acl, path):
    model_id, ret = acl.mdl.load_from_file(path)
    assert ret == 0
    desc = acl.mdl.create_desc()
    assert acl.mdl.get_desc(desc, model_id) == 0
    return model_id, desc


def device_dataset(acl, sizes, payloads=()):
    """A dataset of fresh device buffers; payloads (bytes) are copied into the first ones."""
    ds = acl.mdl.create_dataset()
    ptrs = []
    for i, size in enumerate(sizes):
        ptr, ret = acl.rt.malloc(size, 0)
        assert ret == 0
        if i < len(payloads):
            assert acl.rt.memcpy(ptr, size, acl.util.bytes_to_ptr(payloads[i]), len(payloads[i]), H2D) == 0
        _, ret = acl.mdl.add_dataset_buffer(ds, acl.create_data_buffer(ptr, size))
        assert ret == 0
        ptrs.append(ptr)
    return ds, ptrs


def read_back(acl, ptr, size):
    host, _ = acl.rt.malloc_host(size)
    assert acl.rt.memcpy(host, size, ptr, size, D2H) == 0
    data = acl.util.ptr_to_bytes(host, size)
    acl.rt.free_host(host)
    return data


def tiny_io(acl, desc, a=A, b=B):
    n_in, n_out = acl.mdl.get_num_inputs(desc), acl.mdl.get_num_outputs(desc)
    payloads = [a.tobytes(), b.tobytes()]
    in_ds, in_ptrs = device_dataset(acl, [acl.mdl.get_input_size_by_index(desc, i) for i in range(n_in)], payloads)
    out_ds, out_ptrs = device_dataset(acl, [acl.mdl.get_output_size_by_index(desc, i) for i in range(n_out)])
    return in_ds, out_ds, in_ptrs, out_ptrs


def test_load_ids_start_at_one_and_ledger(ready, tiny_models):
    m1, ret = ready.mdl.load_from_file(tiny_models["static"])
    m2, _ = ready.mdl.load_from_file(tiny_models["static"])
    assert (m1, m2, ret) == (1, 2, 0)
    models = [e for e in sim.ledger() if e.kind == "model"]
    assert [e.handle for e in models] == [1, 2] and "tiny.om" in models[0].detail
    assert ready.mdl.unload(m1) == 0
    assert ready.mdl.unload(m1) == 145003
    assert [e.handle for e in sim.ledger() if e.kind == "model"] == [2]


def test_load_needs_init_and_context(acl, tiny_models):
    assert acl.mdl.load_from_file(tiny_models["static"]) == (0, 100001)
    acl.init()
    assert acl.mdl.load_from_file(tiny_models["static"]) == (0, 107002)


def test_load_failures_explain_themselves(ready, tiny_models, tmp_path):
    assert ready.mdl.load_from_file(str(tmp_path / "missing.om")) == (0, 145002)
    assert ready.mdl.load_from_file(str(tmp_path)) == (0, 145002)
    onnx_path = str(tiny_models["dir"] / "tiny.onnx")
    assert ready.mdl.load_from_file(onnx_path) == (0, 100013)
    assert "acl-teach atc" in ready.get_recent_err_msg()
    real = tmp_path / "real.om"
    real.write_bytes(b"IMOD" + bytes(300))
    assert ready.mdl.load_from_file(str(real)) == (0, 100013)
    assert "real Ascend OM" in ready.get_recent_err_msg()
    data = open(tiny_models["static"], "rb").read()
    truncated = tmp_path / "trunc.om"
    truncated.write_bytes(data[:-10])
    assert ready.mdl.load_from_file(str(truncated)) == (0, 100015)
    corrupt = tmp_path / "corrupt.om"
    corrupt.write_bytes(data[:-1] + bytes([data[-1] ^ 0xFF]))
    assert ready.mdl.load_from_file(str(corrupt)) == (0, 100012)
    head = tmp_path / "head.om"
    head.write_bytes(data[:30])
    assert ready.mdl.load_from_file(str(head)) == (0, 100015)
    junk = tmp_path / "junk.om"
    junk.write_bytes(b"hello world")
    assert ready.mdl.load_from_file(str(junk)) == (0, 100013)
    assert not [e for e in sim.ledger() if e.kind == "model"]


def test_load_from_mem_and_query_size(ready, tiny_models, default_om):
    data = open(default_om, "rb").read()
    work, weight, ret = ready.mdl.query_size(default_om)
    assert ret == 0 and work > 0 and 18_000_000 < weight < 19_000_000
    assert ready.mdl.query_size_from_mem(ready.util.bytes_to_ptr(data), len(data)) == (work, weight, 0)
    free0 = ready.rt.get_mem_info(0)[0]
    model_id, ret = ready.mdl.load_from_mem(ready.util.bytes_to_ptr(data), len(data))
    assert ret == 0
    assert free0 - ready.rt.get_mem_info(0)[0] >= work + weight  # the model's memory is on the device
    assert ready.mdl.unload(model_id) == 0
    assert ready.rt.get_mem_info(0)[0] == free0
    assert ready.mdl.query_size(str(tiny_models["dir"] / "nope.om")) == (0, 0, 145002)
    assert ready.mdl.load_from_mem(0, 10) == (0, 100000)


def test_load_with_user_memory(ready, default_om):
    work, weight, _ = ready.mdl.query_size(default_om)
    work_ptr, _ = ready.rt.malloc(work, 0)
    weight_ptr, _ = ready.rt.malloc(weight, 0)
    free0 = ready.rt.get_mem_info(0)[0]
    model_id, ret = ready.mdl.load_from_file_with_mem(default_om, work_ptr, work, weight_ptr, weight)
    assert ret == 0 and ready.rt.get_mem_info(0)[0] == free0  # nothing more allocated
    assert ready.mdl.load_from_file_with_mem(default_om, work_ptr, work - 1, weight_ptr, weight) == (0, 100000)
    assert ready.mdl.load_from_file_with_mem(default_om, 12345, work, 0, 0) == (0, 100000)
    data = open(default_om, "rb").read()
    m2, ret = ready.mdl.load_from_mem_with_mem(ready.util.bytes_to_ptr(data), len(data), 0, 0, weight_ptr, weight)
    assert ret == 0
    # freeing the work memory while the model is loaded breaks execute
    desc = ready.mdl.create_desc()
    ready.mdl.get_desc(desc, model_id)
    in_ds, _ = device_dataset(ready, [301056])
    out_ds, _ = device_dataset(ready, [4000])
    ready.rt.free(work_ptr)
    assert ready.mdl.execute(model_id, in_ds, out_ds) == 507011
    assert "freed while the model is loaded" in ready.get_recent_err_msg()


def test_desc_of_two_input_two_output_model(ready, tiny_models):
    _, desc = load(ready, tiny_models["static"])
    m = ready.mdl
    assert (m.get_num_inputs(desc), m.get_num_outputs(desc)) == (2, 2)
    assert [m.get_input_name_by_index(desc, i) for i in range(2)] == ["a", "b"]
    assert [m.get_output_name_by_index(desc, i) for i in range(2)] == ["add0:0:sum", "mul0:0:scaled"]
    assert m.get_input_dims(desc, 1) == ({"name": "b", "dimCount": 2, "dims": [1, 4]}, 0)
    assert m.get_input_dims_v2(desc, 1) == m.get_input_dims(desc, 1)
    assert m.get_output_dims(desc, 1) == ({"name": "mul0:0:scaled", "dimCount": 2, "dims": [1, 4]}, 0)
    assert m.get_cur_output_dims(desc, 0)[0]["dims"] == [1, 4]
    assert m.get_input_size_by_index(desc, 0) == 16 and m.get_output_size_by_index(desc, 1) == 16
    assert m.get_input_data_type(desc, 0) == 0 and m.get_output_format(desc, 0) == 2
    assert m.get_input_index_by_name(desc, "b") == (1, 0)
    assert m.get_output_index_by_name(desc, "mul0:0:scaled") == (1, 0)
    assert m.get_input_index_by_name(desc, "ascend_mbatch_shape_data") == (0, 100000)
    # wrong indexes: the documented "empty" answers
    assert m.get_input_dims(desc, 5) == ({}, 100000)
    assert m.get_input_size_by_index(desc, 5) == 0
    assert m.get_input_name_by_index(desc, 5) == ""
    assert m.get_input_format(desc, 5) == -1 and m.get_output_data_type(desc, 9) == -1
    assert m.get_dynamic_batch(desc) == ({"batchCount": 0, "batch": []}, 0)
    assert m.get_input_dynamic_gear_count(desc, -1) == (0, 0)


def test_empty_or_destroyed_desc(ready, tiny_models):
    desc = ready.mdl.create_desc()
    assert ready.mdl.get_num_inputs(desc) == 0
    assert ready.mdl.get_input_dims(desc, 0) == ({}, 100000)
    assert ready.mdl.get_desc(desc, 77) == 145003
    assert ready.mdl.destroy_desc(desc) == 0
    assert ready.mdl.destroy_desc(desc) == 100000
    assert ready.mdl.get_desc(desc, 1) == 100000


def test_dataset_calls(ready):
    ds = ready.mdl.create_dataset()
    buf = ready.create_data_buffer(0, 0)
    assert ready.mdl.add_dataset_buffer(ds, buf) == (ds, 0)
    assert ready.mdl.add_dataset_buffer(ds, 0) == (ds, 100000)
    assert ready.mdl.add_dataset_buffer(0, buf) == (0, 100000)
    assert ready.mdl.get_dataset_num_buffers(ds) == 1
    assert ready.mdl.get_dataset_buffer(ds, 0) == buf and ready.mdl.get_dataset_buffer(ds, 1) == 0
    assert ready.mdl.destroy_dataset(ds) == 0
    assert ready.mdl.destroy_dataset(ds) == 100000
    assert ready.get_data_buffer_size_v2(buf) == 0  # destroying the dataset left the buffer alone
    assert any(e.kind == "data buffer" and e.handle == buf for e in sim.ledger())


def test_execute_is_byte_exact(ready, tiny_models):
    model_id, desc = load(ready, tiny_models["static"])
    in_ds, out_ds, _, out_ptrs = tiny_io(ready, desc)
    assert ready.mdl.execute(model_id, in_ds, out_ds) == 0
    assert read_back(ready, out_ptrs[0], 16) == (A + B).tobytes()
    assert read_back(ready, out_ptrs[1], 16) == (A * 2).tobytes()


def test_execute_async_matches_sync_and_waits_for_synchronize(ready, tiny_models):
    model_id, desc = load(ready, tiny_models["static"])
    stream, _ = ready.rt.create_stream()
    in_ds, out_ds, _, out_ptrs = tiny_io(ready, desc)
    ready.rt.memset(out_ptrs[0], 16, 0, 16)
    assert ready.mdl.execute_async(model_id, in_ds, out_ds, stream) == 0
    assert read_back(ready, out_ptrs[0], 16) == bytes(16)
    assert ready.rt.synchronize_stream(stream) == 0
    async_bytes = read_back(ready, out_ptrs[0], 16), read_back(ready, out_ptrs[1], 16)
    assert ready.mdl.execute(model_id, in_ds, out_ds) == 0
    assert async_bytes == (read_back(ready, out_ptrs[0], 16), read_back(ready, out_ptrs[1], 16))


def test_execute_failures(ready, tiny_models):
    model_id, desc = load(ready, tiny_models["static"])
    in_ds, out_ds, in_ptrs, _ = tiny_io(ready, desc)
    assert ready.mdl.execute(99, in_ds, out_ds) == 145003
    assert ready.mdl.execute(model_id, 0, out_ds) == 100000
    one, _ = device_dataset(ready, [16])
    assert ready.mdl.execute(model_id, one, out_ds) == 100017
    assert "has 1 buffer(s); the model has 2 inputs" in ready.get_recent_err_msg()
    assert ready.mdl.execute(model_id, in_ds, one) == 100018
    small_in, _ = device_dataset(ready, [16, 8])
    small_out, _ = device_dataset(ready, [16, 8])
    # 8 bytes short is within GE's 64-byte tolerance: accepted with a warning (test_sim_faithful.py)
    assert ready.mdl.execute(model_id, small_in, out_ds) == 0
    sim.configure(strict=True)
    assert ready.mdl.execute(model_id, small_in, out_ds) == 100017
    assert "needs 16 bytes" in ready.get_recent_err_msg()
    assert ready.mdl.execute(model_id, in_ds, small_out) == 100018
    sim.configure(strict=False)
    # a host buffer in ACL_HOST mode: the NPU cannot read it
    host, _ = ready.rt.malloc_host(16)
    host_ds = ready.mdl.create_dataset()
    ready.mdl.add_dataset_buffer(host_ds, ready.create_data_buffer(host, 16))
    ready.mdl.add_dataset_buffer(host_ds, ready.mdl.get_dataset_buffer(in_ds, 1))
    assert ready.mdl.execute(model_id, host_ds, out_ds) == 507011
    assert "host memory" in ready.get_recent_err_msg()
    # freed input memory and destroyed data buffers
    ready.rt.free(in_ptrs[0])
    assert ready.mdl.execute(model_id, in_ds, out_ds) == 507011
    ready.destroy_data_buffer(ready.mdl.get_dataset_buffer(in_ds, 1))
    assert ready.mdl.execute(model_id, in_ds, out_ds) == 100000


def test_async_failure_reported_at_synchronize(ready, tiny_models):
    model_id, desc = load(ready, tiny_models["static"])
    stream, _ = ready.rt.create_stream()
    in_ds, out_ds, in_ptrs, _ = tiny_io(ready, desc)
    assert ready.mdl.execute_async(model_id, in_ds, out_ds, stream) == 0
    ready.rt.free(in_ptrs[0])
    assert ready.rt.synchronize_stream(stream) == 507011


def test_board_mode_reads_host_memory_directly(acl, tiny_models):
    sim.configure(run_mode="device")
    acl.init(); acl.rt.set_device(0)
    model_id, desc = load(acl, tiny_models["static"])
    a_bytes, b_bytes = A.tobytes(), B.tobytes()
    in_ds = acl.mdl.create_dataset()
    for data in (a_bytes, b_bytes):
        acl.mdl.add_dataset_buffer(in_ds, acl.create_data_buffer(acl.util.bytes_to_ptr(data), 16))
    out = bytes(16), bytes(16)
    out_ds = acl.mdl.create_dataset()
    for data in out:
        acl.mdl.add_dataset_buffer(out_ds, acl.create_data_buffer(acl.util.bytes_to_ptr(data), 16))
    assert acl.mdl.execute(model_id, in_ds, out_ds) == 0
    assert out[0] == (A + B).tobytes()


@pytest.mark.parametrize("batch", [1, 2, 4])
def test_dynamic_batch_every_gear(ready, tiny_models, batch):
    model_id, desc = load(ready, tiny_models["batch"])
    m = ready.mdl
    assert m.get_num_inputs(desc) == 3
    assert m.get_input_dims(desc, 0)[0]["dims"] == [-1, 4]
    assert m.get_dynamic_batch(desc) == ({"batchCount": 3, "batch": [1, 2, 4]}, 0)
    index, ret = m.get_input_index_by_name(desc, "ascend_mbatch_shape_data")
    assert (index, ret) == (2, 0)
    a = np.arange(batch * 4, dtype=np.float32).reshape(batch, 4)
    b = np.full((batch, 4), 0.5, np.float32)
    in_ds, out_ds, _, out_ptrs = tiny_io(ready, desc, a, b)
    assert m.set_dynamic_batch_size(model_id, in_ds, index, batch) == 0
    assert m.get_cur_output_dims(desc, 0)[0]["dims"] == [batch, 4]
    assert m.get_output_dims(desc, 0)[0]["dims"] == [4, 4]
    assert m.execute(model_id, in_ds, out_ds) == 0
    got = np.frombuffer(read_back(ready, out_ptrs[0], 64)[:batch * 16], np.float32).reshape(batch, 4)
    assert np.array_equal(got, a + b)


def test_dynamic_batch_errors(ready, tiny_models):
    model_id, desc = load(ready, tiny_models["batch"])
    in_ds, out_ds, _, _ = tiny_io(ready, desc)
    assert ready.mdl.execute(model_id, in_ds, out_ds) == 507011  # gear never set: garbage in the hidden input
    assert "set_dynamic_batch_size" in ready.get_recent_err_msg()
    assert ready.mdl.set_dynamic_batch_size(model_id, in_ds, 2, 3) == 145013
    assert ready.mdl.set_dynamic_batch_size(model_id, in_ds, 0, 2) == 100000
    assert ready.mdl.set_dynamic_hw_size(model_id, in_ds, 2, 2, 3) == 100019
    static_id, _ = load(ready, tiny_models["static"])
    assert ready.mdl.set_dynamic_batch_size(static_id, in_ds, 2, 2) == 100019
    assert ready.mdl.set_dynamic_batch_size(model_id, ready.mdl.create_dataset(), 2, 2) == 100000


def test_dynamic_hw(ready, tiny_models):
    model_id, desc = load(ready, tiny_models["hw"])
    m = ready.mdl
    assert m.get_input_dims(desc, 0)[0]["dims"] == [1, 1, -1, -1]
    assert m.get_dynamic_hw(desc, -1) == ({"hwCount": 2, "hw": [[2, 3], [4, 5]]}, 0)
    assert m.get_input_dynamic_gear_count(desc, -1) == (2, 0)
    dims, ret = m.get_input_dynamic_dims(desc, -1, 2)
    assert ret == 0 and [d["dims"] for d in dims] == [[1, 1, 2, 3, 1, 1, 2, 3], [1, 1, 4, 5, 1, 1, 4, 5]]
    assert m.get_input_dynamic_dims(desc, -1, 5000) == (None, 100000)
    a = np.arange(6, dtype=np.float32).reshape(1, 1, 2, 3)
    in_ds, out_ds, _, out_ptrs = tiny_io(ready, desc, a, a)
    assert m.set_dynamic_hw_size(model_id, in_ds, 2, 2, 3) == 0
    assert m.execute(model_id, in_ds, out_ds) == 0
    assert m.get_cur_output_dims(desc, 1)[0]["dims"] == [1, 1, 2, 3]
    got = np.frombuffer(read_back(ready, out_ptrs[1], 80)[:24], np.float32)
    assert got.tolist() == (a * 2).ravel().tolist()


def test_release_order_mistakes_show_in_ledger(ready, tiny_models, capsys):
    model_id, desc = load(ready, tiny_models["static"])
    in_ds, out_ds, in_ptrs, out_ptrs = tiny_io(ready, desc)
    ready.mdl.destroy_dataset(in_ds)  # buffers were not destroyed first
    assert ready.mdl.unload(model_id) == 0
    kinds = [e.kind for e in sim.ledger()]
    assert kinds.count("data buffer") == 4 and kinds.count("dataset") == 1 and "model desc" in kinds
    capsys.readouterr()
    ready.rt.reset_device(0)
    ready.finalize()
    err = capsys.readouterr().err
    assert "data buffer" in err and "model desc" in err and "test_sim_models.py" in err


def test_threads_setting_reaches_the_session_and_unload_frees_it(ready, tiny_models):
    import weakref
    from acl_teach.sim.mdl import model as sim_model
    with pytest.raises(ValueError, match="threads"):
        sim.configure(threads=-1)
    sim.configure(threads=1)
    model_id, ret = ready.mdl.load_from_file(tiny_models["static"])
    assert ret == 0
    session = sim_model.models().loaded[model_id].session
    assert session.get_session_options().intra_op_num_threads == 1
    gone = weakref.ref(session)
    del session
    assert ready.mdl.unload(model_id) == 0
    assert gone() is None  # freed by unload itself (its heap then trimmed), not at some later collection


def test_threads_default_from_the_environment(monkeypatch):
    from acl_teach.sim.core.state import Config
    monkeypatch.setenv("ACL_TEACH_SIM_THREADS", "2")
    assert Config.from_env().threads == 2
    monkeypatch.delenv("ACL_TEACH_SIM_THREADS")
    assert Config.from_env().threads == 0
