"""``acl.rt`` inter-process sharing of device memory and notifies, by key — within the one simulated process.

The exporter turns a device allocation (``ipc_mem_get_export_key``) or a notify (``notify_get_export_key``) into
a key string and whitelists the importing processes by bare tgid (``ipc_mem_set_import_pid`` /
``notify_set_import_pid``); the importer opens the key (``ipc_mem_import_by_key`` gives a device address whose
bytes *are* the exporter's; ``notify_import_by_key`` a notify handle whose records and waits are the exporter's
flag). simulator: both sides are this process, so the whitelist must hold this process's pid (from
``acl.rt.device_get_bare_tgid``) unless the export disabled PID validation.

Formats and shapes from the binding (rt_memory.cpp / rt_notify.cpp @134e2edb): a key ``len`` of 1024 or more
raises ValueError("key len should be less than 1024") before the runtime runs; pid lists are checked with the
binding's ValueError texts. UNCONFIRMED: the key text, 100000 when ``len`` cannot hold the key (with its NUL) or
the pointer/notify is NULL, 107000 for an address that is not the start of a live device allocation, a size past
it, an unknown key or a pid not whitelisted; ipc_mem_close drops the imported address and the key;
reset_device drops the addresses imported from that device's memory (keys stay for ipc_mem_close) and finalize
every import and key.
"""
from __future__ import annotations

import bisect
import itertools
import os
from typing import Any, Dict, Tuple

from ..core.args import INIT, binding
from .memory import ALIGN, Region, space
from .notify import Notify, _lookup as _notify_lookup
from ..core.state import fail, require_init, state
from .vmm import _pids  # the binding's one pid-list check, shared with the shareable handles

__all__ = ["ipc_mem_get_export_key", "ipc_mem_set_import_pid", "ipc_mem_import_by_key", "ipc_mem_close",
           "notify_get_export_key", "notify_set_import_pid", "notify_import_by_key"]

MAX_KEY_LEN = 1024
DISABLE_PID_VALIDATION = 0x1
IMPORT_FLAGS = (0, 1)  # ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT, _ENABLE_PEER_ACCESS


class _Ipc:
    """This process's exported keys (memory and notifies); finalize and reset_device reclaim them."""

    def __init__(self) -> None:
        self.mem: Dict[str, Dict[str, Any]] = {}  # key -> exported region, size, whitelist, imported addresses
        self.notify: Dict[str, Dict[str, Any]] = {}
        self.ids = itertools.count(1)  # never restarts: a key from before finalize cannot name a new export

    def on_device_reset(self, device_id: int, by: str) -> None:
        """The device's memory is gone, so are the addresses imported from it (keys stay, for ipc_mem_close)."""
        for entry in self.mem.values():
            if entry["region"].device_id == device_id:
                _drop_imports(entry, by)

    def on_finalize(self, by: str) -> None:
        """Process teardown: every import, memory key and notify key goes (no exporter's bytes kept alive)."""
        for entry in self.mem.values():
            _drop_imports(entry, by)
        self.mem.clear()
        self.notify.clear()


def _table() -> _Ipc:
    subs = state().subsystems
    if "ipc" not in subs:
        subs["ipc"] = _Ipc()
    return subs["ipc"]


def _drop_imports(entry: Dict[str, Any], by: str) -> None:
    """Forget the addresses imported by a key: they stop being memory (the exporter's bytes are untouched)."""
    sp = space()
    with sp.lock:
        for base in entry["imports"]:
            region = sp.allocs.pop(base, None)
            if region is not None:
                sp._bases.remove(base)
                sp.freed.add(base, region.size, by)
            state().ledger.release(("ipc_mem", base), by)
    entry["imports"] = []


def _key_len(length: int) -> None:
    if length >= MAX_KEY_LEN:
        raise ValueError("key len should be less than 1024")


def _new_key(api: str, kind: str, length: int) -> Tuple[str, int]:
    key = f"acl-teach-ipc-{kind}-{os.getpid()}-{next(_table().ids)}"
    if length < len(key) + 1:
        return "", fail(100000, api, f"len {length} cannot hold the {len(key)}-character key and its NUL; "
                        f"pass len=65 or more.")
    return key, 0


def _allowed(api: str, entry: Dict[str, Any], key: str) -> int:
    if entry["check_pid"] and os.getpid() not in entry["pids"]:
        return fail(107000, api, f"this process (bare tgid {os.getpid()}) is not whitelisted for {key!r}; the "
                    f"exporter calls set_import_pid with it first (or exports with flag 1, no PID check).")
    return 0


# -- device memory ---------------------------------------------------------------------------------------------------
@binding("acl.rt.ipc_mem_get_export_key", "kkkK")
def ipc_mem_get_export_key(api, dev_ptr, size, key_len, flag):
    """(key, ret): a name for the first ``size`` bytes of a device allocation that another process can open."""
    _key_len(key_len)
    ret = require_init(api)
    if ret:
        return "", ret
    if dev_ptr == 0:
        return "", fail(100000, api, "dev_ptr is 0 (NULL).")
    region = space().allocs.get(dev_ptr)
    if region is None or region.kind != "device":
        return "", fail(107000, api, f"{dev_ptr:#x} is not the start of a live acl.rt.malloc allocation "
                        f"({space().why_unknown(dev_ptr) if region is None else region.kind}).")
    if size == 0 or size > region.size:
        return "", fail(107000, api, f"size {size} must be in 1..{region.size} (the allocation's size).")
    if flag not in (0, DISABLE_PID_VALIDATION):
        return "", fail(100000, api, f"flag {flag} is not ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT (0) or "
                        f"_DISABLE_PID_VALIDATION (1).")
    key, ret = _new_key(api, "mem", key_len)
    if ret:
        return "", ret
    _table().mem[key] = {"region": region, "size": size, "pids": set(), "check_pid": flag == 0, "imports": []}
    return key, 0


