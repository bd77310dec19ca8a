"""The simulator's process-wide state: configuration, init flag, handles, the ledger, error messages.

Everything a fresh ``acl`` process would start with lives in one ``State`` object, so
``acl_teach.sim.reset()`` can throw it away and a notebook can run top to bottom again.
"""
from __future__ import annotations

import itertools
import os
import sys
import threading
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Type, TypeVar

from ...spec import errors
from .. import constants as C
from .ledger import Ledger, origin

GiB = 1 << 30
HANDLE_BASE = 0x2000_0000_0000_0000  # handles (contexts, streams, buffers …) never look like memory
T = TypeVar("T")


@dataclass
class Config:
    """What kind of machine the simulator pretends to be (change with ``acl_teach.sim.configure``)."""

    run_mode: int = C.ACL_HOST
    soc_name: str = "Ascend310"
    device_count: int = 1
    device_memory: int = 8 * GiB
    explain: bool = True
    wait_timeout_s: float = 30.0
    version: tuple = (1, 0, 0)
    strict: bool = False  # True: what real pyACL accepts silently but the simulator warns about fails instead
    app_log_level: int = C.ACL_WARNING  # acl.app_log messages from this level up go to stderr
    init_once: bool = False  # True: the CANN <= 8.0 rule, one acl.init per process (see process.init)
    threads: int = 0  # ONNX Runtime intra-op threads per model session; 0: ONNX Runtime's choice (one per core)

    @classmethod
    def from_env(cls) -> "Config":
        """Defaults overridden by ACL_TEACH_SIM_* environment variables (used by ``python -m``)."""
        cfg = cls()
        mode = os.environ.get("ACL_TEACH_SIM_RUN_MODE", "").strip().lower()
        if mode:
            cfg.run_mode = C.ACL_DEVICE if mode in ("device", "0", "acl_device") else C.ACL_HOST
        cfg.soc_name = os.environ.get("ACL_TEACH_SIM_SOC", cfg.soc_name)
        cfg.device_memory = _env_int("ACL_TEACH_SIM_DEVICE_MEMORY", cfg.device_memory, 1)
        cfg.device_count = _env_int("ACL_TEACH_SIM_DEVICES", cfg.device_count, 1)
        cfg.threads = _env_int("ACL_TEACH_SIM_THREADS", cfg.threads, 0)
        if os.environ.get("ACL_TEACH_SIM_QUIET"):
            cfg.explain = False
        if os.environ.get("ACL_TEACH_SIM_STRICT", "").strip().lower() in ("1", "true", "yes", "on"):
            cfg.strict = True
        if os.environ.get("ACL_TEACH_SIM_INIT_ONCE", "").strip().lower() in ("1", "true", "yes", "on"):
            cfg.init_once = True
        return cfg


def _env_int(name: str, default: int, minimum: int) -> int:
    """An integer environment setting; a malformed one is reported and ignored (never breaks an import)."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw, 0)
    except ValueError:
        value = minimum - 1
    if value < minimum:
        print(f"[acl-teach sim] warning: {name}={raw!r} is not an integer >= {minimum}; using {default}.",
              file=sys.stderr)
        return default
    return value


@dataclass
class SimWarning:
    """A call real pyACL accepts although the hardware then misbehaves; the simulator went on and said so."""

    api: str
    message: str
    origin: str  # the line or notebook cell that made the call


class SimulatorFault(RuntimeError):
    """Raised where real hardware would crash the process (e.g. the host CPU reading device memory)."""


class State:
    """One simulated process: config, init status, devices, handles and the ledger."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.initialized = False
        self.ever_initialized = False  # this process has run acl.init successfully once (init_once rule)
        self.lock = threading.RLock()
        self.ledger = Ledger()
        self.handles: Dict[int, Any] = {}
        self._next = itertools.count(1)
        self.tls = threading.local()
        self.devices: Dict[int, Any] = {}
        self.memory: Any = None  # set by memory.MemorySpace on first use
        self.subsystems: Dict[str, Any] = {}
        self.warnings: List[SimWarning] = []

    def new_handle(self, obj: Any) -> int:
        """Give ``obj`` a fresh plain-int handle."""
        handle = HANDLE_BASE + next(self._next) * 0x40
        self.handles[handle] = obj
        return handle

    def lookup(self, handle: int, cls: Type[T]) -> Optional[T]:
        """The live object of type ``cls`` behind ``handle``, or None."""
        obj = self.handles.get(handle)
        return obj if isinstance(obj, cls) else None

    def describe_handle(self, handle: int) -> str:
        """What an int the learner passed actually is, for error messages."""
        if handle == 0:
            return "0 (NULL)"
        obj = self.handles.get(handle)
        if obj is not None:
            return f"{handle:#x} (a {type(obj).__name__})"
        entry = next((e for e in reversed(self.ledger.all()) if e.handle == handle), None)
        if entry is not None:
            return f"{handle:#x} (a {entry.kind} released by {entry.released_by} at {entry.released_at})"
        return f"{handle:#x} (not a handle the simulator created)"


