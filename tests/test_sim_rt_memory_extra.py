"""acl.rt memory extras: malloc_align32/cached, mem_flush/invalidate, memcpy2d(_async), pointer_get_attributes."""
import numpy as np

from acl_teach import sim

H2D, D2H = 1, 2


def _host(acl, data: bytes):
    ptr, ret = acl.rt.malloc_host(len(data))
    assert ret == 0
    arr = np.frombuffer(data, np.uint8).copy()
    assert acl.rt.memcpy(ptr, len(data), arr.ctypes.data, len(data), 0) == 0
    return ptr


def _read(acl, ptr, n):
    out = np.zeros(n, np.uint8)
    assert acl.rt.memcpy(out.ctypes.data, n, ptr, n, D2H) == 0
    return out.tobytes()


def test_malloc_align32_rounds_without_the_extra_32(ready):
    free0, _, _ = ready.rt.get_mem_info(0)
    ptr, ret = ready.rt.malloc_align32(100, 0)
    assert ret == 0 and ptr >= 0x1000_0000_0000_0000
    free1, _, _ = ready.rt.get_mem_info(0)
    assert free0 - free1 == 128  # ALIGN_UP(100, 32); malloc would take 160
    assert ready.rt.malloc_align32(0, 0) == (0, 100000)
    assert ready.rt.free(ptr) == 0
    assert ready.rt.get_mem_info(0)[0] == free0


def test_malloc_cached_flush_invalidate_check_ranges(ready):
    ptr, ret = ready.rt.malloc_cached(4096, 0)
    assert ret == 0
    assert ready.rt.mem_flush(ptr, 4096) == 0
    assert ready.rt.mem_invalidate(ptr + 1024, 1024) == 0
    assert ready.rt.mem_flush(0, 16) == 100000
    assert ready.rt.mem_flush(ptr, 1 << 20) == 107000
    ready.rt.free(ptr)
    assert ready.rt.mem_invalidate(ptr, 16) == 107000


def test_memcpy2d_copies_strided_rows_byte_exact(ready):
    acl = ready
    src_bytes = bytes(range(4 * 10))          # 4 rows, pitch 10
    src = _host(acl, src_bytes)
    dev, _ = acl.rt.malloc(4 * 16, 0)          # 4 rows, pitch 16
    assert acl.rt.memset(dev, 64, 0xEE, 64) == 0
    assert acl.rt.memcpy2d(dev, 16, src, 10, 6, 4, H2D) == 0
    got = _read(acl, dev, 64)
    want = bytearray(b"\xee" * 64)
    for r in range(4):
        want[r * 16:r * 16 + 6] = src_bytes[r * 10:r * 10 + 6]
    assert got == bytes(want)
    assert acl.rt.memcpy2d(dev, 4, src, 10, 6, 4, H2D) == 100000   # width > dpitch
    assert acl.rt.memcpy2d(dev, 16, src, 10, 6, 5, H2D) == 107000   # 5 rows overrun the 40-byte source
    assert acl.rt.memcpy2d(0, 16, src, 10, 6, 4, H2D) == 100000


