"""``acl_teach.sim`` — a faithful CPU simulator of pyACL's ``acl`` module.

``install()`` registers the simulator as ``acl`` (and ``acl.rt``, ``acl.mdl`` … all ten modules), then use it
exactly like pyACL::

    from acl_teach import sim; sim.install()
    import acl
    acl.init(); acl.rt.set_device(0) ...

or run an unmodified pyACL script with ``python -m acl_teach.sim script.py``. The modules registered as ``acl``
carry the binding's names only (``sim.surface``, built from pyACL's method table; a real name the simulator does
not model raises ``NotSimulatedError``). This package holds the extras a board does not have: ``configure`` (run
mode, SoC, memory), ``ledger``/``leak_report`` (what is alive and who made it), ``reset`` (a fresh simulated
process), ``warnings``, ``install``; pyACL's constants are in ``acl_teach.spec.constants``.

Faithful beats strict: what real pyACL accepts runs here too; where the hardware would then
silently misbehave (reading past a bytes object, a memcpy kind that does not match the pointers,
an input buffer a few bytes short) the consequence is made visible and a warning is printed, kept
for ``acl.get_recent_err_msg()`` and listed by ``warnings()``. ``configure(strict=True)`` (or
``python -m acl_teach.sim --strict``) turns those warnings into errors for a teaching moment.

Layout, mirroring pyACL's modules: one subpackage per namespace (``rt``, ``mdl``, ``op``, ``media`` with
``dvpp``/``vdec``/``venc``, ``util``, ``prof``, ``blas``), whose ``__init__`` assembles ``acl.<module>``, and one
module per concept inside; ``base`` holds the top-level ``acl.*`` functions and ``core`` the shared machinery (the
table-driven argument parser ``core.args``, the simulated process ``core.state``, the ledger, the clock). The
import-linter contracts in pyproject.toml keep the direction: core and rt under everything, media beside mdl.
"""
from __future__ import annotations

import importlib.util
import sys
from types import ModuleType
from typing import List, Optional

from . import (blas, constants, mdl, media, op, prof, rt, surface, util)  # noqa: F401  (the namespaces behind acl.rt …)
from .base.databuffer import (create_data_buffer, destroy_data_buffer, get_data_buffer_addr, get_data_buffer_size,
                              get_data_buffer_size_v2, update_data_buffer)
from .base.float16 import float16_to_float, float_to_float16  # noqa: F401
from .core.ledger import Entry
from .base.tensor_desc_set import *  # noqa: F401,F403  (acl.set_tensor_* and the remaining tensor-desc getters)
from .base.tensor_desc import (create_tensor_desc, data_type_size, destroy_tensor_desc, get_tensor_desc_dim_v2,
                               get_tensor_desc_element_count, get_tensor_desc_format, get_tensor_desc_num_dims,
                               get_tensor_desc_size, get_tensor_desc_type, set_tensor_const)
from .base.cann_info import *  # noqa: F401,F403  (CANN attributes, device capability, versions, finalize_reference)
from .base.process import app_log, finalize, get_recent_err_msg, get_soc_name, get_version, init, leak_report  # noqa
from .core.state import Config, SimulatorFault, SimWarning, replace_state, state  # noqa: F401
from .surface import NotSimulatedError  # noqa: F401


def configure(run_mode: Optional[str] = None, soc_name: Optional[str] = None,
              device_count: Optional[int] = None, device_memory: Optional[int] = None,
              explain: Optional[bool] = None, wait_timeout_s: Optional[float] = None,
              strict: Optional[bool] = None, app_log_level: Optional[int] = None,
              init_once: Optional[bool] = None, threads: Optional[int] = None) -> Config:
    """Choose the simulated machine: run_mode 'host' (PC + card) or 'device' (a board such as the 200I DK A2).

    ``strict=True`` turns the simulator's warnings (calls real pyACL accepts although the hardware
    then misbehaves: a copy past a bytes object, a memcpy kind that does not match the pointers …)
    into the error codes the simulator used to return, for a teaching moment. Default: faithful.
    ``init_once=True`` enforces the CANN <= 8.0 rule: one acl.init per process, none after acl.finalize.
    ``threads`` caps the ONNX Runtime threads of each model loaded from then on (0: one per core); a class
    server sets 1 (ACL_TEACH_SIM_THREADS): idle pool threads spin, which costs a shared CPU time and no one
    gains from it.
    """
    st = state()
    if any(d.refcount for d in st.devices.values()) and (run_mode is not None or device_count is not None):
        raise RuntimeError("configure(run_mode/device_count) while a device is open: call "
                           "acl.rt.reset_device first, or acl_teach.sim.reset().")
    cfg = st.config
    if run_mode is not None:
        if run_mode not in ("host", "device"):
            raise ValueError("run_mode must be 'host' (ACL_HOST, a PC with an accelerator card) or "
                             "'device' (ACL_DEVICE, code running on the board itself)")
        cfg.run_mode = constants.ACL_HOST if run_mode == "host" else constants.ACL_DEVICE
    if soc_name is not None:
        cfg.soc_name = soc_name
    if device_count is not None:
        if int(device_count) < 1:
            raise ValueError("device_count must be at least 1")
        cfg.device_count = int(device_count)
    if device_memory is not None:
        cfg.device_memory = int(device_memory)
    if explain is not None:
        cfg.explain = bool(explain)
    if wait_timeout_s is not None:
        cfg.wait_timeout_s = float(wait_timeout_s)
    if strict is not None:
        cfg.strict = bool(strict)
    if app_log_level is not None:
        cfg.app_log_level = int(app_log_level)
    if init_once is not None:
        cfg.init_once = bool(init_once)
    if threads is not None:
        if int(threads) < 0:
            raise ValueError("threads must be 0 (one per core) or more")
        cfg.threads = int(threads)
    return cfg


def warnings() -> List[SimWarning]:
    """Calls that real pyACL accepts but whose effect on hardware is silently wrong, in call order."""
    return list(state().warnings)


def ledger(include_released: bool = False) -> List[Entry]:
    """Resources of this simulated process with the line or cell that created each."""
    st = state().ledger
    return st.all() if include_released else st.live()


def reset(config: Optional[Config] = None) -> None:
    """Throw the simulated process away (nothing is reported) and start fresh, keeping the config."""
    replace_state(config)


def acl() -> ModuleType:
    """The module that stands in for ``acl`` (the binding's names only); what ``install()`` registers."""
    return surface.build()


def install(force: bool = False) -> None:
    """Register the simulator as ``acl``, ``acl.rt`` … in ``sys.modules`` (never shadows a real pyACL unless forced)."""
    if surface.installed():
        return
    if not force:
        present = sys.modules.get("acl")
        spec = None if present is not None else importlib.util.find_spec("acl")
        if present is not None or spec is not None:
            where = getattr(present, "__file__", None) or (spec.origin if spec else "?")
            raise RuntimeError(f"a module named 'acl' is importable here ({where}): real pyACL from CANN, "
                               f"or PyPI's unrelated 'acl' package. acl_teach.sim will not shadow it; call "
                               f"install(force=True) to use the simulator anyway.")
    sys.modules.update(surface.modules())
