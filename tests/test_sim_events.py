"""Events, stream waits and simulated timing (acl.rt.*event*, stream_wait_event, exception-info callbacks)."""
import struct

import numpy as np
import pytest

from acl_teach.sim.core import timeline as T
from acl_teach.sim.media.dvpp.cost import dvpp_cost
from acl_teach.spec import events as E
from acl_teach import sim

H2D, D2H = 1, 2


def _matmul_onnx(path, k=64):
    """y = x @ W, x [1, k] float32, W [k, k] (a model whose cost the test can compute by hand)."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    w = numpy_helper.from_array(np.eye(k, dtype=np.float32) * 3, "W")
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, k])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, k])
    graph = helper.make_graph([helper.make_node("MatMul", ["x", "W"], ["y"], name="mm")], "mm", [x], [y],
                              initializer=[w])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(path))
    return str(path)


@pytest.fixture(scope="module")
def matmul_om(tmp_path_factory):
    from helpers import build
    d = tmp_path_factory.mktemp("mm")
    return build(_matmul_onnx(d / "mm.onnx"), d / "mm")


def _expected_model_us(k=64):
    macs, out_bytes, weights = 1 * k * k, 4 * k, 4 * k * k
    return (T.LAUNCH_US + T.MODEL_OVERHEAD_US + T.NODE_LAUNCH_US + macs / T.MACS_PER_US + out_bytes / T.DEVICE_BYTES_PER_US
            + weights / T.DEVICE_BYTES_PER_US)


def _f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def _datasets(acl, model_id, k=64):
    """(input dataset, output dataset, input ptr, output ptr) for the matmul model."""
    n = 4 * k
    ins, outs = acl.mdl.create_dataset(), acl.mdl.create_dataset()
    pin, _ = acl.rt.malloc(n, 0)
    pout, _ = acl.rt.malloc(n, 0)
    acl.mdl.add_dataset_buffer(ins, acl.create_data_buffer(pin, n))
    acl.mdl.add_dataset_buffer(outs, acl.create_data_buffer(pout, n))
    return ins, outs, pin, pout


def test_create_event_return_shapes_and_destroy(ready):
    ev, ret = ready.rt.create_event()
    assert ret == 0 and isinstance(ev, int) and ev
    ev2, ret = ready.rt.create_event_with_flag(E.ACL_EVENT_TIME_LINE)
    ev3, ret3 = ready.rt.create_event_ex_with_flag(E.ACL_EVENT_SYNC)
    assert ret == ret3 == 0
    assert ready.rt.create_event_with_flag(0x80) == (0, 107000)
    assert ready.rt.get_event_id(ev) == (0, 0) and ready.rt.get_event_id(ev2) == (1, 0)
    avail, ret = ready.rt.get_event_avail_num()
    assert ret == 0 and avail == 65536 - 2  # the ex event is not counted
    for e in (ev, ev2, ev3):
        assert ready.rt.destroy_event(e) == 0
    assert ready.rt.destroy_event(ev) == 107000
    assert ready.rt.destroy_event(0) == 100000
    with pytest.raises(TypeError, match="acl.rt.create_event_with_flag args parse failed"):
        ready.rt.create_event_with_flag("8")


def test_events_around_execute_measure_the_simulated_model(ready, matmul_om):
    model_id, ret = ready.mdl.load_from_file(matmul_om)
    assert ret == 0
    ins, outs, pin, pout = _datasets(ready, model_id)
    x = np.arange(64, dtype=np.float32)
    stream, _ = ready.rt.create_stream()
    start, _ = ready.rt.create_event()
    end, _ = ready.rt.create_event()
    assert ready.rt.memcpy_async(pin, 256, ready.util.numpy_to_ptr(x), 256, H2D, stream) == 0
    assert ready.rt.record_event(start, stream) == 0
    assert ready.mdl.execute_async(model_id, ins, outs, stream) == 0
    assert ready.rt.record_event(end, stream) == 0
    assert ready.rt.query_event_status(start) == (E.ACL_EVENT_RECORDED_STATUS_COMPLETE, 0)  # the device ran to it
    assert ready.rt.synchronize_event(end) == 0
    ms, ret = ready.rt.event_elapsed_time(start, end)
    assert ret == 0 and isinstance(ms, float)
    assert ms == _f32(_expected_model_us() / 1000.0)
    assert ms > 0
    out = np.zeros(64, np.float32)
    assert ready.rt.memcpy(ready.util.numpy_to_ptr(out), 256, pout, 256, D2H) == 0
    np.testing.assert_array_equal(out, 3 * x)  # the run itself happened
    t0, _ = ready.rt.event_get_timestamp(start)
    t1, _ = ready.rt.event_get_timestamp(end)
    assert t1 - t0 == round(_expected_model_us() + t0) - t0


def test_elapsed_time_adds_up_and_includes_copies(ready):
    stream, _ = ready.rt.create_stream()
    evs = [ready.rt.create_event()[0] for _ in range(3)]
    dev, _ = ready.rt.malloc(1 << 20, 0)
    host, _ = ready.rt.malloc_host(1 << 20)
    ready.rt.record_event(evs[0], stream)
    ready.rt.memcpy_async(dev, 1 << 20, host, 1 << 20, H2D, stream)
    ready.rt.record_event(evs[1], stream)
    ready.rt.memcpy_async(host, 1 << 20, dev, 1 << 20, D2H, stream)
    ready.rt.memset_async(dev, 1 << 20, 0, 1 << 20, stream)
    ready.rt.record_event(evs[2], stream)
    assert ready.rt.synchronize_stream(stream) == 0
    a, _ = ready.rt.event_elapsed_time(evs[0], evs[1])
    b, _ = ready.rt.event_elapsed_time(evs[1], evs[2])
    c, _ = ready.rt.event_elapsed_time(evs[0], evs[2])
    assert a == _f32(T.copy_cost(1 << 20, H2D) / 1000)
    assert b == _f32((T.copy_cost(1 << 20, D2H) + T.fill_cost(1 << 20)) / 1000)
    assert c == pytest.approx(a + b, rel=1e-6)
    assert ready.rt.event_elapsed_time(evs[2], evs[0]) == (0.0, 107007)


def test_elapsed_time_errors(ready):
    stream, _ = ready.rt.create_stream()
    a, _ = ready.rt.create_event()
    b, _ = ready.rt.create_event()
    assert ready.rt.event_elapsed_time(a, b) == (0.0, 107006)  # never recorded
    assert ready.rt.event_get_timestamp(a) == (0, 107006)
    assert ready.rt.event_elapsed_time(0, b) == (0.0, 100000)
    ready.rt.record_event(a, stream)
    ready.rt.record_event(b, stream)
    assert ready.rt.event_elapsed_time(a, b)[1] == 0
    ready.rt.reset_event(a, stream)
    ready.rt.synchronize_stream(stream)
    assert ready.rt.query_event_status(a) == (E.ACL_EVENT_RECORDED_STATUS_NOT_READY, 0)
    assert ready.rt.event_elapsed_time(a, b) == (0.0, 107006)


def test_event_without_time_line_flag_warns(ready, acl):
    stream, _ = ready.rt.create_stream()
    a, _ = ready.rt.create_event_with_flag(E.ACL_EVENT_SYNC)
    b, _ = ready.rt.create_event()
    ready.rt.record_event(a, stream)
    ready.rt.record_event(b, stream)
    ready.rt.synchronize_stream(stream)
    assert ready.rt.event_elapsed_time(a, b) == (0.0, 0)
    assert any("ACL_EVENT_TIME_LINE" in w.message for w in sim.warnings())
    sim.configure(strict=True)
    try:
        assert ready.rt.event_elapsed_time(a, b) == (0.0, 107006)
    finally:
        sim.configure(strict=False)


def test_query_event_of_a_stream_held_by_a_block_callback_is_not_ready(ready):
    import threading
    stream, _ = ready.rt.create_stream()
    ev, _ = ready.rt.create_event()
    stop = threading.Event()
    worker = threading.Thread(target=stop.wait)
    worker.start()
    try:
        assert ready.rt.subscribe_report(worker.ident, stream) == 0
        assert ready.rt.launch_callback(lambda _: None, None, 1, stream) == 0  # BLOCK, nobody processes it
        ready.rt.record_event(ev, stream)
        assert ready.rt.query_event(ev) == (E.ACL_EVENT_STATUS_NOT_READY, 0)
        assert ready.rt.query_event_status(ev) == (E.ACL_EVENT_RECORDED_STATUS_NOT_READY, 0)
        assert ready.rt.query_event_wait_status(ev) == (E.ACL_EVENT_WAIT_STATUS_NOT_READY, 0)
        assert ready.rt.synchronize_event_with_timeout(ev, 50) == 507047
        assert ready.rt.synchronize_event_with_timeout(ev, -2) == 107000
    finally:
        stop.set()
        worker.join()
        ready.rt.destroy_stream(stream)


def test_stream_wait_event_orders_two_streams(ready):
    """A copy on stream B that waits for stream A's fill sees the filled bytes, and starts after it."""
    a, _ = ready.rt.create_stream()
    b, _ = ready.rt.create_stream()
    n = 1 << 16
    dev, _ = ready.rt.malloc(n, 0)
    host, _ = ready.rt.malloc_host(n)
    ready.rt.memset(dev, n, 0, n)
    done, _ = ready.rt.create_event()
    t_b, _ = ready.rt.create_event()
    ready.rt.memset_async(dev, n, 0x5A, n, a)
    ready.rt.record_event(done, a)
    assert ready.rt.stream_wait_event(b, done) == 0
    ready.rt.record_event(t_b, b)
    ready.rt.memcpy_async(host, n, dev, n, D2H, b)
    assert ready.rt.synchronize_stream(b) == 0  # runs stream A up to the record on the way
    assert ready.util.ptr_to_bytes(host, n) == b"\x5a" * n
    assert ready.rt.event_elapsed_time(done, t_b) == (0.0, 0)  # B resumed exactly when A's record ran
    t_done, _ = ready.rt.event_get_timestamp(done)
    assert t_done >= round(T.fill_cost(n))
    assert ready.rt.synchronize_stream(a) == 0


