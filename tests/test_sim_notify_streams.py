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


def _failing_then_fill(acl, s, dev, n):
    """A wait on an event nothing records fails at run time (507046); a fill is queued after it."""
    ev, _ = acl.rt.create_event()
    acl.rt.stream_wait_event(s, ev)
    acl.rt.memset_async(dev, n, 0x77, n, s)


@pytest.mark.parametrize("mode, expect", [(0, b"\x77"), (1, b"\x00")])
def test_failure_mode_decides_whether_later_tasks_run(ready, mode, expect):
    from acl_teach.spec import streams as S
    s, ret = ready.rt.create_stream_with_config(0, 0)
    assert ret == 0
    n = 256
    dev, _ = ready.rt.malloc(n, 0)
    host, _ = ready.rt.malloc_host(n)
    ready.rt.memset(dev, n, 0, n)
    assert ready.rt.set_stream_failure_mode(s, mode) == 0
    assert ready.rt.get_stream_attribute(s, S.ACL_STREAM_ATTR_FAILURE_MODE) == ({"failureMode": mode}, 0)
    _failing_then_fill(ready, s, dev, n)
    assert ready.rt.synchronize_stream(s) == 507046
    ready.rt.memcpy(host, n, dev, n, D2H)
    assert ready.util.ptr_to_bytes(host, n) == expect * n
    # the stream stays usable either way
    ready.rt.memset_async(dev, n, 0x11, n, s)
    assert ready.rt.synchronize_stream(s) == 0
    assert ready.rt.set_stream_failure_mode(0, 1) == 107000  # not the default stream
    assert ready.rt.set_stream_failure_mode(s, 2) == 100000


def test_stream_attributes_ids_and_counts(ready):
    from acl_teach.spec import streams as S
    avail, ret = ready.rt.get_stream_available_num()
    assert ret == 0
    s1, _ = ready.rt.create_stream()
    s2, _ = ready.rt.create_stream_with_config(3, 0)
    assert ready.rt.get_stream_available_num() == (avail - 2, 0)
    id1, _ = ready.rt.stream_get_id(s1)
    assert ready.rt.stream_get_id(s2) == (id1 + 1, 0)
    assert ready.rt.stream_get_id(0) == (0, 0)
    assert ready.rt.get_stream_overflow_switch(s1) == (0, 0)
    assert ready.rt.set_stream_overflow_switch(s1, 1) == 0
    assert ready.rt.get_stream_overflow_switch(s1) == (1, 0)
    assert ready.rt.get_stream_attribute(s1, S.ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK) == ({"overflowSwitch": 1}, 0)
    assert ready.rt.set_stream_attribute(s1, S.ACL_STREAM_ATTR_USER_CUSTOM_TAG, {"userCustomTag": 9}) == 0
    assert ready.rt.get_stream_attribute(s1, S.ACL_STREAM_ATTR_USER_CUSTOM_TAG) == ({"userCustomTag": 9}, 0)
    with pytest.raises(TypeError):
        ready.rt.set_stream_attribute(s1, S.ACL_STREAM_ATTR_USER_CUSTOM_TAG, 9)
    default, ret = ready.rt.ctx_get_current_default_stream()
    assert ret == 0 and default and default not in (s1, s2)
    assert ready.rt.stream_get_id(default) == (0, 0)
    assert ready.rt.stream_get_id(12345) == (0, 107000)


def test_abort_and_force_destroy_drop_tasks_that_have_not_run(ready):
    n = 128
    dev, _ = ready.rt.malloc(n, 0)
    host, _ = ready.rt.malloc_host(n)
    ready.rt.memset(dev, n, 0, n)
    s, _ = ready.rt.create_stream()
    ready.rt.memset_async(dev, n, 0x22, n, s)
    assert ready.rt.stream_abort(s) == 0
    assert ready.rt.synchronize_stream(s) == 0
    ready.rt.memcpy(host, n, dev, n, D2H)
    assert ready.util.ptr_to_bytes(host, n) == b"\x00" * n  # the fill never ran
    ready.rt.memset_async(dev, n, 0x33, n, s)
    assert ready.rt.device_task_abort(0, 0) == 0
    assert ready.rt.synchronize_stream(s) == 0
    ready.rt.memcpy(host, n, dev, n, D2H)
    assert ready.util.ptr_to_bytes(host, n) == b"\x00" * n
    assert ready.rt.device_task_abort(99, 0) == 107001
    ready.rt.memset_async(dev, n, 0x44, n, s)
    assert ready.rt.destroy_stream_force(s) == 0
    assert ready.rt.destroy_stream_force(s) == 107000
    assert ready.rt.synchronize_device() == 0
    ready.rt.memcpy(host, n, dev, n, D2H)
    assert ready.util.ptr_to_bytes(host, n) == b"\x00" * n


