"""The simulator's public inspection API: what widgets, the lab and tests may look at, without touching internals.

Reading never changes what the learner's program sees: no ledger entry, no error message, no
copy on a stream. On a real NPU the same questions are answered by ``acl_teach.board_inspect``
(documented calls only); ``acl_teach.backend.inspector()`` picks one.
"""
from __future__ import annotations

import contextlib
import pickle
import sys
from typing import Iterator, List, Optional, Tuple

from .core.ledger import Entry
from .core import procmem
from .rt.memory import DEVICE_BASE, space
from .base.process import unreleased
from .core.state import Config, SimWarning, replace_state, state

AVAILABLE = True  # the simulator can answer every question here


def read(ptr: int, size: int) -> bytes:
    """``size`` bytes at ``ptr`` (host or device memory); ValueError says why when they are not all there."""
    if not isinstance(size, int) or isinstance(size, bool) or size < 0:
        raise ValueError(f"size must be a byte count >= 0, not {size!r}")
    if size == 0:
        return b""
    region, offset, why = space().resolve(ptr, size, quiet=True)
    if region is None:
        raise ValueError(why)
    return region.view(offset, size).tobytes()


def where(ptr: int) -> str:
    """'device memory', 'host memory' or 'unknown (freed or never allocated)'."""
    found = space().find(ptr)
    if found is None:
        sp = space()
        if sp.find_dead_user(ptr) is not None:
            return "host memory (of an object that has died)"
        if ptr < DEVICE_BASE and sp.find_freed(ptr, 1) is None and procmem.check_range(ptr, 1, False) is None:
            return "host memory (a raw pointer)"
        return "unknown (freed or never allocated)"
    return "device memory" if found[0].on_device and found[0].base >= DEVICE_BASE else "host memory"


def live(include_init: bool = False) -> List[Entry]:
    """Resources alive now, with the line or cell that made each (acl.init's own record only if asked)."""
    return [e for e in state().ledger.live() if include_init or e.kind != "acl"]


def initialized() -> bool:
    """True while acl.init has run and acl.finalize has not (checkers use the learner's process as it is)."""
    return state().initialized


def warnings() -> List[SimWarning]:
    """Calls real pyACL accepts although the hardware then misbehaves (the simulator went on and warned)."""
    return list(state().warnings)


def leaks() -> List[Entry]:
    """Resources never released by their own call: still alive, or reclaimed only by reset/finalize."""
    return unreleased()


def trace_files() -> List[str]:
    """The timeline files acl.prof (or acl.init's profiler section) wrote in this process, in order."""
    prof = state().subsystems.get("profiler")
    return list(prof.written) if prof is not None else []


def simulated_time_us() -> float:
    """The simulated host clock (µs): how much simulated device time the program has waited for so far."""
    clock = state().subsystems.get("clock")
    return clock.host_us if clock is not None else 0.0


def model_header(model_id: int) -> Optional[dict]:
    """A copy of the OM header a loaded model was parsed from (None if not loaded): no second read of its file."""
    registry = state().subsystems.get("models")  # never created by a look
    loaded = registry.loaded.get(model_id) if registry is not None else None
    # a pickle round trip is the deep copy: the header is plain data (its cost model holds ~3,000 operators),
    # and copy.deepcopy of it took longer than the rest of a session's set-up besides ONNX Runtime's
    return pickle.loads(pickle.dumps(loaded.model.header, pickle.HIGHEST_PROTOCOL)) if loaded is not None else None


@contextlib.contextmanager
def machine(soc_name: str, run_mode: int) -> Iterator[Tuple[str, int]]:
    """For the lab: run judged code on another machine (SoC name, and run mode while no Device is open), then
    give the learner's machine back; yields what the calls will now answer."""
    cfg = state().config
    old = cfg.soc_name, cfg.run_mode
    cfg.soc_name = soc_name
    if not any(d.refcount for d in state().devices.values()):
        cfg.run_mode = run_mode
    try:
        yield cfg.soc_name, cfg.run_mode
    finally:
        cfg.soc_name, cfg.run_mode = old


def machine_now() -> Tuple[str, int]:
    """(SoC name, run mode) the simulated machine answers, read without a call the learner could see."""
    return state().config.soc_name, state().config.run_mode


def reset(config: Optional[Config] = None, explain: Optional[bool] = None, keep_process: bool = False) -> None:
    """A fresh simulated process with ``config`` (default: the default machine); nothing is reported.

    ``keep_process=True`` (lab.setup in a notebook kernel) drops every resource but keeps what the real OS
    process would keep: whether acl.init has run (so a re-run init returns 100002, as on a board) and, for
    the once-per-process rule, that it ever ran. The machine comes from ACL_TEACH_SIM_* (Config.from_env).
    """
    old = state()
    if keep_process:
        config = config or Config.from_env()
        config.init_once = config.init_once or old.config.init_once
    config = config or Config()
    if explain is not None:
        config.explain = explain
    new = replace_state(config)
    if keep_process:
        new.ever_initialized = old.ever_initialized
        if old.initialized:
            new.initialized = True
            entry = next((e for e in old.ledger.live() if e.kind == "acl"), None)
            again = new.ledger.add("acl", 0, entry.detail if entry else "acl.init()", key="acl")
            again.created_at = entry.created_at if entry else again.created_at


def install() -> None:
    """Register the simulator as ``acl`` for code that runs ``import acl`` (a notebook's own cells)."""
    from .. import sim
    if not sim.surface.installed():
        sim.install(force=True)
