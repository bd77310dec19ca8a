"""Devices and contexts."""
import threading
from acl_teach import sim
from acl_teach.spec import constants as C


def test_set_device_makes_default_context_current(ready):
    ctx, ret = ready.rt.get_context()
    assert ret == 0 and ctx != 0
    assert ready.rt.get_device() == (0, 0)
    kinds = [e.kind for e in sim.ledger()]
    assert kinds == ["acl", "device", "default context", "default stream"]


def test_invalid_device_id_returns_107001(acl):
    acl.init()
    assert acl.rt.set_device(1) == 107001
    assert acl.rt.set_device(-1) == 107001
    assert acl.rt.create_context(3) == (0, 107001)


def test_device_count_is_configurable(acl):
    sim.configure(device_count=2)
    acl.init()
    assert acl.rt.get_device_count() == (2, 0)
    assert acl.rt.set_device(1) == 0
    assert acl.rt.get_device() == (1, 0)


def test_set_device_is_reference_counted(ready):
    assert ready.rt.set_device(0) == 0
    assert ready.rt.reset_device(0) == 0
    assert any(e.kind == "device" for e in sim.ledger())
    assert ready.rt.reset_device(0) == 0
    assert not any(e.kind in ("device", "default context") for e in sim.ledger())
    assert ready.rt.reset_device(0) == 107000


def test_run_mode_default_host_and_configurable(acl):
    acl.init()
    assert acl.rt.get_run_mode() == (C.ACL_HOST, 0) == (1, 0)
    sim.reset()
    sim.configure(run_mode="device")
    acl.init()
    assert acl.rt.get_run_mode() == (0, 0)


def test_get_context_without_context_returns_107002(acl):
    acl.init()
    assert acl.rt.get_context() == (0, 107002)
    assert acl.rt.malloc(16, 0) == (0, 107002)
    assert acl.rt.create_stream() == (0, 107002)


def test_create_context_binds_to_thread_and_destroy(ready):
    default_ctx, _ = ready.rt.get_context()
    ctx, ret = ready.rt.create_context(0)
    assert ret == 0 and ctx != default_ctx
    assert ready.rt.get_context() == (ctx, 0)
    assert ready.rt.destroy_context(ctx) == 0
    assert ready.rt.get_context() == (0, 107002)  # destroyed context was current
    assert ready.rt.set_context(default_ctx) == 0
    assert ready.rt.destroy_context(ctx) == 107000
    assert ready.rt.destroy_context(0) == 100000


def test_default_context_cannot_be_destroyed(ready):
    ctx, _ = ready.rt.get_context()
    assert ready.rt.destroy_context(ctx) == 107000


def test_contexts_are_per_thread(ready):
    ctx, _ = ready.rt.get_context()
    seen = {}

    def worker():
        seen["before"] = ready.rt.get_context()
        seen["set"] = ready.rt.set_context(ctx)
        seen["after"] = ready.rt.get_context()
        seen["malloc"] = ready.rt.malloc(32, 0)[1]

    t = threading.Thread(target=worker)
    t.start()
    t.join()
    assert seen["before"] == (0, 107002)
    assert seen["set"] == 0 and seen["after"] == (ctx, 0) and seen["malloc"] == 0


def test_set_context_rejects_non_context_handles(ready):
    stream, _ = ready.rt.create_stream()
    assert ready.rt.set_context(stream) == 107000
    assert "Stream" in ready.get_recent_err_msg()


def test_reset_device_releases_leftovers_implicitly(ready):
    ptr, _ = ready.rt.malloc(100, 0)
    stream, _ = ready.rt.create_stream()
    ctx, _ = ready.rt.create_context(0)
    assert ready.rt.reset_device(0) == 0
    assert [e.kind for e in sim.ledger()] == ["acl"]
    gone = {e.handle: e.released_by for e in sim.ledger(include_released=True)}
    assert gone[ptr] == "implicit: acl.rt.reset_device"
    assert gone[ctx] == "implicit: acl.rt.reset_device"
    assert gone[stream].startswith("implicit: ")
    assert "device memory" in sim.leak_report()
