"""The step API on the simulator: each step alone and in sequence, recorded calls, failures, re-runs."""
import os

import numpy as np
import pytest

import acl_teach as at
from acl_teach import trace
from acl_teach import sim


@pytest.fixture
def steps(step_api, default_om):
    """A fresh simulator selected as the backend; the default OM's path."""
    return default_om


def flow(om_path, use_async=False, image="data/images/coffee.png"):
    init = at.init()
    res = at.request_resources(0)
    model = at.load_model(om_path)
    desc = at.query_desc(model)
    ins, outs = at.build_dataset(desc, "input"), at.build_dataset(desc, "output")
    tensor = at.preprocess(image, dims=desc.inputs[0].dims, dtype=desc.inputs[0].numpy_dtype)
    copy = at.copy_to_device(tensor, ins, 0, res, desc)
    runs = [at.execute_async(model, ins, outs, res), at.synchronize(res)] if use_async else [at.execute(model, ins, outs)]
    out = at.unpack_outputs(desc, outs, res)
    top = at.top_k(out.arrays[0], 5)
    released = [at.release_dataset(ins), at.release_dataset(outs), at.unload_model(model, desc),
                at.release_resources(res), at.finalize()]
    return [init, res, model, desc, ins, outs, copy, *runs, out, top, *released]


def test_full_flow_follows_the_official_call_order(steps):
    records = flow(steps)
    apis = [c.api for r in records for c in r.calls]
    key = [a for a in apis if a in (
        "acl.init", "acl.rt.set_device", "acl.rt.create_context", "acl.mdl.load_from_file", "acl.mdl.create_desc",
        "acl.mdl.get_desc", "acl.mdl.create_dataset", "acl.rt.malloc", "acl.create_data_buffer",
        "acl.mdl.add_dataset_buffer", "acl.util.bytes_to_ptr", "acl.rt.memcpy", "acl.mdl.execute",
        "acl.mdl.get_cur_output_dims", "acl.rt.malloc_host", "acl.util.ptr_to_bytes", "acl.rt.free_host",
        "acl.destroy_data_buffer", "acl.mdl.destroy_dataset", "acl.rt.free", "acl.mdl.unload",
        "acl.mdl.destroy_desc", "acl.rt.destroy_context", "acl.rt.reset_device", "acl.finalize")]
    assert key == [
        "acl.init", "acl.rt.set_device", "acl.rt.create_context", "acl.mdl.load_from_file", "acl.mdl.create_desc",
        "acl.mdl.get_desc",
        "acl.mdl.create_dataset", "acl.rt.malloc", "acl.create_data_buffer", "acl.mdl.add_dataset_buffer",
        "acl.mdl.create_dataset", "acl.rt.malloc", "acl.create_data_buffer", "acl.mdl.add_dataset_buffer",
        "acl.util.bytes_to_ptr", "acl.rt.memcpy", "acl.mdl.execute",
        "acl.mdl.get_cur_output_dims", "acl.rt.malloc_host", "acl.rt.memcpy", "acl.util.ptr_to_bytes",
        "acl.rt.free_host",
        "acl.destroy_data_buffer", "acl.mdl.destroy_dataset", "acl.rt.free",
        "acl.destroy_data_buffer", "acl.mdl.destroy_dataset", "acl.rt.free",
        "acl.mdl.unload", "acl.mdl.destroy_desc", "acl.rt.destroy_context", "acl.rt.reset_device", "acl.finalize"]
    top = records[-6]
    assert top.top[0].index == 967 and not top.softmax_applied
    assert [e.kind for e in sim.ledger()] == []


def test_steps_use_only_documented_api_with_reference_arity(steps, monkeypatch):
    """A recording wrapper around the simulator: every call exists in acl and parses with its format."""
    seen = []
    real_call = trace.call

    def recording(calls, api, *args):
        fn = trace.resolve(api)
        assert getattr(fn, "__acl_api__", None) == api, api
        seen.append((api, len(args)))
        return real_call(calls, api, *args)

    monkeypatch.setattr(trace, "call", recording)
    flow(steps, use_async=True)
    arity = dict(seen)
    assert arity["acl.rt.memcpy"] == 5 and arity["acl.mdl.execute_async"] == 4
    assert arity["acl.mdl.get_desc"] == 2 and arity["acl.rt.malloc"] == 2


