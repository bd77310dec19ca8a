"""Which ``acl`` the step API talks to: the simulator, or real pyACL on an Ascend machine.

``use("sim" | "npu" | "auto")`` or the environment variable ACL_TEACH_BACKEND choose; "auto"
(the default) prefers real pyACL when ``import acl`` finds CANN's module.
"""
from __future__ import annotations

import importlib
import os
import sys
from types import ModuleType
from typing import Optional

_active: Optional[ModuleType] = None
_name: Optional[str] = None


def _real_acl() -> Optional[ModuleType]:
    """CANN's pyACL if importable (never our simulator, never PyPI's unrelated 'acl')."""
    from . import sim
    present = sys.modules.get("acl")
    if present is sim or sim.surface.is_surface(present):
        return None
    try:
        module = present or importlib.import_module("acl")
    except ImportError:
        return None
    return module if hasattr(module, "rt") and hasattr(module, "mdl") else None


def use(name: str = "auto") -> str:
    """Select the backend; returns 'sim' or 'npu'."""
    global _active, _name
    name = (name or "auto").lower()
    if name not in ("sim", "npu", "auto"):
        raise ValueError("backend must be 'sim', 'npu' or 'auto'")
    real = None if name == "sim" else _real_acl()
    if name == "npu" and real is None:
        raise RuntimeError("backend 'npu' needs real pyACL (import acl from the CANN toolkit), which is not "
                           "importable here; source CANN's set_env.sh, or use the simulator: use('sim').")
    from . import sim
    _active, _name = (real, "npu") if real is not None else (sim.acl(), "sim")
    return _name


def acl() -> ModuleType:
    """The active ``acl`` module (chosen on first use from ACL_TEACH_BACKEND, default auto)."""
    if _active is None:
        use(os.environ.get("ACL_TEACH_BACKEND", "auto"))
    return _active


def name() -> str:
    """'sim' or 'npu'."""
    acl()
    return _name


def inspector() -> ModuleType:
    """How widgets and the lab look inside: ``acl_teach.sim.inspect``, or documented calls on a board."""
    if name() == "sim":
        from .sim import inspect
        return inspect
    from . import board_inspect
    return board_inspect