def _mem_entry(api: str, key: str) -> Tuple[Any, int]:
    entry = _table().mem.get(key)
    if entry is None:
        return None, fail(107000, api, f"{key!r} is not a live key from acl.rt.ipc_mem_get_export_key.")
    return entry, 0


@binding("acl.rt.ipc_mem_set_import_pid", "sO")
def ipc_mem_set_import_pid(api, key, pids):
    """Whitelist the processes (bare tgids) that may open ``key``."""
    wanted = _pids(pids)
    ret = require_init(api)
    if ret:
        return ret
    entry, ret = _mem_entry(api, key)
    if ret:
        return ret
    if not wanted:
        return fail(100000, api, "the pid list is empty.")
    entry["pids"].update(wanted)
    return 0


@binding("acl.rt.ipc_mem_import_by_key", "sK", needs=INIT, outs=1)
def ipc_mem_import_by_key(api, key, flag):
    """(device address, ret): the exported bytes at a new address of this process (writes show on both)."""
    entry, ret = _mem_entry(api, key)
    if ret:
        return 0, ret
    if flag not in IMPORT_FLAGS:
        return 0, fail(100000, api, f"flag {flag} is not ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT (0) or "
                       f"_ENABLE_PEER_ACCESS (1).")
    ret = _allowed(api, entry, key)
    if ret:
        return 0, ret
    source = entry["region"]
    if space().allocs.get(source.base) is not source:
        return 0, fail(107000, api, f"the memory behind {key!r} has been freed.")
    sp = space()
    with sp.lock:
        base = sp._next_device
        sp._next_device += (entry["size"] + ALIGN - 1) // ALIGN * ALIGN
        region = Region(base, entry["size"], "ipc", True, source.view(0, entry["size"]), device_id=source.device_id,
                        note=f"imported by key {key}")
        sp.allocs[base] = region
        bisect.insort(sp._bases, base)
    entry["imports"].append(base)
    state().ledger.add("ipc memory import", base, f"{entry['size']} bytes by key {key}", key=("ipc_mem", base))
    return base, 0


@binding("acl.rt.ipc_mem_close", "s", needs=INIT)
def ipc_mem_close(api, key):
    """Close ``key``: its imported addresses stop working and the key can no longer be opened."""
    entry, ret = _mem_entry(api, key)
    if ret:
        return ret
    _drop_imports(entry, api)
    del _table().mem[key]
    return 0


# -- notifies --------------------------------------------------------------------------------------------------------
@binding("acl.rt.notify_get_export_key", "kkK")
def notify_get_export_key(api, notify, key_len, flag):
    """(key, ret): a name for a notify that another process can open with notify_import_by_key."""
    _key_len(key_len)
    ret = require_init(api)
    if ret:
        return "", ret
    obj, ret = _notify_lookup(api, notify)
    if ret:
        return "", ret
    if flag not in (0, DISABLE_PID_VALIDATION):
        return "", fail(100000, api, f"flag {flag} is not 0 (default) or 1 (no PID validation).")
    for key, entry in _table().notify.items():
        if entry["notify"] is obj:
            return key, 0
    key, ret = _new_key(api, "notify", key_len)
    if ret:
        return "", ret
    _table().notify[key] = {"notify": obj, "handle": notify, "pids": set(), "check_pid": flag == 0}
    return key, 0


@binding("acl.rt.notify_set_import_pid", "kO")
def notify_set_import_pid(api, notify, pids):
    """Whitelist the processes (bare tgids) that may open the exported ``notify``."""
    wanted = _pids(pids)
    ret = require_init(api)
    if ret:
        return ret
    obj, ret = _notify_lookup(api, notify)
    if ret:
        return ret
    entry = next((e for e in _table().notify.values() if e["notify"] is obj), None)
    if entry is None:
        return fail(107000, api, "the notify has no key yet; call acl.rt.notify_get_export_key first.")
    if not wanted:
        return fail(100000, api, "the pid list is empty.")
    entry["pids"].update(wanted)
    return 0


@binding("acl.rt.notify_import_by_key", "sK", needs=INIT, outs=1)
def notify_import_by_key(api, key, flag):
    """(notify, ret): a handle on the exported notify (records on either side release waits on either side)."""
    entry = _table().notify.get(key)
    if entry is None:
        return 0, fail(107000, api, f"{key!r} is not a key from acl.rt.notify_get_export_key.")
    if state().lookup(entry["handle"], Notify) is not entry["notify"]:
        return 0, fail(107000, api, f"the notify behind {key!r} has been destroyed.")
    ret = _allowed(api, entry, key)
    if ret:
        return 0, ret
    with state().lock:
        handle = state().new_handle(entry["notify"])
        state().ledger.add("notify", handle, f"imported by key {key}")
    return handle, 0