def test_async_flow_gives_the_same_result(steps):
    sync_top = flow(steps)[-6].top
    at.use("sim")
    async_top = flow(steps, use_async=True)[-6].top
    assert [(p.index, round(p.prob, 5)) for p in async_top] == [(p.index, round(p.prob, 5)) for p in sync_top]


def test_records_print_code_with_names_not_addresses(steps):
    at.init()
    res = at.request_resources(0)
    text = res.code()
    assert "context, ret = acl.rt.create_context(0)" in text
    assert "stream, ret = acl.rt.create_stream()" in text
    assert "0x2" not in repr(res) and "context=context" in repr(res)
    html = res._repr_html_()
    assert "<table>" in html and "acl.rt.set_device(0)" in html
    at.release_resources(res)
    at.finalize()


def test_desc_record(steps):
    at.init()
    res = at.request_resources(0)
    m = at.load_model(steps)
    d = at.query_desc(m)
    (inp,), (out,) = d.inputs, d.outputs
    assert (inp.name, inp.dims, inp.type_name, inp.size) == ("data", [1, 3, 224, 224], "ACL_FLOAT16", 301056)
    assert inp.size_arithmetic == "1 x 3 x 224 x 224 x 2 bytes (ACL_FLOAT16) = 301056"
    assert (out.dims, out.type_name, out.size) == ([1, 1000], "ACL_FLOAT", 4000)
    assert "dims [1, 3, 224, 224]" in d.table()
    at.unload_model(m, d)
    at.release_resources(res)
    at.finalize()


@pytest.mark.parametrize("how", ["file", "mem", "file_with_mem", "mem_with_mem"])
def test_four_ways_to_load(steps, how):
    at.init()
    res = at.request_resources(0)
    m = at.load_model(steps, how)
    assert m.model_id >= 1
    apis = [c.api for c in m.calls]
    if how.endswith("with_mem"):
        assert apis.count("acl.rt.malloc") == 2 and m.work_ptr and m.weight_ptr
    at.unload_model(m)
    assert m.work_ptr == 0  # user memory freed after unload
    at.release_resources(res)
    at.finalize()
    assert sim.ledger() == []


def test_failures_raise_aclerror_with_both_languages(steps):
    at.init()
    with pytest.raises(at.AclError) as info:
        at.request_resources(3)
    err = info.value
    assert err.api == "acl.rt.set_device" and err.code == 107001 and err.name == "ACL_ERROR_RT_INVALID_DEVICEID"
    assert "Device ID" in str(err) and "fix:" in str(err) and "device 3 does not exist" in str(err)
    res = at.request_resources(0)
    with pytest.raises(at.AclError) as info:
        at.load_model("data/models/efficientnet_lite0.onnx")
    assert info.value.code == 100013 and "acl-teach atc" in str(info.value)
    at.release_resources(res)
    at.finalize()


def test_rerunning_cells_is_safe(steps):
    first = at.init()
    again = at.init()
    assert not first.already_initialised and again.already_initialised and "100002" in again.notes[0]
    res = at.request_resources(0)
    assert at.request_resources(0) is res and "reused" in res.notes[-1]
    m = at.load_model(steps)
    d = at.query_desc(m)
    ds = at.build_dataset(d, "input")
    ds2 = at.build_dataset(d, "input")  # a second, independent dataset
    assert ds2.dataset != ds.dataset
    for x in (ds, ds2):
        at.release_dataset(x)
    again = at.release_dataset(ds)
    assert not again.released and "already released" in again.notes[0]
    at.unload_model(m, d)
    assert "already unloaded" in at.unload_model(m, d).notes[0]
    at.release_resources(res)
    assert "already released" in at.release_resources(res).notes[0]
    at.finalize()
    assert "100037" in at.finalize().notes[0]
    # after finalize everything can start over
    at.init()
    res = at.request_resources(0)
    assert res.context
    at.release_resources(res)
    at.finalize()


