"""Device/host memory, copies, memset, pointer checks."""
import numpy as np
import pytest
from acl_teach import sim
from acl_teach.spec import constants as C

H2H, H2D, D2H, D2D = 0, 1, 2, 3


def test_malloc_returns_device_pointer_and_records_it(ready):
    ptr, ret = ready.rt.malloc(301056, 0)
    assert ret == 0 and ptr >= 0x1000_0000_0000_0000
    entry = sim.ledger()[-1]
    assert entry.kind == "device memory" and entry.handle == ptr and "301056 bytes" in entry.detail
    assert entry.created_at.startswith("test_sim_memory.py:")


def test_malloc_zero_and_bad_policy(ready):
    assert ready.rt.malloc(0, 0) == (0, 100000)
    assert ready.rt.malloc(16, 99) == (0, 100000)
    assert ready.rt.malloc(16, 0x1000 | 2)[1] == 0  # type flags may be OR-ed in


def test_malloc_beyond_capacity_returns_207001(acl):
    sim.configure(device_memory=1 << 20)
    acl.init(); acl.rt.set_device(0)
    a, ret = acl.rt.malloc(600_000, 0)
    assert ret == 0
    assert acl.rt.malloc(600_000, 0) == (0, 207001)
    assert acl.rt.free(a) == 0
    assert acl.rt.malloc(600_000, 0)[1] == 0


def test_get_mem_info_tracks_allocations(ready):
    free0, total, ret = ready.rt.get_mem_info(C.ACL_DDR_MEM)
    assert ret == 0 and free0 == total == 8 << 30
    ptr, _ = ready.rt.malloc(100, 0)
    free1, _, _ = ready.rt.get_mem_info(0)
    assert free0 - free1 == 160  # 100 rounded up to 128, plus 32, as aclrtMalloc does
    ready.rt.free(ptr)
    assert ready.rt.get_mem_info(0)[0] == free0
    assert ready.rt.get_mem_info(99) == (0, 0, 100000)


def test_round_trip_is_byte_exact(ready):
    payload = bytes(range(256)) * 4
    dev, _ = ready.rt.malloc(len(payload), 0)
    host, _ = ready.rt.malloc_host(len(payload))
    src = ready.util.bytes_to_ptr(payload)
    assert ready.rt.memcpy(dev, len(payload), src, len(payload), H2D) == 0
    assert ready.rt.memcpy(host, len(payload), dev, len(payload), D2H) == 0
    assert ready.util.ptr_to_bytes(host, len(payload)) == payload


def test_fresh_device_memory_is_not_zeroed(ready):
    dev, _ = ready.rt.malloc(8, 0)
    host, _ = ready.rt.malloc_host(8)
    ready.rt.memcpy(host, 8, dev, 8, D2H)
    assert ready.util.ptr_to_bytes(host, 8) == b"\xcd" * 8


def test_memcpy_checks_in_reference_order(ready):
    dev, _ = ready.rt.malloc(64, 0)
    data = bytes(64)
    src = ready.util.bytes_to_ptr(data)
    assert ready.rt.memcpy(dev, 64, src, 0, H2D) == 0  # count 0 is a no-op
    assert ready.rt.memcpy(0, 64, src, 64, H2D) == 100000
    assert ready.rt.memcpy(dev, 64, 0, 64, H2D) == 100000
    assert ready.rt.memcpy(dev, 64, src, 64, 9) == 100000
    assert ready.rt.memcpy(dev, 32, src, 64, H2D) == 107000  # count > dst_max


def test_memcpy_past_an_allocation_keeps_what_fits_and_warns(ready):
    dev, _ = ready.rt.malloc(64, 0)  # 64 + 32 bytes of aclrtMalloc padding
    big = bytes(128)
    assert ready.rt.memcpy(dev, 128, ready.util.bytes_to_ptr(big), 128, H2D) == 0  # the runtime checks dst_max only
    assert "run 32 bytes past the end" in ready.get_recent_err_msg()
    small = bytes(16)
    # reading past a bytes object is what real pyACL does silently: accepted, garbage, warning
    assert ready.rt.memcpy(dev, 64, ready.util.bytes_to_ptr(small), 64, H2D) == 0
    assert "warning" in ready.get_recent_err_msg()
    sim.configure(strict=True)
    assert ready.rt.memcpy(dev, 64, ready.util.bytes_to_ptr(small), 64, H2D) == 107000


def test_memcpy_kind_that_does_not_match_the_memory_warns(ready):
    dev, _ = ready.rt.malloc(16, 0)
    data = bytes(16)
    src = ready.util.bytes_to_ptr(data)
    assert ready.rt.memcpy(dev, 16, src, 16, D2H) == 0  # kind is reserved: the pointers decide
    msg = ready.get_recent_err_msg()
    assert msg.startswith("warning") and "say ACL_MEMCPY_HOST_TO_DEVICE" in msg
    assert ready.rt.memcpy(dev, 16, src, 16, 4) == 0  # ACL_MEMCPY_DEFAULT infers the direction
    sim.configure(strict=True)  # the teaching moment: the old refusal
    assert ready.rt.memcpy(dev, 16, src, 16, D2H) == 107000
    assert ready.rt.memcpy(dev, 16, src, 16, H2H) == 107000
    assert ready.rt.memcpy(dev, 16, src, 16, 4) == 0