def test_groups_one_per_device(ready):
    from acl_teach.spec import groups as G
    assert ready.rt.get_group_count(0) == (1, 0)
    info = ready.rt.create_group_info()
    assert isinstance(info, int) and info
    assert ready.rt.get_all_group_info(info) == 0
    values, ret = ready.rt.get_group_info_detail(info, 0, G.ACL_GROUP_GROUPID_INT)
    assert ret == 0 and values == [0, 0, 0, 0]
    cores, _ = ready.rt.get_group_info_detail(info, 0, G.ACL_GROUP_AICORE_INT)
    assert len(cores) == 4 and cores[0] > 0
    with pytest.raises(RuntimeError, match="aclrtGetGroupInfoDetail failed"):
        ready.rt.get_group_info_detail(info, 1, G.ACL_GROUP_AICORE_INT)
    with pytest.raises(RuntimeError):
        ready.rt.get_group_info_detail(info, 0, 9)
    assert ready.rt.set_group(0) == 0
    assert ready.rt.set_group(1) == 107000
    assert ready.rt.destroy_group_info(info) == 0
    assert ready.rt.destroy_group_info(info) == 100000
    assert ready.rt.get_all_group_info(info) == 100000


def test_value_wait_holds_a_stream_until_another_stream_writes_the_word(ready):
    from acl_teach.spec import streams as S
    a, b, dev, host, n = _filled_then_copied(ready)
    flag, _ = ready.rt.malloc(64, 0)
    ready.rt.memset(flag, 8, 0, 8)
    ready.rt.memset_async(dev, n, 0x5A, n, a)
    assert ready.rt.value_write(flag, 7, 0, a) == 0
    assert ready.rt.value_wait(flag, 7, S.ACL_VALUE_WAIT_EQ, b) == 0
    ready.rt.memcpy_async(host, n, dev, n, D2H, b)
    assert ready.rt.synchronize_stream(b) == 0  # ran stream A's fill and write on the way
    assert ready.util.ptr_to_bytes(host, n) == b"\x5a" * n
    word, _ = ready.rt.malloc_host(8)
    ready.rt.memcpy(word, 8, flag, 8, D2H)
    assert ready.util.ptr_to_bytes(word, 8) == (7).to_bytes(8, "little")
    # GEQ passes on what is there; EQ on a value nobody writes fails instead of hanging
    assert ready.rt.value_wait(flag, 5, S.ACL_VALUE_WAIT_GEQ, b) == 0
    assert ready.rt.synchronize_stream(b) == 0
    assert ready.rt.value_wait(flag, 8, S.ACL_VALUE_WAIT_EQ, b) == 0
    assert ready.rt.synchronize_stream(b) == 507046
    assert ready.rt.value_wait(flag + 4, 1, 0, b) == 100000
    assert ready.rt.value_wait(flag, 1, 9, b) == 100000
    assert ready.rt.value_write(word, 1, 0, a) == 107000  # host memory
    assert ready.rt.synchronize_stream(a) == 0


def test_primary_context_state_follows_set_and_reset_device(acl):
    assert acl.init() == 0
    assert acl.rt.get_primary_ctx_state(0) == (0, 0, 0)
    acl.rt.set_device(0)
    assert acl.rt.get_primary_ctx_state(0) == (1, 0, 0)
    acl.rt.reset_device(0)
    assert acl.rt.get_primary_ctx_state(0) == (0, 0, 0)
    assert acl.rt.get_primary_ctx_state(99)[2] == 107001


def test_stream_core_limits_and_the_thread_that_uses_them(ready):
    s, _ = ready.rt.create_stream()
    full, ret = ready.rt.get_stream_res_limit(s, 0)
    assert ret == 0 and full > 0
    assert ready.rt.get_res_in_current_thread(0) == (full, 0)
    assert ready.rt.set_stream_res_limit(s, 0, 1) == 0
    assert ready.rt.set_stream_res_limit(s, 0, full + 1) == 107000
    assert ready.rt.get_stream_res_limit(s, 0) == (1, 0)
    assert ready.rt.get_res_in_current_thread(0) == (full, 0)  # not used by this thread yet
    assert ready.rt.use_stream_res_in_current_thread(s) == 0
    assert ready.rt.get_res_in_current_thread(0) == (1, 0)
    assert ready.rt.unuse_stream_res_in_current_thread(s) == 0
    assert ready.rt.unuse_stream_res_in_current_thread(s) == 107000
    assert ready.rt.get_res_in_current_thread(0) == (full, 0)
    assert ready.rt.reset_stream_res_limit(s) == 0
    assert ready.rt.get_stream_res_limit(s, 0) == (full, 0)
    assert ready.rt.get_stream_res_limit(s, 5) == (0, 100000)


def test_last_error_is_per_thread_and_get_clears_it(ready):
    import threading
    ready.rt.get_last_error(0)  # whatever the fixture left
    assert ready.rt.peek_at_last_error(0) == 0
    assert ready.rt.destroy_stream(12345) == 107000
    assert ready.rt.peek_at_last_error(0) == 107000
    assert ready.rt.peek_at_last_error(0) == 107000  # peek keeps it
    seen = []
    t = threading.Thread(target=lambda: seen.append(ready.rt.peek_at_last_error(0)))
    t.start(); t.join()
    assert seen == [0]  # another thread's record is its own
    assert ready.rt.get_last_error(0) == 107000
    assert ready.rt.get_last_error(0) == 0
    assert ready.rt.peek_at_last_error(1) == 100000
    assert ready.rt.get_last_error(0) == 0  # a wrong level is not recorded