def test_copy_to_device_explains_size_and_type_mistakes(steps):
    at.init()
    res = at.request_resources(0)
    m = at.load_model(steps)
    d = at.query_desc(m)
    ins = at.build_dataset(d, "input")
    with pytest.raises(ValueError) as info:
        at.copy_to_device(np.zeros((1, 3, 224, 224), np.float32), ins, 0, res, d)
    msg = str(info.value)
    assert "602112 bytes" in msg and "301056" in msg and "astype(np.float16)" in msg
    with pytest.raises(ValueError, match="is ACL_FLOAT16, your array is int16"):
        at.copy_to_device(np.zeros(10, np.int16), ins, 0, res, d)
    copy = at.copy_to_device(np.zeros((1, 3, 224, 224), np.float16), ins, 0, res, d)
    assert copy.nbytes == 301056 and copy.kind == "ACL_MEMCPY_HOST_TO_DEVICE"
    at.release_dataset(ins)
    at.unload_model(m, d)
    at.release_resources(res)
    at.finalize()


def test_records_keep_the_length_of_payload_bytes_not_the_bytes(steps):
    """A Copy record (and load_model(how="mem")) used to keep every tensor alive in Call.args."""
    from acl_teach.step import Payload
    at.init()
    res = at.request_resources(0)
    m = at.load_model(steps, "mem")
    assert m.calls[0].args == (Payload(os.path.getsize(steps)),)
    d = at.query_desc(m)
    ins = at.build_dataset(d, "input")
    copy = at.copy_to_device(np.zeros((1, 3, 224, 224), np.float16), ins, 0, res, d)
    assert copy.calls[0].args == (Payload(301056),) and repr(copy.calls[0].args[0]) == "<301056 bytes>"
    assert copy.code().splitlines()[0] == "ptr_1 = acl.util.bytes_to_ptr(data)  # -> ptr_1"
    assert not any(isinstance(a, bytes) for rec in (m, copy) for c in rec.calls for a in c.args)
    at.release_dataset(ins)
    at.unload_model(m, d)
    at.release_resources(res)
    at.finalize()


def test_board_mode_copies_device_to_device(steps):
    sim.configure(run_mode="device")
    at.init()
    res = at.request_resources(0)
    assert res.run_mode == "ACL_DEVICE"
    m = at.load_model(steps)
    d = at.query_desc(m)
    ins, outs = at.build_dataset(d, "input"), at.build_dataset(d, "output")
    assert at.copy_to_device(np.zeros((1, 3, 224, 224), np.float16), ins, 0, res, d).kind == \
        "ACL_MEMCPY_DEVICE_TO_DEVICE"
    at.execute(m, ins, outs)
    assert at.unpack_outputs(d, outs, res).arrays[0].shape == (1, 1000)


def test_dynamic_batch_via_steps(steps):
    from acl_teach.toolchain import assets
    at.init()
    res = at.request_resources(0)
    m = at.load_model(assets.dynamic_batch_om())
    d = at.query_desc(m)
    assert d.dynamic_batch == [1, 2, 4, 8] and d.inputs[1].name == "ascend_mbatch_shape_data"
    ins, outs = at.build_dataset(d, "input"), at.build_dataset(d, "output")
    batch = np.concatenate([at.preprocess(p) for p in ("data/images/chelsea.png", "data/images/coffee.png")])
    at.copy_to_device(batch, ins, 0, res, d)
    with pytest.raises(ValueError, match="not a gear"):
        at.set_batch(m, d, ins, 3)
    at.set_batch(m, d, ins, 2)
    at.execute(m, ins, outs)
    out = at.unpack_outputs(d, outs, res).arrays[0]
    assert out.shape == (2, 1000)
    assert 281 <= int(out[0].argmax()) <= 285 and int(out[1].argmax()) == 967


