"""``acl.rt`` process settings: system parameters, op timeouts, overflow status and the thread's last error."""
from __future__ import annotations

import numpy as np

from ...spec import rt_device as R
from ..core.args import CONTEXT, INIT, binding
from .memory import _queue, space
from .runtime import current_context
from ..core.state import fail, state

__all__ = ["set_sys_param_opt", "get_sys_param_opt", "ctx_set_sys_param_opt", "ctx_get_sys_param_opt",
           "set_op_wait_timeout", "set_op_execute_time_out", "set_op_execute_timeout_v2", "get_op_timeout_interval",
           "get_op_execute_timeout", "get_overflow_status", "reset_overflow_status", "peek_at_last_error",
           "get_last_error"]


def _settings() -> dict:
    return state().subsystems.setdefault("rt_settings", {"sys": {}, "ctx": {}, "overflow": set()})


def _check_opt(api: str, opt: int, value: int = 0) -> int:
    """0, or 100000 for an opt outside aclSysParamOpt or a value other than 0/1 (UNCONFIRMED codes)."""
    if opt not in R.SYS_PARAM_OPTS:
        return fail(100000, api, f"opt {opt} is not an aclSysParamOpt (0 deterministic, 1 debug kernel, "
                    f"2 strong consistency).")
    if value not in (0, 1):
        return fail(100000, api, f"value {value} must be 0 (off) or 1 (on).")
    return 0


@binding("acl.rt.set_sys_param_opt", "il", needs=INIT)
def set_sys_param_opt(api, opt, value):
    """Set a process-wide aclSysParamOpt (deterministic computing, debug kernels, strong consistency)."""
    ret = _check_opt(api, opt, value)
    if not ret:
        _settings()["sys"][opt] = value
    return ret


@binding("acl.rt.get_sys_param_opt", "i", needs=INIT, outs=1)
def get_sys_param_opt(api, opt):
    """(value, ret) of a process-wide option; 0 (off) until set (UNCONFIRMED default)."""
    ret = _check_opt(api, opt)
    return (0, ret) if ret else (_settings()["sys"].get(opt, 0), 0)


@binding("acl.rt.ctx_set_sys_param_opt", "il", needs=CONTEXT)
def ctx_set_sys_param_opt(api, opt, value):
    """Set an option for the current context only."""
    ret = _check_opt(api, opt, value)
    if not ret:
        _settings()["ctx"][(current_context(api)[0], opt)] = value
    return ret


@binding("acl.rt.ctx_get_sys_param_opt", "i", needs=CONTEXT, outs=1)
def ctx_get_sys_param_opt(api, opt):
    """(value, ret) for the current context: its own setting, else the process-wide one (UNCONFIRMED fallback)."""
    ret = _check_opt(api, opt)
    if ret:
        return 0, ret
    ctx = current_context(api)[0]
    return _settings()["ctx"].get((ctx, opt), _settings()["sys"].get(opt, 0)), 0


# -- op timeouts ---------------------------------------------------------------------------------
@binding("acl.rt.set_op_wait_timeout", "I", needs=INIT)
def set_op_wait_timeout(api, timeout):
    """How long (s) a stream waits for an event or notify; 0 waits forever (simulator: recorded only)."""
    _settings()["wait_timeout_s"] = timeout
    return 0


def _round_up(timeout_us: int) -> int:
    step = R.OP_TIMEOUT_INTERVAL_US
    return -(-timeout_us // step) * step


@binding("acl.rt.set_op_execute_time_out", "I", needs=INIT)
def set_op_execute_time_out(api, timeout):
    """How long (s) one operator may run before the runtime reports a timeout; 0 is the default."""
    _settings()["exec_timeout_us"] = _round_up(timeout * 1_000_000)
    return 0


@binding("acl.rt.set_op_execute_timeout_v2", "K", needs=INIT, outs=1)
def set_op_execute_timeout_v2(api, timeout_us):
    """(the timeout really used, ret): ``timeout_us`` rounded up to get_op_timeout_interval's granularity."""
    actual = _round_up(timeout_us)
    _settings()["exec_timeout_us"] = actual
    return actual, 0


@binding("acl.rt.get_op_timeout_interval", needs=INIT, outs=1)
def get_op_timeout_interval(api):
    """(granularity of operator timeouts in µs, ret) (UNCONFIRMED value)."""
    return R.OP_TIMEOUT_INTERVAL_US, 0


@binding("acl.rt.get_op_execute_timeout", needs=INIT, outs=1)
def get_op_execute_timeout(api):
    """(operator execute timeout in ms, ret); 0 until set (UNCONFIRMED: the default reads 0)."""
    return _settings().get("exec_timeout_us", 0) // 1000, 0


# -- overflow ------------------------------------------------------------------------------------------
OVERFLOW_BYTES = 8  # UNCONFIRMED: the status written is one uint64 (non-zero when an overflow happened)


@binding("acl.rt.get_overflow_status", "kkk", needs=INIT)
def get_overflow_status(api, output_addr, output_size, stream):
    """Enqueue on ``stream`` a write of the overflow flag to device memory ``output_addr`` (0: no overflow).

    simulator: its operators never flag an overflow, so the flag reads 0 unless a test marks the stream.
    """
    if output_addr == 0:
        return fail(100000, api, "output_addr is 0 (NULL).")
    if output_size < OVERFLOW_BYTES:
        return fail(100000, api, f"output_size {output_size} is smaller than the {OVERFLOW_BYTES}-byte status.")
    region, offset, why = space().resolve(output_addr, OVERFLOW_BYTES, api, write=True)
    if region is None:
        return fail(107000, api, f"{why}.")
    def task():
        flagged = stream in _settings()["overflow"]
        flag = int(flagged).to_bytes(OVERFLOW_BYTES, "little")
        region.view(offset, OVERFLOW_BYTES)[:] = np.frombuffer(flag, np.uint8)
        return None

    return _queue(api, stream, "get_overflow_status", task, cat="task")


@binding("acl.rt.reset_overflow_status", "k", needs=INIT)
def reset_overflow_status(api, stream):
    """Enqueue on ``stream`` a clear of the overflow flag."""
    def task():
        _settings()["overflow"].discard(stream)
        return None

    return _queue(api, stream, "reset_overflow_status", task, cat="task")


# -- last error ------------------------------------------------------------------------------------------
def _check_level(level: int) -> int:
    return 0 if level == R.LAST_ERR_THREAD_LEVEL else 100000  # UNCONFIRMED: other levels refused


@binding("acl.rt.peek_at_last_error", "i")
def peek_at_last_error(api, level):
    """The last error code a call returned in this thread (0 if none), left in place."""
    return _check_level(level) or getattr(state().tls, "last_error", 0)


@binding("acl.rt.get_last_error", "i")
def get_last_error(api, level):
    """The last error code a call returned in this thread (0 if none); reading clears it."""
    ret = _check_level(level)
    if ret:
        return ret
    code = getattr(state().tls, "last_error", 0)
    state().tls.last_error = 0
    return code
