"""Notifies, stream configuration and failure modes, value_write/value_wait, groups (acl.rt)."""
import pytest

D2H = 2


def _filled_then_copied(acl, n=4096):
    a, _ = acl.rt.create_stream()
    b, _ = acl.rt.create_stream()
    dev, _ = acl.rt.malloc(n, 0)
    host, _ = acl.rt.malloc_host(n)
    acl.rt.memset(dev, n, 0, n)
    return a, b, dev, host, n


def test_notify_orders_two_streams_and_each_record_releases_one_wait(ready):
    a, b, dev, host, n = _filled_then_copied(ready)
    notify, ret = ready.rt.create_notify(0)
    assert ret == 0 and notify
    assert ready.rt.get_notify_id(notify) == (0, 0)
    ready.rt.memset_async(dev, n, 0x3C, n, a)
    assert ready.rt.record_notify(notify, a) == 0
    assert ready.rt.wait_and_reset_notify(notify, b, 0) == 0
    ready.rt.memcpy_async(host, n, dev, n, D2H, b)
    assert ready.rt.synchronize_stream(b) == 0  # ran stream A up to its record on the way
    assert ready.util.ptr_to_bytes(host, n) == b"\x3c" * n
    # the wait reset the flag: a second wait with nothing recorded does not pass
    assert ready.rt.wait_and_reset_notify(notify, b, 0) == 0
    assert ready.rt.synchronize_stream(b) == 507046
    assert ready.rt.synchronize_stream(a) == 0
    assert ready.rt.destroy_notify(notify) == 0
    assert ready.rt.destroy_notify(notify) == 100000


def test_notify_batch_reset_clears_a_recorded_flag(ready):
    s, _ = ready.rt.create_stream()
    n1, _ = ready.rt.create_notify(0)
    n2, _ = ready.rt.create_notify(0)
    assert ready.rt.get_notify_id(n2)[0] == ready.rt.get_notify_id(n1)[0] + 1
    ready.rt.record_notify(n1, s)
    assert ready.rt.synchronize_stream(s) == 0
    assert ready.rt.notify_batch_reset([n1, n2]) == 0
    ready.rt.wait_and_reset_notify(n1, s, 0)
    assert ready.rt.synchronize_stream(s) == 507046  # the record was cleared from the host
    with pytest.raises(ValueError):
        ready.rt.notify_batch_reset((n1,))
    with pytest.raises(TypeError, match="timeout can't be a negative number!"):
        ready.rt.wait_and_reset_notify(n1, s, -1)
    with pytest.raises(TypeError, match="acl.rt.create_notify args parse failed"):
        ready.rt.create_notify("0")