def test_callback_thread_step(steps):
    at.init()
    res = at.request_resources(0)
    rec = at.run_callbacks(res, lambda launch: [launch([i]) for i in range(3)])
    assert rec.delivered == [[0], [1], [2]]  # user data is a list, as pyACL's launch_callback documents
    apis = [c.api for c in rec.calls]
    assert apis[:2] == ["acl.util.start_thread", "acl.rt.subscribe_report"]
    assert apis.count("acl.rt.launch_callback") == 3
    assert apis[-3:] == ["acl.rt.synchronize_stream", "acl.rt.unsubscribe_report", "acl.util.stop_thread"]
    assert rec.worker_calls[0].api == "acl.rt.set_context"
    assert "# in the callback thread" in rec.code() and "acl.rt.process_report(50)" in rec.code()
    with pytest.raises(TypeError, match="is a list"):
        at.run_callbacks(res, lambda launch: launch("not a list"))
    at.release_resources(res)
    at.finalize()


def test_session_releases_in_order_even_when_a_step_fails(steps):
    with pytest.raises(at.ImageError):
        with at.Session(steps) as s:
            assert s.classify("data/images/coffee.png").topk.top[0].index == 967
            s.classify("missing.png")
    assert [e.kind for e in sim.ledger()] == []
    order = [c.api for st in s.steps for c in st.calls if c.api in (
        "acl.mdl.destroy_dataset", "acl.mdl.unload", "acl.rt.destroy_context", "acl.rt.reset_device", "acl.finalize")]
    assert order == ["acl.mdl.destroy_dataset", "acl.mdl.destroy_dataset", "acl.mdl.unload",
                     "acl.rt.destroy_context", "acl.rt.reset_device", "acl.finalize"]


def test_session_failing_to_load_leaves_nothing(steps, tmp_path):
    bad = tmp_path / "bad.om"
    bad.write_bytes(b"junk")
    with pytest.raises(at.AclError):
        at.Session(str(bad)).open()
    assert [e.kind for e in sim.ledger()] == []
    with pytest.raises(FileNotFoundError):
        at.Session(str(tmp_path / "none.om")).open()


def test_backend_selection(monkeypatch):
    from acl_teach import backend
    assert backend.use("sim") == "sim" and backend.acl() is sim.acl()
    assert backend.use("auto") == "sim"  # no CANN here
    with pytest.raises(RuntimeError, match="needs real pyACL"):
        backend.use("npu")
    with pytest.raises(ValueError):
        backend.use("gpu")
    monkeypatch.setenv("ACL_TEACH_BACKEND", "sim")
    monkeypatch.setattr(backend, "_active", None)
    assert backend.name() == "sim"


def test_backend_prefers_a_real_acl_module(monkeypatch):
    import sys
    import types
    from acl_teach import backend
    fake = types.ModuleType("acl")
    fake.rt, fake.mdl = object(), object()
    monkeypatch.setitem(sys.modules, "acl", fake)
    assert backend.use("auto") == "npu" and backend.acl() is fake
    backend.use("sim")


def test_top_k_softmax_only_for_logits():
    probs = np.array([0.1, 0.7, 0.2])
    rec = at.top_k(probs, 2, ["a", "b", "c"])
    assert [(p.index, p.label) for p in rec.top] == [(1, "b"), (2, "c")] and not rec.softmax_applied
    rec = at.top_k(np.array([[2.0, 1.0, 0.0]]), 3)
    assert rec.softmax_applied and abs(sum(p.prob for p in rec.top) - 1) < 1e-9
    assert rec.top[0].prob == pytest.approx(np.exp(2) / (np.exp(2) + np.exp(1) + 1))
    assert at.top_k(probs, 1, output="logits").softmax_applied
    assert rec.sample_format().splitlines()[0] == "======== top5 inference results: ============="
    assert rec.sample_format().splitlines()[1] == "[0]: %f" % rec.top[0].prob


def test_session_does_not_release_the_learners_own_resources(steps):
    at.init()
    res = at.request_resources(0)
    with at.Session(steps) as s:
        assert s.resources is res
    assert not res.released and res.context
    assert at.release_resources(res).released
    at.finalize()


def test_session_on_a_dynamic_batch_model_async(steps):
    from acl_teach.toolchain import assets
    with at.Session(assets.dynamic_batch_om()) as s:
        result = s.classify("data/images/coffee.png", use_async=True)
        assert result.topk.top[0].index == 967
        assert any(c.api == "acl.mdl.set_dynamic_batch_size" for st in s.steps for c in st.calls)
    assert sim.ledger() == []
