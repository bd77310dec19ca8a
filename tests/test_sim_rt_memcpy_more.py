"""acl.rt memcpy_async_with_condition, descriptor copies, reduce_async, cmo_async, topology, ts device, UCE."""
import numpy as np
import pytest

H2D, D2H = 1, 2
SUM, MAX, MIN, EQUAL = 10, 11, 12, 13
ACL_FLOAT, ACL_FLOAT16, ACL_INT8, ACL_INT32, ACL_BF16, ACL_INT4, ACL_DOUBLE = 0, 1, 2, 3, 27, 29, 11


def _dev(acl, arr):
    raw = np.ascontiguousarray(arr).view(np.uint8).ravel()
    ptr, ret = acl.rt.malloc(raw.size, 0)
    assert ret == 0
    assert acl.rt.memcpy(ptr, raw.size, raw.ctypes.data, raw.size, H2D) == 0
    return ptr


def _read(acl, ptr, n, dtype=np.uint8):
    out = np.zeros(n, np.uint8)
    assert acl.rt.memcpy(out.ctypes.data, n, ptr, n, D2H) == 0
    return out.view(dtype)


@pytest.fixture
def stream(ready):
    s, ret = ready.rt.create_stream()
    assert ret == 0
    return s


def test_memcpy_async_with_condition_is_memcpy_async(ready, stream):
    acl = ready
    src = np.arange(32, dtype=np.uint8)
    dev, _ = acl.rt.malloc(32, 0)
    assert acl.rt.memcpy_async_with_condition(dev, 32, src.ctypes.data, 32, H2D, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert bytes(_read(acl, dev, 32)) == bytes(range(32))
    assert acl.rt.memcpy_async_with_condition(dev, 16, src.ctypes.data, 32, H2D, stream) != 0  # count > dst_max


def test_descriptor_copy_reads_what_the_descriptor_bytes_hold(ready, stream):
    acl = ready
    assert acl.rt.get_memcpy_desc_size(6) == (32, 0)
    assert acl.rt.get_memcpy_desc_size(1) == (0, 207000)
    assert acl.rt.get_memcpy_desc_size(8) == (0, 100000)
    src = _dev(acl, np.arange(64, dtype=np.uint8))
    dst = _dev(acl, np.zeros(64, np.uint8))
    desc, _ = acl.rt.malloc(32, 0)
    assert acl.rt.memcpy_async_with_desc(desc, 6, stream) == 107000          # nothing written yet (0 count)
    assert acl.rt.set_memcpy_desc(desc, 6, src, dst, 64, 0) == (desc, 0)
    fields = _read(acl, desc, 32, np.uint64)
    assert list(fields) == [src, dst, 64, 6]                                 # the descriptor holds the copy
    assert acl.rt.memcpy_async_with_desc(desc, 6, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert bytes(_read(acl, dst, 64)) == bytes(range(64))
    assert acl.rt.set_memcpy_desc(0, 6, src, dst, 64, 0) == (0, 100000)
    assert acl.rt.set_memcpy_desc(desc, 6, src, dst, 0, 0) == (desc, 100000)
    assert acl.rt.set_memcpy_desc(desc, 6, src, dst, 64, 1) == (desc, 100000)   # config is reserved
    assert acl.rt.memcpy_async_with_desc(desc, 6, 0) == 100000                # a stream is required


def test_descriptor_copy_kind_must_match_the_descriptor(ready, stream):
    acl = ready
    src = _dev(acl, np.arange(16, dtype=np.uint8))
    dst = _dev(acl, np.zeros(16, np.uint8))
    desc, _ = acl.rt.malloc(32, 0)
    assert acl.rt.set_memcpy_desc(desc, 6, src, dst, 16, 0) == (desc, 0)
    assert acl.rt.memcpy_async_with_desc(desc, 3, stream) == 107000         # the descriptor holds kind 6
    assert acl.rt.memcpy_async_with_desc(desc, 7, stream) == 107000
    assert acl.rt.memcpy_async_with_desc(desc, 1, stream) == 207000         # not a descriptor kind at all
    assert acl.rt.synchronize_stream(stream) == 0
    assert bytes(_read(acl, dst, 16)) == bytes(16)                           # nothing was queued
    assert acl.rt.memcpy_async_with_desc(desc, 6, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert bytes(_read(acl, dst, 16)) == bytes(range(16))


def test_reduce_async_sum_max_min_equal(ready, stream):
    acl = ready
    a = np.array([1, -2, 3, 4], np.float32)
    b = np.array([10, 20, -30, 4], np.float32)
    for kind, want in ((SUM, a + b), (MAX, np.maximum(a, b)), (MIN, np.minimum(a, b)), (EQUAL, b)):
        dst, src = _dev(acl, a), _dev(acl, b)
        assert acl.rt.reduce_async(dst, src, 16, kind, ACL_FLOAT, stream, 0) == 0
        assert acl.rt.synchronize_stream(stream) == 0
        assert list(_read(acl, dst, 16, np.float32)) == list(want)
    x8 = _dev(acl, np.array([127, -128], np.int8))
    y8 = _dev(acl, np.array([1, -1], np.int8))
    assert acl.rt.reduce_async(x8, y8, 2, SUM, ACL_INT8, stream, 0) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert list(_read(acl, x8, 2, np.int8)) == [-128, 127]                    # wraps
    h = _dev(acl, np.array([1.5, 2.0], np.float16))
    k = _dev(acl, np.array([0.25, -4.0], np.float16))
    assert acl.rt.reduce_async(h, k, 4, SUM, ACL_FLOAT16, stream, 0) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert list(_read(acl, h, 4, np.float16)) == [1.75, -2.0]
    bf = _dev(acl, np.array([0x3F80, 0x4000], np.uint16))                    # bf16 1.0, 2.0
    assert acl.rt.reduce_async(bf, bf, 4, SUM, ACL_BF16, stream, 0) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert list(_read(acl, bf, 4, np.uint16)) == [0x4000, 0x4080]           # 2.0, 4.0
    n4 = _dev(acl, np.array([0x71], np.uint8))                                # int4 [1, 7]
    m4 = _dev(acl, np.array([0x12], np.uint8))                                # int4 [2, 1]
    assert acl.rt.reduce_async(n4, m4, 1, SUM, ACL_INT4, stream, 0) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert list(_read(acl, n4, 1)) == [0x83]                                  # [3, 8 -> -8]
    dst, src = _dev(acl, a), _dev(acl, b)
    assert acl.rt.reduce_async(dst, src, 16, SUM, ACL_DOUBLE, stream, 0) == 100000
    assert acl.rt.reduce_async(dst, src, 16, 9, ACL_FLOAT, stream, 0) == 107000
    assert acl.rt.reduce_async(dst, src, 6, SUM, ACL_FLOAT, stream, 0) == 107000   # not whole elements
    assert acl.rt.reduce_async(0, src, 16, SUM, ACL_FLOAT, stream, 0) == 100000
    assert acl.rt.reduce_async(dst, src, 16, SUM, ACL_FLOAT, stream, 1) == 100000  # reserve must be NULL
    assert acl.rt.reduce_async(dst, src, 4096, SUM, ACL_FLOAT, stream, 0) == 107000


def test_cmo_async_checks_range_and_type(ready, stream):
    acl = ready
    dev, _ = acl.rt.malloc(128, 0)
    for cmo in range(4):
        assert acl.rt.cmo_async(dev, 128, cmo, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.rt.cmo_async(dev, 128, 4, stream) == 107000
    assert acl.rt.cmo_async(0, 128, 0, stream) == 100000
    assert acl.rt.cmo_async(dev, 0, 0, stream) == 100000
    assert acl.rt.cmo_async(dev, 1 << 20, 0, stream) == 107000


def test_topology_ts_device_and_uce(acl):
    from acl_teach import sim
    sim.configure(device_count=2)
    assert acl.init() == 0
    assert acl.rt.get_devices_topo(0, 1) == (0x02, 0)        # ACL_RT_DEVS_TOPOLOGY_PIX
    assert acl.rt.get_devices_topo(0, 0) == (0, 107000)
    assert acl.rt.get_devices_topo(0, 2) == (0, 107001)
    assert acl.rt.set_ts_device(0) == 0 and acl.rt.set_ts_device(1) == 0
    assert acl.rt.set_ts_device(2) == 100000
    assert acl.rt.get_mem_uce_info(0, 8) == ([], 0)
    assert acl.rt.get_mem_uce_info(5, 8) == ([], 107001)
    assert acl.rt.mem_uce_repair(0, []) == 100000
    assert acl.rt.mem_uce_repair(0, [{"addr": 0x1000, "len": 64, "reserved": [0] * 14}]) == 107000
    with pytest.raises(TypeError, match="^aclrtMemUceInfo argument is not list$"):
        acl.rt.mem_uce_repair(0, {"addr": 1})
    with pytest.raises(TypeError, match="^the aclrtMemUceInfo argument is not dict$"):
        acl.rt.mem_uce_repair(0, [1])
    sim.configure(device_count=1)
