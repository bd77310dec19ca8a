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

from ..core.args import INIT, binding
from .runtime import Context
from ..core.state import fail, state


@binding("acl.rt.get_primary_ctx_state", "i", needs=INIT, outs=2)
def get_primary_ctx_state(api, device_id):
    """(active, 0, ret): active is 1 while set_device holds the device's primary context, else 0."""
    st = state()
    if not 0 <= device_id < st.config.device_count:
        return 0, 0, fail(107001, api, f"device {device_id} does not exist (0..{st.config.device_count - 1}).")
    dev = st.devices.get(device_id)
    active = int(bool(dev is not None and dev.default_context and st.lookup(dev.default_context, Context)))
    return active, 0, 0


__all__ = ["get_primary_ctx_state"]
