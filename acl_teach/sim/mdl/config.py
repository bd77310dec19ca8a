"""``acl.mdl.load_with_config`` with its config handles, and ``execute_v2`` with the exec-config handles.

load_with_config reads the ACL_MDL_LOAD_TYPE_SIZET the learner set and loads exactly as the
matching load call would (file, file with memory, memory, memory with memory); the queue load types
(5, 6) are not simulated and say so. Binding (mdl_wrap.cpp at 134e2edb): set_config_opt ``"kiO"``
with the value parsed per attribute (``"i"`` priority, ``"s"`` ACL_MDL_PATH_PTR, ``"k"`` the
*_ADDR_PTR ones and ACL_MDL_WEIGHT_PATH_PTR, ``"K"`` the rest) — a value of the wrong type raises
``TypeError('acl.mdl.set_config_opt args parse failed!')``; set_exec_config_opt ``"kkI"``;
execute_v2 ``"Ikkkk"``. UNCONFIRMED: 100000 for an unknown attribute, a load type outside 1..6, a
load without the options its type needs, and for an exec-config attribute the simulator does not know
(it keeps the value: none changes a CPU run).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict

from ...spec import mdl_config as M
from ..core.args import INIT, _convert, binding
from .execution import execute_async
from .model import load_from_file, load_from_file_with_mem, load_from_mem, load_from_mem_with_mem
from ..core.state import create_handle, destroy_handle, fail, state


@dataclass
class ConfigHandle:
    """aclmdlConfigHandle: the options set so far."""

    opts: Dict[int, Any] = field(default_factory=dict)


@dataclass
class ExecConfigHandle:
    """aclmdlExecConfigHandle: execution options (kept; none changes a CPU run)."""

    opts: Dict[int, int] = field(default_factory=dict)


@binding("acl.mdl.create_config_handle")
def create_config_handle(api):
    """A new, empty model-load config."""
    return create_handle(ConfigHandle(), "model config handle", "create_config_handle")


@binding("acl.mdl.destroy_config_handle", "k")
def destroy_config_handle(api, handle):
    """Destroy a config from create_config_handle."""
    return destroy_handle(api, handle, ConfigHandle, "model config handle")


def _letter(attr: int) -> str:
    if attr == M.ACL_MDL_PRIORITY_INT32:
        return "i"
    if attr in M.STRING_ATTRS:
        return "s"
    return "k" if attr in M.POINTER_ATTRS else "K"


@binding("acl.mdl.set_config_opt", "kiO")
def set_config_opt(api, handle, attr, value):
    """Set one load option (ACL_MDL_LOAD_TYPE_SIZET, ACL_MDL_PATH_PTR, ACL_MDL_WEIGHT_ADDR_PTR …)."""
    try:
        parsed = _convert(_letter(attr), value)
    except ValueError as exc:  # the wrapper's CHECK_NULL(PyArg_Parse(...), "... failed!"): that text exactly
        error = TypeError("acl.mdl.set_config_opt args parse failed!")
        if hasattr(error, "add_note"):
            error.add_note(f"[acl-teach] attribute {attr} takes {'a str' if _letter(attr) == 's' else 'an int'}: {exc}")
        raise error from None
    cfg = state().lookup(handle, ConfigHandle)
    if cfg is None:
        return fail(100000, api, f"{state().describe_handle(handle)} is not a config from create_config_handle.")
    if not 0 <= attr <= M.ACL_MDL_WITHOUT_GRAPH_INT32:
        return fail(100000, api, f"attribute {attr} is not an aclmdlConfigAttr (0..{M.ACL_MDL_WITHOUT_GRAPH_INT32}).")
    if attr == M.ACL_MDL_LOAD_TYPE_SIZET and not M.ACL_MDL_LOAD_FROM_FILE <= parsed <= M.ACL_MDL_LOAD_FROM_MEM_WITH_Q:
        return fail(100000, api, f"load type {parsed} must be ACL_MDL_LOAD_FROM_FILE (1) … FROM_MEM_WITH_Q (6).")
    if attr == M.ACL_MDL_PRIORITY_INT32 and not 0 <= parsed <= 7:
        return fail(100000, api, f"priority {parsed} must be 0 (highest) … 7.")
    cfg.opts[attr] = parsed
    return 0


_NEEDS = {M.ACL_MDL_LOAD_FROM_FILE: (M.ACL_MDL_PATH_PTR,),
          M.ACL_MDL_LOAD_FROM_FILE_WITH_MEM: (M.ACL_MDL_PATH_PTR,),
          M.ACL_MDL_LOAD_FROM_MEM: (M.ACL_MDL_MEM_ADDR_PTR, M.ACL_MDL_MEM_SIZET),
          M.ACL_MDL_LOAD_FROM_MEM_WITH_MEM: (M.ACL_MDL_MEM_ADDR_PTR, M.ACL_MDL_MEM_SIZET)}
_NAMES = {v: k for k, v in vars(M).items() if k.startswith("ACL_MDL_") and isinstance(v, int) and
          not k.startswith("ACL_MDL_LOAD_FROM")}


@binding("acl.mdl.load_with_config", "k", needs=INIT, outs=1)
def load_with_config(api, handle):
    """(model_id, ret): load the model the config describes, as the matching load_* call does."""
    cfg = state().lookup(handle, ConfigHandle)
    if cfg is None:
        return 0, fail(100000, api, f"{state().describe_handle(handle)} is not a config from create_config_handle.")
    kind = cfg.opts.get(M.ACL_MDL_LOAD_TYPE_SIZET)
    if kind is None:
        return 0, fail(100000, api, "set ACL_MDL_LOAD_TYPE_SIZET (1 file, 2 file with memory, 3 memory, "
                       "4 memory with memory) first.")
    if kind in (M.ACL_MDL_LOAD_FROM_FILE_WITH_Q, M.ACL_MDL_LOAD_FROM_MEM_WITH_Q):
        return 0, fail(100000, api, "loading with input/output queues (load types 5 and 6) is not simulated.")
    missing = [_NAMES[a] for a in _NEEDS[kind] if a not in cfg.opts]
    if missing:
        return 0, fail(100000, api, f"load type {kind} needs {', '.join(missing)}.")
    o = cfg.opts
    work = (o.get(M.ACL_MDL_WORKSPACE_ADDR_PTR, 0), o.get(M.ACL_MDL_WORKSPACE_SIZET, 0))
    weight = (o.get(M.ACL_MDL_WEIGHT_ADDR_PTR, 0), o.get(M.ACL_MDL_WEIGHT_SIZET, 0))
    if kind == M.ACL_MDL_LOAD_FROM_FILE:
        return load_from_file.__wrapped__(api, o[M.ACL_MDL_PATH_PTR])
    if kind == M.ACL_MDL_LOAD_FROM_FILE_WITH_MEM:
        return load_from_file_with_mem.__wrapped__(api, o[M.ACL_MDL_PATH_PTR], *work, *weight)
    mem = (o[M.ACL_MDL_MEM_ADDR_PTR], o[M.ACL_MDL_MEM_SIZET])
    if kind == M.ACL_MDL_LOAD_FROM_MEM:
        return load_from_mem.__wrapped__(api, *mem)
    return load_from_mem_with_mem.__wrapped__(api, *mem, *work, *weight)


@binding("acl.mdl.create_exec_config_handle")
def create_exec_config_handle(api):
    """A new execution config for execute_v2."""
    return create_handle(ExecConfigHandle(), "model exec config handle", "create_exec_config_handle")


@binding("acl.mdl.destroy_exec_config_handle", "k")
def destroy_exec_config_handle(api, handle):
    """Destroy an exec config."""
    return destroy_handle(api, handle, ExecConfigHandle, "model exec config handle")


@binding("acl.mdl.set_exec_config_opt", "kkI")
def set_exec_config_opt(api, handle, attr, value):
    """Set an execution option (aclmdlExecConfigAttr); kept on the handle (UNCONFIRMED: none changes a CPU run)."""
    cfg = state().lookup(handle, ExecConfigHandle)
    if cfg is None:
        return fail(100000, api, f"{state().describe_handle(handle)} is not an exec config handle.")
    cfg.opts[attr] = value
    return 0


@binding("acl.mdl.execute_v2", "Ikkkk", needs=INIT)
def execute_v2(api, model_id, input_dataset, output_dataset, stream, handle):
    """Queue inference on ``stream`` with an exec config (0: defaults); outputs valid after synchronize_stream."""
    if handle and state().lookup(handle, ExecConfigHandle) is None:
        return fail(100000, api, f"{state().describe_handle(handle)} is not an exec config handle.")
    return execute_async.__wrapped__(api, model_id, input_dataset, output_dataset, stream)


__all__ = ["create_config_handle", "destroy_config_handle", "set_config_opt", "load_with_config",
           "create_exec_config_handle", "destroy_exec_config_handle", "set_exec_config_opt", "execute_v2"]
