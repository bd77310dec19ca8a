"""Steps 1-2 and the last two: ``init``, ``request_resources`` (device -> context -> stream),
``release_resources`` (stream -> context -> device) and ``finalize``.

Safe to re-run in a notebook: a second init is reported (100002) and continues; asking again
for resources of a device that already has live ones returns those; releasing twice is a no-op
that says so.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from . import trace
from .spec.constants import ACL_DEVICE, RUN_MODE_NAMES
from .spec.errors import ACL_ERROR_REPEAT_FINALIZE, ACL_ERROR_REPEAT_INITIALIZE
from .state import current
from .step import Step



@dataclass(repr=False)
class Init(Step):
    """acl.init: once per process."""

    already_initialised: bool = False


@dataclass(repr=False)
class Resources(Step):
    """Device, context, stream and the run mode they run in."""

    device_id: int = 0
    context: int = 0
    stream: int = 0
    run_mode: str = ""
    released: bool = False

    @property
    def on_board(self) -> bool:
        """True in ACL_DEVICE mode (the code runs on the board; host and device share memory)."""
        return self.run_mode == RUN_MODE_NAMES[ACL_DEVICE]


@dataclass(repr=False)
class Release(Step):
    """What a release step did."""

    what: str = ""
    released: bool = True

    @classmethod
    def nothing_to_do(cls, what: str, why: str) -> "Release":
        """A release that found its resource already gone (a re-run cell): says so, changes nothing."""
        return cls(what=what, released=False, notes=[why])


def init(config_path: Optional[str] = None) -> Init:
    """acl.init(); 100002 (already initialised, e.g. a re-run cell) is reported, not raised."""
    rec = Init()
    ret = rec.check("acl.init", *([config_path] if config_path else []), ok=(0, ACL_ERROR_REPEAT_INITIALIZE))
    if ret == ACL_ERROR_REPEAT_INITIALIZE:
        rec.already_initialised = True
        rec.notes.append("acl.init returned 100002 ACL_ERROR_REPEAT_INITIALIZE: this process is already "
                         "initialised (a re-run cell?). Safe to continue.")
    return rec


def _still_valid(res: Resources) -> bool:
    try:
        return not res.released and trace.resolve("acl.rt.set_context")(res.context) == 0
    except Exception:  # a finalised or reset backend
        return False


def request_resources(device_id: int = 0, stream: bool = True) -> Resources:
    """set_device -> create_context -> create_stream -> get_run_mode (reuses live ones for the device)."""
    old = live_for(device_id)
    if old is not None and _still_valid(old):
        old.notes.append("reused the live resources of this device; call release_resources() first to get "
                         "fresh ones.")
        return old
    rec = Resources(device_id=device_id)
    rec.check("acl.rt.set_device", device_id)
    try:
        rec.context, _ = rec.check("acl.rt.create_context", device_id)
        if stream:
            rec.stream, _ = rec.check("acl.rt.create_stream")
        mode, _ = rec.check("acl.rt.get_run_mode")
        rec.run_mode = RUN_MODE_NAMES.get(mode, str(mode))
    except Exception:
        _undo(rec)
        raise
    current().live[device_id] = rec
    return rec


def live_for(device_id: int) -> Optional[Resources]:
    """The resources request_resources made for ``device_id`` and nobody released yet, if any."""
    return current().live.get(device_id)


def _undo(rec: Resources) -> None:
    """Roll back a half-made request so nothing is left behind."""
    if rec.stream:
        rec.call("acl.rt.destroy_stream", rec.stream)
    if rec.context:
        rec.call("acl.rt.destroy_context", rec.context)
    rec.call("acl.rt.reset_device", rec.device_id)


def release_resources(res: Resources) -> Release:
    """destroy_stream -> destroy_context -> reset_device, in the documented order."""
    if res.released:
        return Release.nothing_to_do(f"device {res.device_id}", "these resources were already released; "
                                     "nothing to do.")
    rec = Release(what=f"device {res.device_id}")
    if res.stream:
        rec.check("acl.rt.destroy_stream", res.stream)
    rec.check("acl.rt.destroy_context", res.context)
    rec.check("acl.rt.reset_device", res.device_id)
    res.released = True
    if current().live.get(res.device_id) is res:
        del current().live[res.device_id]
    return rec


def finalize() -> Release:
    """acl.finalize(); a repeated finalize (100037) is reported, not raised."""
    rec = Release(what="acl")
    ret = rec.check("acl.finalize", ok=(0, ACL_ERROR_REPEAT_FINALIZE))
    if ret == ACL_ERROR_REPEAT_FINALIZE:
        rec.released = False
        rec.notes.append("acl.finalize returned 100037 ACL_ERROR_REPEAT_FINALIZE: already finalised.")
    current().clear()
    return rec
