"""Streams, async copies and the callback-thread pattern."""
import threading
import time

import pytest
from acl_teach import sim

H2D, D2H = 1, 2


@pytest.fixture
def stream(ready):
    s, ret = ready.rt.create_stream()
    assert ret == 0
    return s


def test_async_copy_lands_only_after_synchronize(ready, stream):
    payload = bytes(range(64))
    dev, _ = ready.rt.malloc(64, 0)
    host, _ = ready.rt.malloc_host(64)
    assert ready.rt.memcpy_async(dev, 64, ready.util.bytes_to_ptr(payload), 64, H2D, stream) == 0
    assert ready.rt.memcpy_async(host, 64, dev, 64, D2H, stream) == 0
    assert ready.util.ptr_to_bytes(host, 64) != payload  # not yet
    assert ready.rt.synchronize_stream(stream) == 0
    assert ready.util.ptr_to_bytes(host, 64) == payload


def test_async_copy_checks_arguments_at_enqueue(ready, stream):
    dev, _ = ready.rt.malloc(8, 0)
    data = bytes(16)
    assert ready.rt.memcpy_async(dev, 8, ready.util.bytes_to_ptr(data), 16, H2D, stream) == 107000
    assert ready.rt.memcpy_async(dev, 8, ready.util.bytes_to_ptr(data), 8, H2D, 0xDEAD) == 107000


def test_async_copy_whose_buffer_was_freed_fails_at_synchronize(ready, stream):
    dev, _ = ready.rt.malloc(8, 0)
    data = bytes(8)
    assert ready.rt.memcpy_async(dev, 8, ready.util.bytes_to_ptr(data), 8, H2D, stream) == 0
    ready.rt.free(dev)
    assert ready.rt.synchronize_stream(stream) == 507000
    assert ready.rt.synchronize_stream(stream) == 0  # the error is reported once


def test_default_stream_is_stream_zero(ready):
    data = bytes([5] * 8)
    dev, _ = ready.rt.malloc(8, 0)
    assert ready.rt.memcpy_async(dev, 8, ready.util.bytes_to_ptr(data), 8, H2D, 0) == 0
    assert ready.rt.synchronize_stream(0) == 0


def test_stream_from_another_context_returns_107003(ready, stream):
    ctx, _ = ready.rt.create_context(0)
    assert ready.rt.synchronize_stream(stream) == 107003


def test_destroy_stream_rules(ready, stream):
    assert ready.rt.destroy_stream(0) == 100000
    assert ready.rt.destroy_stream(stream) == 0
    assert ready.rt.destroy_stream(stream) == 107000
    assert ready.rt.synchronize_stream(stream) == 107000


def test_launch_callback_without_subscription_returns_107015(ready, stream):
    assert ready.rt.launch_callback(lambda d: None, [], 1, stream) == 107015
    with pytest.raises(TypeError, match="parameter must be callable"):
        ready.rt.launch_callback("not callable", [], 1, stream)


def _start_worker(acl, context, exit_flag, timeout_ms=50):
    def loop(args):
        ctx, timeout = args
        acl.rt.set_context(ctx)
        while True:
            acl.rt.process_report(timeout)
            if exit_flag["stop"]:
                break
    tid, ret = acl.util.start_thread(loop, [context, timeout_ms])
    assert ret == 0
    return tid


def test_official_async_callback_pattern(ready, stream):
    context, _ = ready.rt.get_context()
    flag = {"stop": False}
    tid = _start_worker(ready, context, flag)
    assert ready.rt.subscribe_report(tid, stream) == 0
    assert ready.rt.subscribe_report(tid, stream) == 100033
    order = []
    payload = bytes(range(32))
    dev, _ = ready.rt.malloc(32, 0)
    host, _ = ready.rt.malloc_host(32)
    ready.rt.memcpy_async(dev, 32, ready.util.bytes_to_ptr(payload), 32, H2D, stream)
    ready.rt.memcpy_async(host, 32, dev, 32, D2H, stream)

    def callback(user_data):
        order.append((user_data[0], threading.get_ident(), ready.util.ptr_to_bytes(host, 32)))

    assert ready.rt.launch_callback(callback, ["first"], 1, stream) == 0
    assert ready.rt.launch_callback(callback, ["second"], 1, stream) == 0
    assert ready.rt.synchronize_stream(stream) == 0
    assert [o[0] for o in order] == ["first", "second"]
    assert all(o[1] == tid for o in order)  # delivered in the subscribed thread
    assert order[0][2] == payload  # the callback saw the copies that were queued before it
    assert ready.rt.unsubscribe_report(tid, stream) == 0
    assert ready.rt.unsubscribe_report(tid, stream) == 100034
    flag["stop"] = True
    assert ready.util.stop_thread(tid) == 0


