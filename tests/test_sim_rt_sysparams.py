"""acl.rt system options, op timeouts, overflow status and the thread's last error."""
import threading

import numpy as np

from acl_teach.spec import rt_device as R


def test_sys_param_opt_process_and_context(ready):
    acl = ready
    assert acl.rt.get_sys_param_opt(R.OPT_DETERMINISTIC) == (0, 0)
    assert acl.rt.set_sys_param_opt(R.OPT_DETERMINISTIC, 1) == 0
    assert acl.rt.get_sys_param_opt(R.OPT_DETERMINISTIC) == (1, 0)
    assert acl.rt.set_sys_param_opt(9, 1) == 100000
    assert acl.rt.set_sys_param_opt(R.OPT_DETERMINISTIC, 5) == 100000
    ctx, _ = acl.rt.create_context(0)
    assert acl.rt.ctx_get_sys_param_opt(R.OPT_DETERMINISTIC) == (1, 0)  # falls back to the process value
    assert acl.rt.ctx_set_sys_param_opt(R.OPT_DETERMINISTIC, 0) == 0
    assert acl.rt.ctx_get_sys_param_opt(R.OPT_DETERMINISTIC) == (0, 0)
    assert acl.rt.get_sys_param_opt(R.OPT_DETERMINISTIC) == (1, 0)
    acl.rt.destroy_context(ctx)


def test_ctx_sys_param_needs_a_context(acl):
    acl.init()
    assert acl.rt.ctx_get_sys_param_opt(0) == (0, 107002)


def test_op_timeouts_round_to_the_interval(ready):
    acl = ready
    interval, ret = acl.rt.get_op_timeout_interval()
    assert ret == 0 and interval == R.OP_TIMEOUT_INTERVAL_US
    assert acl.rt.set_op_execute_timeout_v2(interval + 1) == (2 * interval, 0)
    assert acl.rt.get_op_execute_timeout() == (2 * interval // 1000, 0)
    assert acl.rt.set_op_execute_time_out(3) == 0
    assert acl.rt.get_op_execute_timeout() == (3000, 0)
    assert acl.rt.set_op_wait_timeout(10) == 0


def test_get_overflow_status_writes_the_flag_on_the_stream(ready):
    acl = ready
    dev, _ = acl.rt.malloc(64, 0)
    acl.rt.memset(dev, 64, 0xEE, 64)
    stream, _ = acl.rt.create_stream()
    assert acl.rt.get_overflow_status(dev, 64, stream) == 0
    assert acl.rt.reset_overflow_status(stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    out = np.zeros(64, np.uint8)
    assert acl.rt.memcpy(out.ctypes.data, 64, dev, 64, 2) == 0
    assert out.tobytes() == bytes(8) + b"\xee" * 56
    assert acl.rt.get_overflow_status(0, 64, stream) == 100000
    assert acl.rt.get_overflow_status(dev, 4, stream) == 100000
    acl.rt.destroy_stream(stream)


def test_last_error_is_per_thread_and_get_clears_it(ready):
    acl = ready
    assert acl.rt.get_last_error(0) == 0
    assert acl.rt.malloc(0, 0) == (0, 100000)
    assert acl.rt.peek_at_last_error(0) == 100000
    assert acl.rt.peek_at_last_error(0) == 100000
    seen = []
    t = threading.Thread(target=lambda: seen.append(acl.rt.peek_at_last_error(0)))
    t.start(); t.join()
    assert seen == [0]
    assert acl.rt.get_last_error(0) == 100000
    assert acl.rt.get_last_error(0) == 0