def test_stream_wait_on_an_event_never_recorded_fails_instead_of_hanging(ready):
    s, _ = ready.rt.create_stream()
    ev, _ = ready.rt.create_event()
    assert ready.rt.stream_wait_event(s, ev) == 0
    assert ready.rt.synchronize_stream(s) == 507046


def test_host_clock_advances_with_synchronous_work(ready):
    t0 = T.clock().host_us
    dev, _ = ready.rt.malloc(4096, 0)
    data = bytes(4096)
    ready.rt.memcpy(dev, 4096, ready.util.bytes_to_ptr(data), 4096, H2D)
    assert T.clock().host_us == pytest.approx(t0 + T.copy_cost(4096, H2D))
    # an event recorded afterwards on an idle stream is stamped no earlier than the host is
    s, _ = ready.rt.create_stream()
    ev, _ = ready.rt.create_event()
    ready.rt.record_event(ev, s)
    ready.rt.synchronize_stream(s)
    assert ready.rt.event_get_timestamp(ev)[0] == round(T.clock().host_us)


def test_exception_info_callback_reports_a_failed_task(ready):
    seen = []

    def on_exception(info):
        seen.append((ready.rt.get_error_code_from_exception_info(info),
                     ready.rt.get_task_id_from_exception_info(info),
                     ready.rt.get_device_id_from_exception_info(info),
                     ready.rt.get_thread_id_from_exception_info(info) != 0xFFFFFFFF,
                     ready.rt.get_stream_id_from_exception_info(info) != 0xFFFFFFFF))

    assert ready.rt.set_exception_info_callback(on_exception) == 0
    s, _ = ready.rt.create_stream()
    dev, _ = ready.rt.malloc(8, 0)
    data = bytes(8)
    ready.rt.memcpy_async(dev, 8, ready.util.bytes_to_ptr(data), 8, H2D, s)
    ready.rt.free(dev)
    assert ready.rt.synchronize_stream(s) == 507000
    assert len(seen) == 1 and seen[0][0] == 507000 and seen[0][2] == 0 and seen[0][3] and seen[0][4]
    assert ready.rt.get_task_id_from_exception_info(0) == 0xFFFFFFFF
    assert ready.rt.set_exception_info_callback(None) == 0
    assert ready.rt.set_exception_info_callback() == 0
    with pytest.raises(TypeError, match="set_exception_info_callback args parse failed"):
        ready.rt.set_exception_info_callback(5)


