"""Context and process options: ``get_primary_ctx_state``, ``ctx_set/get_sys_param_opt``, ``set/get_sys_param_opt``.

``get_primary_ctx_state(device_id)`` reports whether the device's primary (default) context is
alive — it is from ``set_device`` until the matching ``reset_device``. The binding passes NULL for
the flags pointer and builds ``(active, flags pointer, ret)``, so the middle value is always 0
(rt_context.cpp @134e2edb). System parameters (aclSysParamOpt) are kept per process
(``set_sys_param_opt``) and per context (``ctx_set_sys_param_opt``, which wins for that context);
a getter answers the context's value, else the process's, else 0 (the documented default).
UNCONFIRMED: 100000 for an opt that is no aclSysParamOpt; getters of a never-set opt answer 0.
*simulator:* the options are recorded; the CPU simulator is deterministic either way.
"""
from __future__ import annotations

from typing import Dict

from ..spec import sysparam as P
from ._args import CONTEXT, INIT, binding
from .runtime import Context, current_context
from .state import fail, state


@binding("acl.rt.get_primary_ctx_state", "i", needs=INIT, outs=2)
def get_primary_ctx_state(api, device_id):
    """(active, 0, ret): active is 1 while set_device holds the device's primary context, else 0."""
    st = state()
    if not 0 <= device_id < st.config.device_count:
        return 0, 0, fail(107001, api, f"device {device_id} does not exist (0..{st.config.device_count - 1}).")
    dev = st.devices.get(device_id)
    active = int(bool(dev is not None and dev.default_context and st.lookup(dev.default_context, Context)))
    return active, 0, 0


def _process() -> Dict[int, int]:
    return state().subsystems.setdefault("sys_param_opt", {})


def _per_context() -> Dict[int, Dict[int, int]]:
    return state().subsystems.setdefault("ctx_sys_param_opt", {})


def _check_opt(api: str, opt: int) -> int:
    if opt in P.SYS_PARAM_OPTS:
        return 0
    return fail(100000, api, f"opt {opt} is no aclSysParamOpt (0 ACL_OPT_DETERMINISTIC, 1 ACL_OPT_ENABLE_DEBUG_KERNEL, "
                f"2 ACL_OPT_STRONG_CONSISTENCY).")


@binding("acl.rt.set_sys_param_opt", "il", needs=INIT)
def set_sys_param_opt(api, opt, value):
    """Set a system parameter for the whole process (contexts that set their own keep theirs)."""
    ret = _check_opt(api, opt)
    if not ret:
        _process()[opt] = value
    return ret


@binding("acl.rt.get_sys_param_opt", "i", needs=INIT, outs=1)
def get_sys_param_opt(api, opt):
    """(value, ret): the process's value of a system parameter (0 until set)."""
    ret = _check_opt(api, opt)
    return (0, ret) if ret else (_process().get(opt, 0), 0)


@binding("acl.rt.ctx_set_sys_param_opt", "il", needs=CONTEXT)
def ctx_set_sys_param_opt(api, opt, value):
    """Set a system parameter for the current context only."""
    ret = _check_opt(api, opt)
    if not ret:
        _per_context().setdefault(current_context(api)[0], {})[opt] = value
    return ret


@binding("acl.rt.ctx_get_sys_param_opt", "i", needs=CONTEXT, outs=1)
def ctx_get_sys_param_opt(api, opt):
    """(value, ret): the current context's value, else the process's, else 0."""
    ret = _check_opt(api, opt)
    if ret:
        return 0, ret
    mine = _per_context().get(current_context(api)[0], {})
    return mine.get(opt, _process().get(opt, 0)), 0


__all__ = ["get_primary_ctx_state", "set_sys_param_opt", "get_sys_param_opt", "ctx_set_sys_param_opt",
           "ctx_get_sys_param_opt"]
