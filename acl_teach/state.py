"""The step API's own state, in one owner: the live resources per device and the names given to handles.

``acl_teach.reset()`` clears it (and, on the simulator, starts a fresh simulated process), so a
notebook's setup cell, ``lab.setup()`` and the tests all start from the same clean slate.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, Optional


@dataclass
class StepState:
    """What the steps remember between calls."""

    live: Dict[int, Any] = field(default_factory=dict)      # device id -> Resources
    names: Dict[int, str] = field(default_factory=dict)     # handle -> variable name in printed code
    counts: Dict[str, int] = field(default_factory=dict)    # variable name -> how many so far

    def forget_names(self) -> None:
        """Name handles afresh (after finalize, handles are reused)."""
        self.names.clear()
        self.counts.clear()

    def clear(self) -> None:
        """Forget everything."""
        self.live.clear()
        self.forget_names()


_state = StepState()


def current() -> StepState:
    """The one StepState of this process."""
    return _state


def reset(simulator: bool = True, config: Optional[Any] = None) -> None:
    """Forget the step state; on the simulator backend also start a fresh simulated process (with ``config``)."""
    from . import backend
    _state.clear()
    if simulator and backend.name() == "sim":
        backend.inspector().reset(config)