def test_sample_style_timing_program(ready, matmul_om):
    """Our own sample-style program: time N async inferences with two events, as a learner would."""
    acl = ready
    model_id, _ = acl.mdl.load_from_file(matmul_om)
    ins, outs, pin, pout = _datasets(acl, model_id)
    stream, ret = acl.rt.create_stream()
    start, ret = acl.rt.create_event()
    end, ret = acl.rt.create_event()
    acl.rt.record_event(start, stream)
    for _ in range(10):
        acl.mdl.execute_async(model_id, ins, outs, stream)
    acl.rt.record_event(end, stream)
    acl.rt.synchronize_stream(stream)
    elapsed_ms, ret = acl.rt.event_elapsed_time(start, end)
    assert ret == 0
    assert elapsed_ms == pytest.approx(10 * _expected_model_us() / 1000, rel=1e-6)
    for ev in (start, end):
        acl.rt.destroy_event(ev)
    acl.rt.destroy_stream(stream)
    acl.mdl.unload(model_id)


def test_stream_query_and_timed_synchronisation(ready):
    import threading
    s, _ = ready.rt.create_stream()
    dev, _ = ready.rt.malloc(64, 0)
    ready.rt.memset_async(dev, 64, 1, 64, s)
    assert ready.rt.stream_query(s) == (E.ACL_STREAM_STATUS_COMPLETE, 0)  # the device ran it meanwhile
    assert ready.rt.get_thread_last_task_id()[1] == 0 and ready.rt.get_thread_last_task_id()[0] > 0
    stop = threading.Event()
    worker = threading.Thread(target=stop.wait)
    worker.start()
    try:
        ready.rt.subscribe_report(worker.ident, s)
        ready.rt.launch_callback(lambda _: None, None, 1, s)  # BLOCK, nobody processes it
        assert ready.rt.stream_query(s) == (E.ACL_STREAM_STATUS_NOT_READY, 0)
        assert ready.rt.synchronize_stream_with_timeout(s, 30) == 507046
        assert ready.rt.synchronize_device_with_timeout(30) == 507046
        assert ready.rt.synchronize_stream_with_timeout(s, -5) == 107000
    finally:
        stop.set()
        worker.join()
        ready.rt.destroy_stream(s)
    s2, _ = ready.rt.create_stream()
    ready.rt.memset_async(dev, 64, 2, 64, s2)
    assert ready.rt.synchronize_stream_with_timeout(s2, -1) == 0
    assert ready.rt.synchronize_device_with_timeout(100) == 0