def test_memcpy2d_async_moves_bytes_when_the_stream_runs(ready):
    acl = ready
    src = _host(acl, bytes(range(1, 33)))     # 4 rows x 8
    dev, _ = acl.rt.malloc(4 * 3, 0)
    stream, _ = acl.rt.create_stream()
    assert acl.rt.memcpy2d_async(dev, 3, src, 8, 3, 4, H2D, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert _read(acl, dev, 12) == bytes([1, 2, 3, 9, 10, 11, 17, 18, 19, 25, 26, 27])
    acl.rt.destroy_stream(stream)


def test_pointer_get_attributes_tells_host_from_device(ready):
    dev, _ = ready.rt.malloc(64, 0)
    attrs, ret = ready.rt.pointer_get_attributes(dev + 8)
    assert ret == 0 and attrs["location"] == {"id": 0, "type": 1} and len(attrs["rsv"]) == 8
    host, _ = ready.rt.malloc_host(64)
    attrs, ret = ready.rt.pointer_get_attributes(host)
    assert ret == 0 and attrs["location"]["type"] == 0 and attrs["page_size"] == 4096
    assert ready.rt.pointer_get_attributes(0)[1] == 100000
    ready.rt.free(dev)
    assert ready.rt.pointer_get_attributes(dev)[1] == 107000
    assert sim  # the simulator package is what answers


def test_host_register_maps_host_bytes_to_a_device_address(ready):
    acl = ready
    host = np.arange(64, dtype=np.uint8)
    ptr = host.ctypes.data
    dev, ret = acl.rt.host_register(ptr, 64, 0)
    assert ret == 0 and dev >= 0x1000_0000_0000_0000 and dev != ptr
    assert _read(acl, dev + 8, 4) == bytes([8, 9, 10, 11])         # the device reads the host bytes
    other, _ = acl.rt.malloc(16, 0)
    acl.rt.memset(other, 16, 0x7A, 16)
    assert acl.rt.memcpy(dev, 64, other, 16, 3) == 0               # a device-side write lands in host memory
    assert host[:16].tobytes() == b"\x7a" * 16 and host[16] == 16
    assert acl.rt.pointer_get_attributes(dev)[0]["location"]["type"] == 1
    assert acl.rt.host_get_device_pointer(ptr + 4, 0) == (dev + 4, 0)
    assert acl.rt.host_register(ptr, 64, 0) == (0, 107000)         # twice
    assert acl.rt.host_register(ptr, 64, 1) == (0, 100000)
    assert acl.rt.host_register(other, 16, 0) == (0, 107000)       # device memory
    assert acl.rt.host_unregister(ptr) == 0
    assert host[:16].tobytes() == b"\x7a" * 16                     # unmapping leaves the bytes alone
    assert acl.rt.memcpy(dev, 64, other, 16, 3) == 107000          # the device address is gone
    assert acl.rt.host_unregister(ptr) == 107000
    assert acl.rt.host_get_device_pointer(ptr, 0) == (0, 107000)


def test_host_register_v2_then_get_device_pointer(ready):
    acl = ready
    buf, _ = acl.rt.malloc_host(256)
    assert acl.rt.host_register_v2(buf, 256, 0) == 0
    dev, ret = acl.rt.host_get_device_pointer(buf, 0)
    assert ret == 0 and dev != buf
    src = np.full(256, 3, np.uint8)
    assert acl.rt.memcpy(dev, 256, src.ctypes.data, 256, 1) == 0
    assert _read(acl, buf, 256) == b"\x03" * 256
    assert acl.rt.host_unregister(buf) == 0
    assert acl.rt.free_host(buf) == 0


def test_host_register_on_a_board_is_the_same_address(acl):
    sim.configure(run_mode="device")
    acl.init(); acl.rt.set_device(0)
    host = np.zeros(32, np.uint8)
    assert acl.rt.host_register(host.ctypes.data, 32, 0) == (host.ctypes.data, 0)
    assert acl.rt.host_unregister(host.ctypes.data) == 0


def test_malloc_with_cfg_allocates_and_checks_the_config(ready):
    import pytest
    acl = ready
    ptr, ret = acl.rt.malloc_with_cfg(100, 0, {})
    assert ret == 0 and ptr >= 0x1000_0000_0000_0000
    cfg = {"numAttrs": 1, "attrs": [{"attr": 1, "value": {"moduleId": 3}}]}
    p2, ret = acl.rt.malloc_with_cfg(64, 0, cfg)
    assert ret == 0 and p2 != ptr
    assert acl.rt.memset(p2, 64, 1, 64) == 0
    with pytest.raises(TypeError, match="pyCfg is not dict!"):
        acl.rt.malloc_with_cfg(64, 0, [])
    with pytest.raises(KeyError, match="numAttrs"):
        acl.rt.malloc_with_cfg(64, 0, {"numAttrs": 2, "attrs": cfg["attrs"]})
    assert acl.rt.malloc_with_cfg(0, 0, {}) == (0, 100000)
    assert acl.rt.free(ptr) == 0 and acl.rt.free(p2) == 0
    host, ret = acl.rt.malloc_host_with_cfg(32, {})
    assert ret == 0 and acl.rt.free_host(host) == 0
