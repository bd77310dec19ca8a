"""Process-level calls: ``acl.init``, ``acl.finalize``, version/SoC queries, and the leak report.

finalize releases whatever is still alive (as the real process teardown would) and prints what
the learner never released themselves.
"""
from __future__ import annotations

import json
import os
import sys
from typing import List

from ._args import binding
from .ledger import Entry
from .runtime import IMPLICIT, release_device
from .state import fail, state


@binding("acl.init", "|s")
def init(api, config_path=None):
    """Initialise AscendCL once per process; a second call returns 100002 (harmless)."""
    st = state()
    with st.lock:
        if st.initialized:
            return fail(100002, api, "AscendCL is already initialised in this process.")
        if config_path:
            if not os.path.isfile(config_path):
                # UNCONFIRMED: the exact code real aclInit returns for a missing config file.
                return fail(100003, api, f"config file {config_path!r} does not exist.")
            try:
                with open(config_path, encoding="utf-8") as fh:
                    json.load(fh)
            except (OSError, ValueError) as exc:
                return fail(100006, api, f"config file {config_path!r} is not valid JSON ({exc}).")
        st.initialized = True
        st.ledger.add("acl", 0, f"acl.init({config_path!r})" if config_path else "acl.init()", key="acl")
        return 0


def unreleased() -> List[Entry]:
    """Resources the learner never released: still alive, or reclaimed only implicitly."""
    return [e for e in state().ledger.all()
            if e.kind != "acl" and (e.alive or (e.released_by or "").startswith(IMPLICIT))]


def leak_report() -> str:
    """Readable list of what was not released by its own release call ('' when nothing)."""
    rows = unreleased()
    if not rows:
        return ""
    lines = [f"[acl-teach sim] leak report: {len(rows)} resource(s) were not released by their "
             f"own release call:"]
    lines += ["  " + e.line() for e in rows]
    lines.append("  Release in order: datasets/buffers -> acl.rt.free / free_host -> destroy_stream -> "
                 "destroy_context -> reset_device -> finalize.")
    return "\n".join(lines)


@binding("acl.finalize")
def finalize(api):
    """De-initialise: release everything still alive and print the leak report."""
    st = state()
    with st.lock:
        if not st.initialized:
            # UNCONFIRMED for finalize without any init: treated like a repeated finalize.
            return fail(100037, api, "AscendCL is not initialised (finalize already ran, or init never did).")
        by = IMPLICIT + api
        for device_id, dev in list(st.devices.items()):
            if dev.refcount or dev.default_context:
                dev.refcount = 0
                release_device(device_id, by)
        for entry in list(st.ledger.live()):
            if entry.kind == "acl":
                continue
            if entry.kind == "host memory" and st.memory is not None and entry.handle in st.memory.allocs:
                st.memory.release(st.memory.allocs[entry.handle], by)
            else:
                st.handles.pop(entry.handle, None)
                st.ledger.release(entry.key, by)
        report = leak_report()
        if report and st.config.explain:
            print(report, file=sys.stderr)
        st.ledger.release("acl", api)
        st.initialized = False
        return 0


@binding("acl.get_soc_name")
def get_soc_name(api):
    """The chip name, e.g. 'Ascend310' (works before acl.init, like the real call)."""
    return state().config.soc_name


@binding("acl.get_version")
def get_version(api):
    """(major, minor, patch, ret) of the (simulated) AscendCL."""
    major, minor, patch = state().config.version
    return major, minor, patch, 0


@binding("acl.get_recent_err_msg")
def get_recent_err_msg(api):
    """The explanation of this thread's latest failed call (then cleared), or None."""
    tls = state().tls
    msg = getattr(tls, "recent_err", None)
    tls.recent_err = None
    return msg