def test_model_time_follows_the_gear(ready, tiny_models):
    """A dynamic-batch model's run at batch 4 takes longer than at batch 1, as the header's scale says."""
    from acl_teach.spec import om
    acl = ready
    header = om.read(tiny_models["batch"]).header
    assert header["cost"]["scale"] == {"1": 0.25, "2": 0.5, "4": 1.0}
    assert [o[1] for o in header["cost"]["ops"]] == ["Add", "Mul"]
    model_id, _ = acl.mdl.load_from_file(tiny_models["batch"])
    desc = acl.mdl.create_desc()
    acl.mdl.get_desc(desc, model_id)
    ins, outs = acl.mdl.create_dataset(), acl.mdl.create_dataset()
    for i in range(acl.mdl.get_num_inputs(desc)):
        size = acl.mdl.get_input_size_by_index(desc, i)
        acl.mdl.add_dataset_buffer(ins, acl.create_data_buffer(acl.rt.malloc(size, 0)[0], size))
    for i in range(acl.mdl.get_num_outputs(desc)):
        size = acl.mdl.get_output_size_by_index(desc, i)
        acl.mdl.add_dataset_buffer(outs, acl.create_data_buffer(acl.rt.malloc(size, 0)[0], size))
    index, _ = acl.mdl.get_input_index_by_name(desc, "ascend_mbatch_shape_data")
    stream, _ = acl.rt.create_stream()
    times = []
    for batch in (1, 4):
        evs = [acl.rt.create_event()[0] for _ in range(2)]
        assert acl.mdl.set_dynamic_batch_size(model_id, ins, index, batch) == 0
        acl.rt.record_event(evs[0], stream)
        assert acl.mdl.execute_async(model_id, ins, outs, stream) == 0
        acl.rt.record_event(evs[1], stream)
        assert acl.rt.synchronize_stream(stream) == 0
        times.append(acl.rt.event_elapsed_time(*evs)[0])
    assert times[1] > times[0] > 0


