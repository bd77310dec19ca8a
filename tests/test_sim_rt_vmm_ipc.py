"""acl.rt virtual memory (reserve / physical / map), shareable handles, IPC keys for memory and notifies."""
import numpy as np
import pytest

from acl_teach import sim

H2D, D2H = 1, 2
PROP = {"handleType": 0, "allocationType": 0, "memAttr": 1, "location": {"id": 0, "type": 1}, "reserve": 0}
MIB2 = 2 << 20


def _put(acl, ptr, data: bytes):
    arr = np.frombuffer(data, np.uint8).copy()
    assert acl.rt.memcpy(ptr, len(data), arr.ctypes.data, len(data), H2D) == 0


def _get(acl, ptr, n):
    out = np.zeros(n, np.uint8)
    assert acl.rt.memcpy(out.ctypes.data, n, ptr, n, D2H) == 0
    return out.tobytes()


def test_granularity_and_physical_memory_charge_the_device(ready):
    acl = ready
    assert acl.rt.mem_get_allocation_granularity(PROP, 0) == (MIB2, 0)
    assert acl.rt.mem_get_allocation_granularity(PROP, 1) == (MIB2, 0)
    assert acl.rt.mem_get_allocation_granularity(dict(PROP, memAttr=14), 0) == (1 << 30, 0)  # ACL_MEM_HUGE1G
    assert acl.rt.mem_get_allocation_granularity(PROP, 0xFFFF) == (0, 107000)  # GRANULARITY_UNDEF
    assert acl.rt.mem_get_allocation_granularity(dict(PROP, location={"id": 0, "type": 0}), 0) == (0, 107000)
    with pytest.raises(TypeError, match="^the aclrtPhysicalMemProp argument is not dict$"):
        acl.rt.mem_get_allocation_granularity([1], 0)
    with pytest.raises(TypeError, match="^the aclrtMemLocation argument is not dict$"):
        acl.rt.malloc_physical(MIB2, dict(PROP, location=3), 0)
    free0 = acl.rt.get_mem_info(0)[0]
    handle, ret = acl.rt.malloc_physical(2 * MIB2, PROP, 0)
    assert ret == 0 and handle
    assert acl.rt.get_mem_info(0)[0] == free0 - 2 * MIB2
    assert acl.rt.malloc_physical(MIB2 + 1, PROP, 0) == (0, 107000)   # not a multiple of the granularity
    assert acl.rt.malloc_physical(MIB2, PROP, 1) == (0, 107000)       # flags must be 0
    assert acl.rt.free_physical(handle) == 0
    assert acl.rt.get_mem_info(0)[0] == free0
    assert acl.rt.free_physical(handle) == 107000
    assert acl.rt.free_physical(0) == 100000


def test_map_mem_backs_a_reserved_range_and_two_mappings_share_bytes(ready):
    acl = ready
    handle, _ = acl.rt.malloc_physical(2 * MIB2, PROP, 0)
    va, ret = acl.rt.reserve_mem_address(4 * MIB2, 0, 0, 0)
    assert ret == 0 and va % MIB2 == 0
    assert acl.rt.map_mem(va, MIB2, MIB2, handle, 0) == 0
    assert acl.rt.map_mem(va + 2 * MIB2, MIB2, MIB2, handle, 0) == 0       # the same physical bytes again
    _put(acl, va, b"vmm bytes")
    assert _get(acl, va + 2 * MIB2, 9) == b"vmm bytes"
    assert acl.rt.map_mem(va, MIB2, 0, handle, 0) == 107000              # overlaps the first mapping
    assert acl.rt.map_mem(va + 3 * MIB2, MIB2, 2 * MIB2, handle, 0) == 107000  # offset past the memory
    assert acl.rt.map_mem(va + 3 * MIB2, 2 * MIB2, 0, handle, 0) == 107000     # past the reserved range
    assert acl.rt.free_physical(handle) == 107000                        # still mapped
    assert acl.rt.release_mem_address(va) == 107000                      # still mapped
    assert acl.rt.unmap_mem(va) == 0 and acl.rt.unmap_mem(va + 2 * MIB2) == 0
    assert acl.rt.unmap_mem(va) == 107000
    out = np.zeros(4, np.uint8)
    assert acl.rt.memcpy(out.ctypes.data, 4, va, 4, D2H) == 107000      # unmapped: no longer memory
    assert acl.rt.free_physical(handle) == 0 and acl.rt.release_mem_address(va) == 0
    assert acl.rt.release_mem_address(va) == 107000
    assert acl.rt.reserve_mem_address(MIB2, 0, 0x1234, 0) == (0, 107000)  # expect_ptr must be NULL
    assert acl.rt.reserve_mem_address(100, 0, 0, 0) == (0, 107000)