def test_process_report_drives_the_stream_without_synchronize(ready, stream):
    context, _ = ready.rt.get_context()
    flag = {"stop": False}
    tid = _start_worker(ready, context, flag)
    ready.rt.subscribe_report(tid, stream)
    done = threading.Event()
    ready.rt.launch_callback(lambda d: done.set(), None, 0, stream)
    assert done.wait(5)
    flag["stop"] = True
    ready.util.stop_thread(tid)


def test_blocking_callback_with_nobody_processing_times_out(ready, stream):
    sim.configure(wait_timeout_s=0.2)
    tid, _ = ready.util.start_thread(lambda: time.sleep(0.5), None)
    ready.rt.subscribe_report(tid, stream)
    ready.rt.launch_callback(lambda d: None, None, 1, stream)
    assert ready.rt.synchronize_stream(stream) == 507046


def test_process_report_timeouts_and_unsubscribed_thread(ready):
    t0 = time.monotonic()
    assert ready.rt.process_report(30) == 107012  # ACL_ERROR_RT_THREAD_SUBSCRIBE, at once
    assert ready.rt.process_report(-1) == 107012
    assert time.monotonic() - t0 < 0.5
    assert ready.rt.process_report(-5) == 100000
    assert ready.rt.process_report(0) == 100000


def test_process_report_timeout_when_subscribed(ready, stream):
    result = {}

    def body(args):
        result["ret"] = ready.rt.process_report(20)

    tid, _ = ready.util.start_thread(lambda: time.sleep(0.2) or body(None), None)
    ready.rt.subscribe_report(tid, stream)
    ready.util.stop_thread(tid)
    assert result["ret"] == 507012


def test_callback_exception_does_not_kill_the_worker(ready, stream, capsys):
    context, _ = ready.rt.get_context()
    flag = {"stop": False}
    tid = _start_worker(ready, context, flag)
    ready.rt.subscribe_report(tid, stream)
    hits = []
    ready.rt.launch_callback(lambda d: 1 / 0, None, 1, stream)
    ready.rt.launch_callback(lambda d: hits.append(d), "ok", 1, stream)
    assert ready.rt.synchronize_stream(stream) == 0
    assert hits == ["ok"]
    assert "ZeroDivisionError" in capsys.readouterr().err
    flag["stop"] = True
    ready.util.stop_thread(tid)


def test_stop_thread_reports_thread_errors(ready):
    def boom():
        raise KeyError("bad")
    tid, _ = ready.util.start_thread(boom, None)
    with pytest.raises(RuntimeError, match="KeyError"):
        ready.util.stop_thread(tid)
    assert ready.util.stop_thread(tid) == 100000


def test_stop_thread_gives_up_instead_of_hanging(ready):
    sim.configure(wait_timeout_s=0.1)
    release = threading.Event()
    tid, _ = ready.util.start_thread(lambda: release.wait(5), None)
    assert ready.util.stop_thread(tid) == 107019
    release.set()


def test_subscribe_with_a_thread_that_is_not_running_warns(ready, stream):
    assert ready.rt.subscribe_report(424242, stream) == 0  # the runtime only records the id
    assert "not a running thread" in ready.get_recent_err_msg()
    assert ready.rt.unsubscribe_report(424242, stream) == 0
    sim.configure(strict=True)
    assert ready.rt.subscribe_report(424242, stream) == 100000


def test_subscriptions_appear_in_the_ledger(ready, stream):
    tid, _ = ready.util.start_thread(lambda: time.sleep(0.3), None)
    ready.rt.subscribe_report(tid, stream)
    assert any(e.kind == "subscription" for e in sim.ledger())
    ready.rt.unsubscribe_report(tid, stream)
    assert not any(e.kind == "subscription" for e in sim.ledger())