def test_an_om_without_cost_is_costed_from_its_header():
    from acl_teach.sim.core.costmodel import run_cost
    header = {"weight_size": 1000, "inputs": [{"onnx_name": "x", "dims": [2, 4], "size": 32}],
              "outputs": [{"size": 32}]}
    cost = run_cost({}, header, None)
    assert cost.total_us == pytest.approx(T.LAUNCH_US + T.MODEL_OVERHEAD_US + T.NODE_LAUNCH_US
                                          + 2000 / T.MACS_PER_US + 32 / T.DEVICE_BYTES_PER_US
                                          + 1000 / T.DEVICE_BYTES_PER_US)


def test_failure_shapes_are_the_bindings_initial_values(ready):
    assert ready.rt.query_event(0) == (E.ACL_EVENT_STATUS_COMPLETE, 100000)
    assert ready.rt.query_event_status(0) == (E.ACL_EVENT_RECORDED_STATUS_NOT_READY, 100000)
    assert ready.rt.query_event_wait_status(0) == (E.ACL_EVENT_WAIT_STATUS_COMPLETE, 100000)
    assert ready.rt.stream_query(0xDEAD) == (E.ACL_STREAM_STATUS_RESERVED, 107000)
    assert ready.rt.event_get_timestamp(0) == (0, 100000)
    assert ready.rt.get_event_id(0) == (0, 100000)


def test_a_jpeg_decode_takes_simulated_dvpp_time(ready):
    from test_sim_dvpp import Dvpp, coffee_jpeg
    acl = ready
    dvpp = Dvpp(acl)
    a, _ = acl.rt.create_event()
    b, _ = acl.rt.create_event()
    raw = coffee_jpeg((64, 64))
    acl.rt.record_event(a, dvpp.stream)
    out = dvpp.decode(raw)  # a synchronous copy of the JPEG into DVPP memory, then the queued decode
    acl.rt.record_event(b, dvpp.stream)
    assert dvpp.sync() == 0
    w, h = acl.media.dvpp_get_pic_desc_width(out), acl.media.dvpp_get_pic_desc_height(out)
    assert (w, h) == (64, 64)
    # the decode was submitted after the host's copy, so the stream started it then
    want = T.copy_cost(len(raw), H2D) + dvpp_cost("jpegd", w * h)
    assert acl.rt.event_elapsed_time(a, b) == (_f32(want / 1000), 0)