def test_shareable_handle_import_needs_the_pid_whitelist(ready):
    acl = ready
    handle, _ = acl.rt.malloc_physical(MIB2, PROP, 0)
    va, _ = acl.rt.reserve_mem_address(MIB2, 0, 0, 0)
    assert acl.rt.map_mem(va, MIB2, 0, handle, 0) == 0
    _put(acl, va, b"shared")
    share, ret = acl.rt.mem_export_to_shareable_handle(handle, 0, 0)
    assert ret == 0 and share
    assert acl.rt.mem_export_to_shareable_handle(handle, 2, 0) == (0, 107000)   # handle type must be NONE
    assert acl.rt.mem_import_from_shareable_handle(share, 0) == (0, 107000)     # not whitelisted yet
    pid, ret = acl.rt.device_get_bare_tgid()
    assert ret == 0 and pid > 0
    with pytest.raises(ValueError, match="^argument 2 only support the format of list$"):
        acl.rt.mem_set_pid_to_shareable_handle(share, pid)
    assert acl.rt.mem_set_pid_to_shareable_handle(share, [pid]) == 0
    assert acl.rt.mem_set_pid_to_shareable_handle(12345, [pid]) == 107000
    imported, ret = acl.rt.mem_import_from_shareable_handle(share, 0)
    assert ret == 0 and imported != handle
    va2, _ = acl.rt.reserve_mem_address(MIB2, 0, 0, 0)
    assert acl.rt.map_mem(va2, MIB2, 0, imported, 0) == 0
    assert _get(acl, va2, 6) == b"shared"


def test_ipc_memory_key_aliases_the_allocation_until_closed(ready):
    acl = ready
    dev, _ = acl.rt.malloc(256, 0)
    _put(acl, dev, bytes(range(16)))
    with pytest.raises(ValueError, match="^key len should be less than 1024$"):
        acl.rt.ipc_mem_get_export_key(dev, 256, 1024, 0)
    assert acl.rt.ipc_mem_get_export_key(dev, 256, 8, 0) == ("", 100000)      # len cannot hold the key
    assert acl.rt.ipc_mem_get_export_key(dev + 16, 64, 65, 0) == ("", 107000)  # not an allocation's start
    assert acl.rt.ipc_mem_get_export_key(dev, 4096, 65, 0) == ("", 107000)     # past the allocation
    key, ret = acl.rt.ipc_mem_get_export_key(dev, 256, 65, 0)
    assert ret == 0 and key.startswith("acl-teach-ipc-mem-") and len(key) < 65
    assert acl.rt.ipc_mem_import_by_key(key, 0) == (0, 107000)                 # pid not whitelisted
    pid, _ = acl.rt.device_get_bare_tgid()
    assert acl.rt.ipc_mem_set_import_pid(key, [pid]) == 0
    assert acl.rt.ipc_mem_set_import_pid("no such key", [pid]) == 107000
    alias, ret = acl.rt.ipc_mem_import_by_key(key, 0)
    assert ret == 0 and alias != dev
    assert _get(acl, alias, 16) == bytes(range(16))
    _put(acl, alias, b"\xff\xfe")
    assert _get(acl, dev, 2) == b"\xff\xfe"                                   # one set of bytes
    assert acl.rt.ipc_mem_close(key) == 0
    assert acl.rt.ipc_mem_close(key) == 107000
    out = np.zeros(2, np.uint8)
    assert acl.rt.memcpy(out.ctypes.data, 2, alias, 2, D2H) == 107000


def test_notify_key_import_shares_the_flag(ready):
    acl = ready
    notify, _ = acl.rt.create_notify(0)
    assert acl.rt.notify_get_export_key(0, 65, 0) == ("", 100000)
    key, ret = acl.rt.notify_get_export_key(notify, 65, 0)
    assert ret == 0 and key.startswith("acl-teach-ipc-notify-")
    assert acl.rt.notify_get_export_key(notify, 65, 0) == (key, 0)             # one key per notify
    assert acl.rt.notify_import_by_key(key, 0) == (0, 107000)
    assert acl.rt.notify_set_import_pid(notify, [acl.rt.device_get_bare_tgid()[0]]) == 0
    other, ret = acl.rt.notify_import_by_key(key, 0)
    assert ret == 0 and other != notify
    s1, _ = acl.rt.create_stream()
    s2, _ = acl.rt.create_stream()
    assert acl.rt.record_notify(notify, s1) == 0
    assert acl.rt.wait_and_reset_notify(other, s2, 1000) == 0               # the import waits on the same flag
    assert acl.rt.synchronize_stream(s2) == 0
    assert acl.rt.notify_import_by_key("unknown", 0) == (0, 107000)


