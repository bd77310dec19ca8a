"""Process-level calls: ``acl.init``, ``acl.finalize``, version/SoC queries, and the leak report.

finalize releases whatever is still alive (as the real process teardown would) and prints what
the learner never released themselves: afterwards no old pointer, handle or model id works and no
device memory stays charged, even for resources on a device whose set_device was never called.
Datasets and data buffers are the exception: plain host structs, they stay (listed in the report)
until their own destroy call, which returns 0 after finalize as on a board.
"""
from __future__ import annotations

import json
import os
import sys
from typing import List

from .. import constants as C
from ..core.args import binding
from .databuffer import DataBuffer
from ..mdl.dataset import Dataset
from ..mdl.dump import MAX_CONFIG_BYTES  # one cap for the two JSON configs the process reads
from ..core.ledger import Entry
from ..prof.profiler import start_from_config
from ..rt.runtime import IMPLICIT, Context, release_context, release_device
from ..core.state import fail, state
from ...spec.safe_files import read_regular


@binding("acl.init", "|s")
def init(api, config_path=None):
    """Initialise AscendCL; a second call without finalize returns 100002 (harmless, still initialised).

    After acl.finalize the two runtimes differ. The 2025/26 open-source runtime (hicann/runtime) documents
    repeated init/finalize pairs in one process: init works again (the default here). The acl.init pages up
    to CANN 8.0 say "一个进程内只能调用一次acl.init接口" and the CANN runtime of that time (acl.cpp, 2019-2020:
    aclFinalize never clears aclInitFlag) returns 100002 ACL_ERROR_REPEAT_INITIALIZE to every later init,
    and the process stays finalized: ``configure(init_once=True)`` (or ACL_TEACH_SIM_INIT_ONCE=1) gives
    that rule. simulator: what else fails in such a process is not reproduced call by call; every call that
    needs an initialised process returns 100001 here (UNCONFIRMED per API).
    """
    st = state()
    with st.lock:
        if st.initialized:
            set_init_refs(init_refs() + 1)  # aclInitImpl counts each repeat for acl.finalize_reference
            return fail(100002, api, "AscendCL is already initialised in this process.")
        if st.ever_initialized and st.config.init_once:
            return fail(100002, api, "this process already ran acl.init and acl.finalize; on CANN <= 8.0 "
                        "acl.init may be called once per process (the process stays finalized). Start a new "
                        "process (restart the kernel), or call acl.finalize only when the program ends.")
        if config_path:
            if not os.path.isfile(config_path):
                # UNCONFIRMED: the exact code real aclInit returns for a missing config file.
                return fail(100003, api, f"config file {config_path!r} does not exist.")
            try:  # a regular file of at most MAX_CONFIG_BYTES: a FIFO or /dev/zero is refused, never read
                raw = read_regular(config_path, MAX_CONFIG_BYTES, "acl.init config")
            except OSError as exc:
                return fail(100006, api, f"config file {config_path!r} cannot be read ({exc.strerror or exc}).")
            try:
                cfg = json.loads(raw.decode("utf-8"))
            except (ValueError, RecursionError) as exc:  # RecursionError: nested deeper than json reads
                return fail(100006, api, f"config file {config_path!r} is not valid JSON ({str(exc)[:200]}).")
            if isinstance(cfg, dict) and "profiler" in cfg:
                ret = start_from_config(api, cfg["profiler"])
                if ret:
                    return ret
        st.initialized = True
        st.ever_initialized = True
        set_init_refs(1)
        st.ledger.add("acl", 0, f"acl.init({config_path!r})" if config_path else "acl.init()", key="acl")
        return 0


def init_refs() -> int:
    """How many acl.init calls acl.finalize_reference still has to undo (aclInitRefCount)."""
    return state().subsystems.get("init_refs", 1 if state().initialized else 0)


def set_init_refs(count: int) -> None:
    state().subsystems["init_refs"] = count


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


# Plain host structs the runtime does not own: aclmdlDestroyDataset / aclDestroyDataBuffer just delete them and
# return 0, before or after aclFinalize (issue 18), so finalize leaves them to their own release call.
_HOST_STRUCTS = (Dataset, DataBuffer)


def _release_everything(by: str) -> None:
    """What process teardown reclaims: devices, contexts, streams, models, memory, every other handle."""
    st = state()
    for device_id, dev in list(st.devices.items()):
        if dev.refcount or dev.default_context:
            dev.refcount = 0
            release_device(device_id, by)
    for handle, obj in list(st.handles.items()):
        if isinstance(obj, Context):  # create_context without set_device: no device refcount to balance
            release_context(handle, by)
    for sub in list(st.subsystems.values()):
        hook = getattr(sub, "on_finalize", None)
        if hook:
            hook(by)
    if st.memory is not None:
        st.memory.release_all(by)
    survivors = {h for h, obj in st.handles.items() if isinstance(obj, _HOST_STRUCTS)}
    for handle in list(st.handles):
        if handle not in survivors:
            st.handles.pop(handle, None)
    for entry in st.ledger.live():
        if entry.kind != "acl" and entry.key not in survivors:
            st.ledger.release(entry.key, by)
    st.devices.clear()


@binding("acl.finalize")
def finalize(api):
    """De-initialise: release everything still alive and print the leak report."""
    st = state()
    with st.lock:
        if not st.initialized:
            # UNCONFIRMED for finalize without any init: treated like a repeated finalize.
            return fail(100037, api, "AscendCL is not initialised (finalize already ran, or init never did).")
        _release_everything(IMPLICIT + api)
        report = leak_report()
        if report and st.config.explain:
            print(report, file=sys.stderr)
        st.ledger.release("acl", api)
        st.initialized = False
        set_init_refs(0)
        return 0


_LOG_LEVELS = {C.ACL_DEBUG: "DEBUG", C.ACL_INFO: "INFO", C.ACL_WARNING: "WARNING", C.ACL_ERROR: "ERROR"}


@binding("acl.app_log", "is")
def app_log(api, log_level, msg):
    """Write ``msg`` to the application log at ``log_level`` (ACL_DEBUG 0 … ACL_ERROR 3); returns None.

    pyACL (py_init_acl.cpp, WrapAclAppLog: ``"is"``, returns None) hands it to ACL_APP_LOG, i.e. the
    CANN log files, not the terminal. The simulator prints WARNING and ERROR (or everything from
    ``config.app_log_level`` up) to stderr, and nothing when ``explain`` is off.
    """
    cfg = state().config
    if cfg.explain and log_level >= cfg.app_log_level:
        print(f"[acl-teach sim] app_log {_LOG_LEVELS.get(log_level, f'level {log_level}')}: {msg}", file=sys.stderr)
    return None


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