def test_device_to_device_and_offsets(ready):
    a, _ = ready.rt.malloc(32, 0)
    b, _ = ready.rt.malloc(32, 0)
    data = bytes(range(32))
    ready.rt.memcpy(a, 32, ready.util.bytes_to_ptr(data), 32, H2D)
    assert ready.rt.memcpy(b + 8, 24, a, 16, D2D) == 0
    host, _ = ready.rt.malloc_host(32)
    ready.rt.memcpy(host, 32, b, 32, D2H)
    got = ready.util.ptr_to_bytes(host, 32)
    assert got[8:24] == data[:16] and got[:8] == b"\xcd" * 8


def test_use_after_free_names_who_freed_it_and_double_free_is_refused(ready):
    dev, _ = ready.rt.malloc(16, 0)
    assert ready.rt.free(dev) == 0
    data = bytes(16)
    assert ready.rt.memcpy(dev, 16, ready.util.bytes_to_ptr(data), 16, 1) == 0  # faithful: warned, not refused
    assert "already freed by acl.rt.free" in ready.get_recent_err_msg()
    sim.configure(strict=True)
    try:
        assert ready.rt.memcpy(dev, 16, ready.util.bytes_to_ptr(data), 16, 1) == 107000
    finally:
        sim.configure(strict=False)
    assert ready.rt.free(dev) == 107000  # double free


def test_free_rules(ready):
    dev, _ = ready.rt.malloc(16, 0)
    host, _ = ready.rt.malloc_host(16)
    assert ready.rt.free(0) == 100000
    assert ready.rt.free(host) == 107000 and "free_host" in ready.get_recent_err_msg()
    assert ready.rt.free_host(dev) == 107000
    assert ready.rt.free(dev + 4) == 107000 and "not its start" in ready.get_recent_err_msg()
    assert ready.rt.free(12345) == 107000
    assert ready.rt.free(dev) == 0 and ready.rt.free_host(host) == 0


def test_freed_host_memory_is_poisoned_for_live_views(ready):
    host, _ = ready.rt.malloc_host(4)
    view = ready.util.ptr_to_numpy(host, (4,), C.NPY_UBYTE)
    view[:] = 7
    assert ready.rt.free_host(host) == 0
    assert view.tolist() == [0xA5] * 4  # no crash, visibly garbage


def test_memset(ready):
    dev, _ = ready.rt.malloc(16, 0)
    host, _ = ready.rt.malloc_host(16)
    assert ready.rt.memset(dev, 16, 0x1FF, 8) == 0  # value is truncated to a byte
    assert ready.rt.memset(dev, 8, 0, 16) == 107000
    assert ready.rt.memset(0, 8, 0, 4) == 100000
    assert ready.rt.memset(dev, 16, 0, 0) == 0
    assert ready.rt.memset(dev + 8, 64, 1, 16) == 0  # into aclrtMalloc's padding (16 -> 32 + 32 bytes)
    assert ready.rt.memset(dev + 8, 64, 1, 64) == 107000  # past the allocation
    ready.rt.memcpy(host, 16, dev, 16, D2H)
    assert ready.util.ptr_to_bytes(host, 16) == b"\xff" * 8 + b"\x01" * 8


def test_host_cannot_read_device_memory_in_host_mode(ready):
    dev, _ = ready.rt.malloc(16, 0)
    with pytest.raises(sim.SimulatorFault, match="device memory"):
        ready.util.ptr_to_bytes(dev, 16)
    with pytest.raises(sim.SimulatorFault):
        ready.util.ptr_to_numpy(dev, (4,), 11)


def test_unknown_pointer_reads_fault_instead_of_crashing(ready):
    with pytest.raises(sim.SimulatorFault, match="not memory the simulator handed out.*not all mapped"):
        ready.util.ptr_to_bytes(0x1234, 4)


def test_device_run_mode_shares_memory(acl):
    sim.configure(run_mode="device")
    acl.init(); acl.rt.set_device(0)
    host, _ = acl.rt.malloc_host(8)
    assert host >= 0x1000_0000_0000_0000  # malloc_host gives device memory on a board
    dev, _ = acl.rt.malloc(8, 0)
    data = bytes(range(8))
    # on a board any copy kind works, and the CPU may read device memory directly
    assert acl.rt.memcpy(dev, 8, acl.util.bytes_to_ptr(data), 8, 3) == 0
    assert acl.util.ptr_to_bytes(dev, 8) == data
    assert acl.rt.get_mem_info(0)[0] == (8 << 30) - 2 * 64


def test_large_copy_is_exact(ready):
    n = 8 << 20
    arr = np.random.default_rng(0).integers(0, 255, n, dtype=np.uint8)
    dev, _ = ready.rt.malloc(n, 0)
    out = np.empty(n, np.uint8)
    with pytest.warns(DeprecationWarning):
        src, dst = ready.util.numpy_to_ptr(arr), ready.util.numpy_to_ptr(out)
    assert ready.rt.memcpy(dev, n, src, n, 1) == 0
    assert ready.rt.memcpy(dst, n, dev, n, 2) == 0
    assert np.array_equal(arr, out)


def test_huge_allocations_do_not_touch_ram_or_crash(acl):
    import resource
    sim.configure(device_memory=64 << 30)
    acl.init(); acl.rt.set_device(0)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    ptr, ret = acl.rt.malloc(6 << 30, 0)  # 6 GiB of simulated device memory
    assert ret == 0
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < (256 << 20) // 1024
    assert acl.rt.free(ptr) == 0
    assert acl.rt.malloc_host(1 << 62) == (0, 207001)  # more than any machine has: refused, not a crash