def test_vmm_calls_before_init_and_finalize_reclaims(acl):
    assert acl.rt.reserve_mem_address(MIB2, 0, 0, 0) == (0, 100001)
    with pytest.raises(TypeError, match="^the aclrtPhysicalMemProp argument is not dict$"):
        acl.rt.malloc_physical(MIB2, None, 0)                                 # the dict is read before init is
    assert acl.rt.malloc_physical(MIB2, PROP, 0) == (0, 100001)
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    handle, _ = acl.rt.malloc_physical(MIB2, PROP, 0)
    va, _ = acl.rt.reserve_mem_address(MIB2, 0, 0, 0)
    assert acl.rt.map_mem(va, MIB2, 0, handle, 0) == 0
    sim.configure(explain=False)
    assert acl.finalize() == 0
    assert not [e for e in sim.ledger() if e.kind in ("physical memory", "reserved address range")]


def test_reserve_mem_address_refuses_absurd_alignment_and_the_end_of_the_address_space(ready):
    acl = ready
    before, _ = acl.rt.malloc(64, 0)
    assert acl.rt.reserve_mem_address(MIB2, 1 << 63, 0, 0) == (0, 107000)   # past any sane alignment
    assert acl.rt.reserve_mem_address(MIB2, 1 << 63, 0, 0) == (0, 107000)   # twice: the counter did not move
    assert acl.rt.reserve_mem_address(MIB2, 2 << 30, 0, 0) == (0, 107000)   # more than 1 GiB
    assert acl.rt.reserve_mem_address(MIB2, 3 << 20, 0, 0) == (0, 107000)   # not a power of two
    assert acl.rt.reserve_mem_address(1 << 62, 0, 0, 0) == (0, 107000)      # past the device address space
    after, _ = acl.rt.malloc(64, 0)
    assert 0 < after - before < 4096                                         # no refused call took addresses
    va, ret = acl.rt.reserve_mem_address(MIB2, 1 << 30, 0, 0)
    assert ret == 0 and va % (1 << 30) == 0
    last, _ = acl.rt.malloc(64, 0)
    assert va < last < 0x2000_0000_0000_0000                                 # still device memory, not a handle


def test_reset_device_drops_vmm_mappings_and_ipc_imports_and_keeps_physical_bytes(ready):
    acl = ready
    handle, _ = acl.rt.malloc_physical(MIB2, PROP, 0)
    va, _ = acl.rt.reserve_mem_address(MIB2, 0, 0, 0)
    assert acl.rt.map_mem(va, MIB2, 0, handle, 0) == 0
    _put(acl, va, b"keep me")
    dev, _ = acl.rt.malloc(256, 0)
    key, _ = acl.rt.ipc_mem_get_export_key(dev, 256, 65, 1)                  # flag 1: no PID check
    alias, ret = acl.rt.ipc_mem_import_by_key(key, 0)
    assert ret == 0
    assert acl.rt.reset_device(0) == 0
    live = {e.kind for e in sim.ledger()}
    assert "ipc memory import" not in live and "physical memory" in live
    assert acl.rt.set_device(0) == 0
    out = np.zeros(4, np.uint8)
    assert acl.rt.memcpy(out.ctypes.data, 4, va, 4, D2H) == 107000          # the mapping went with the device
    assert acl.rt.memcpy(out.ctypes.data, 4, alias, 4, D2H) == 107000       # and so did the import
    assert acl.rt.map_mem(va, MIB2, 0, handle, 0) == 0                       # the range is free to map again
    assert _get(acl, va, 7) == b"keep me"                                    # the physical bytes were not poisoned
    assert acl.rt.unmap_mem(va) == 0
    assert acl.rt.free_physical(handle) == 0 and acl.rt.release_mem_address(va) == 0
    assert acl.rt.ipc_mem_close(key) == 0


def test_finalize_forgets_ipc_keys_and_their_memory(ready):
    from acl_teach.sim.core.state import state
    acl = ready
    dev, _ = acl.rt.malloc(256, 0)
    key, _ = acl.rt.ipc_mem_get_export_key(dev, 256, 65, 1)
    alias, _ = acl.rt.ipc_mem_import_by_key(key, 0)
    notify, _ = acl.rt.create_notify(0)
    nkey, _ = acl.rt.notify_get_export_key(notify, 65, 1)
    _put(acl, alias, b"x")
    table = state().subsystems["ipc"]
    sim.configure(explain=False)
    assert acl.finalize() == 0
    assert not table.mem and not table.notify                                # no Region / array / notify kept alive
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    assert acl.rt.ipc_mem_import_by_key(key, 0) == (0, 107000)
    assert acl.rt.notify_import_by_key(nkey, 0) == (0, 107000)
    assert acl.rt.ipc_mem_close(key) == 107000