_state = State(Config.from_env())


def state() -> State:
    """The current simulated process."""
    return _state


def replace_state(config: Optional[Config] = None) -> State:
    """Start a fresh simulated process (keeps the config unless a new one is given)."""
    global _state
    _state = State(config or _state.config)
    return _state


def fail(code: int, api: str, why: str, quiet: bool = False, fix: Optional[str] = None) -> int:
    """Record why ``api`` returned ``code`` (for get_recent_err_msg and the learner) and return it.

    ``quiet`` skips the stderr line for codes that are routine (a polling timeout); ``fix`` replaces the code's
    generic fix where this call's cause is known (107000 covers a bad memcpy as well as a late free).
    """
    info = errors.explain(code)
    name = info.name if info else errors.name_of(code)
    msg = f"{api} returned {code} ({name}): {why}"
    if fix or (info is not None and info.fix):
        msg += f" Fix: {fix or info.fix}"
    _state.tls.recent_err = msg
    _state.tls.last_error = code  # for acl.rt.peek_at_last_error / get_last_error
    if _state.config.explain and not quiet:
        print(f"[acl-teach sim] {msg}", file=sys.stderr)
    return code


def warn(code: int, api: str, why: str) -> int:
    """Faithful mode: record and print a warning and return 0 (the call goes on); strict mode: ``fail(code)``.

    For what real pyACL accepts although the hardware then silently misbehaves: the learner sees the
    consequence and this note (stderr, acl.get_recent_err_msg(), ``sim.warnings()``) instead of a code
    the real runtime would not return. ``configure(strict=True)`` turns it into the old refusal.
    """
    if _state.config.strict:
        return fail(code, api, f"{why} [strict mode: real pyACL accepts this call; "
                    f"acl_teach.sim.configure(strict=False) lets it through with a warning]")
    msg = f"{api}: {why}"
    _state.tls.recent_err = f"warning: {msg}"
    _state.warnings.append(SimWarning(api, why, origin()))
    if _state.config.explain:
        print(f"[acl-teach sim] warning: {msg}", file=sys.stderr)
    return 0


def create_handle(obj: Any, kind: str, detail: str) -> int:
    """A new plain-int handle for ``obj``, recorded in the ledger as ``kind``."""
    with _state.lock:
        handle = _state.new_handle(obj)
        _state.ledger.add(kind, handle, detail)
    return handle


def destroy_handle(api: str, handle: int, cls: type, what: str) -> int:
    """Forget a live ``cls`` handle (0), or 100000 when it is not one."""
    with _state.lock:
        if _state.lookup(handle, cls) is None:
            return fail(100000, api, f"{_state.describe_handle(handle)} is not a live {what}.")
        _state.handles.pop(handle)
        _state.ledger.release(handle, api)
    return 0


def require_init(api: str) -> int:
    """0 when acl.init() has run, else 100001 (UNCONFIRMED: real CANN may differ per API)."""
    if _state.initialized:
        return 0
    return fail(100001, api, "acl.init() has not been called in this process.")
