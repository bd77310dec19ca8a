"""acl.util: pointers into Python objects, and their lifetime."""
import gc
import warnings

import numpy as np
import pytest
from acl_teach import sim
from acl_teach.spec import constants as C


def test_bytes_to_ptr_points_into_the_object(ready):
    data = b"\x01\x02\x03\x04"
    ptr = ready.util.bytes_to_ptr(data)
    assert ready.util.ptr_to_bytes(ptr, 4) == data
    assert ready.util.ptr_to_bytes(ptr + 1, 2) == b"\x02\x03"
    assert ready.util.bytes_to_ptr(data) == ptr  # same object, same address


def test_writes_through_bytes_pointer_change_the_object(ready):
    """Like acllite's D2H into a bytes object: the copy lands in the object itself."""
    dev, _ = ready.rt.malloc(4, 0)
    ready.rt.memset(dev, 4, 9, 4)
    out = bytes(4)
    assert ready.rt.memcpy(ready.util.bytes_to_ptr(out), 4, dev, 4, 2) == 0
    assert out == b"\x09" * 4


def test_bytes_to_ptr_rejects_non_bytes(ready):
    with pytest.raises(ValueError, match="needs an byte as argument"):
        ready.util.bytes_to_ptr(bytearray(4))
    with pytest.raises(ValueError):
        ready.util.bytes_to_ptr(np.zeros(4))


def test_a_dead_bytes_to_ptr_pointer_reads_the_old_bytes_with_a_warning(ready, capsys):
    """The newer acllite's AclLiteImage.data(): bytes_to_ptr(self._data.tobytes()), the bytes die at once."""
    frame = np.arange(16, dtype=np.uint8)
    dev, _ = ready.rt.malloc(16, 0)
    ptr = ready.util.bytes_to_ptr(frame.tobytes())  # temporary: gone after this line
    gc.collect()
    assert ready.rt.memcpy(dev, 16, ptr, 16, 1) == 0
    host = np.zeros(16, np.uint8)
    assert ready.rt.memcpy(host.ctypes.data, 16, dev, 16, 2) == 0
    assert host.tolist() == list(range(16))
    err = capsys.readouterr().err
    assert err.count("no longer exists") == 1 and "usually still the old bytes" in err
    assert ready.rt.memcpy(dev, 16, ptr, 16, 1) == 0  # said once per object
    assert "no longer exists" not in capsys.readouterr().err
    sim.configure(strict=True)
    assert ready.rt.memcpy(dev, 16, ptr, 16, 1) == 107000


def test_numpy_to_ptr_zero_copy_and_warnings(ready):
    arr = np.arange(4, dtype=np.float32)
    with pytest.warns(DeprecationWarning, match="bytes_to_ptr"):
        ptr = ready.util.numpy_to_ptr(arr)
    view = ready.util.ptr_to_numpy(ptr, (4,), C.NPY_FLOAT)
    view[0] = 42.0
    assert arr[0] == 42.0
    with pytest.raises(ValueError):
        ready.util.numpy_to_ptr([1, 2, 3])


def test_numpy_to_ptr_warns_on_non_contiguous_and_stays_in_bounds(ready):
    arr = np.arange(8, dtype=np.uint8)[::-1]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ptr = ready.util.numpy_to_ptr(arr)
    assert any("not C-contiguous" in str(w.message) for w in caught)
    dev, _ = ready.rt.malloc(8, 0)
    # the reversed view starts at the last byte of its buffer: only 1 byte is valid from there;
    # the rest of the copy is the simulator's garbage pattern (real hardware reads the heap)
    assert ready.rt.memcpy(dev, 8, ptr, 8, 1) == 0
    host, _ = ready.rt.malloc_host(8)
    ready.rt.memcpy(host, 8, dev, 8, 2)
    assert ready.util.ptr_to_bytes(host, 8) == bytes([7]) + b"\xff" * 7
    sim.configure(strict=True)
    assert ready.rt.memcpy(dev, 8, ptr, 8, 1) == 107000


def test_numpy_contiguous_to_ptr(ready):
    arr = np.arange(8, dtype=np.uint8)[::2]
    ptr, contiguous = ready.util.numpy_contiguous_to_ptr(arr)
    assert ready.util.ptr_to_bytes(ptr, 4) == bytes([0, 2, 4, 6])
    assert contiguous.flags.c_contiguous


def test_ptr_to_bytes_copies_and_ptr_to_numpy_views(ready):
    host, _ = ready.rt.malloc_host(8)
    view = ready.util.ptr_to_numpy(host, (2,), C.NPY_FLOAT)
    view[:] = [1.5, -2.0]
    copy = ready.util.ptr_to_bytes(host, 8)
    view[:] = 0
    assert np.frombuffer(copy, np.float32).tolist() == [1.5, -2.0]
    assert ready.util.ptr_to_bytes(host, 8) == bytes(8)
    assert view.flags.writeable


def test_ptr_to_numpy_keeps_the_object_alive(ready):
    data = bytes(range(4))
    view = ready.util.ptr_to_numpy(ready.util.bytes_to_ptr(data), (4,), C.NPY_UBYTE)
    del data
    gc.collect()
    assert view.tolist() == [0, 1, 2, 3]


def test_ptr_to_numpy_argument_checks(ready):
    host, _ = ready.rt.malloc_host(8)
    with pytest.raises(ValueError, match="shape is empty"):  # the binding's PyTuple_Size failure
        ready.util.ptr_to_numpy(host, [2], 11)
    with pytest.raises(TypeError, match="not list of int"):
        ready.util.ptr_to_numpy(host, (2.0,), 11)
    with pytest.raises(ValueError, match="unsupported numpy type"):
        ready.util.ptr_to_numpy(host, (2,), 99)
    with pytest.raises(sim.SimulatorFault, match="run past the end"):
        ready.util.ptr_to_numpy(host, (4,), 11)


def test_ptr_to_bytes_needs_no_init_for_python_objects(acl):
    data = b"abc"
    assert acl.util.ptr_to_bytes(acl.util.bytes_to_ptr(data), 3) == b"abc"


def test_all_four_conversion_functions_exist_for_version_shims(acl):
    names = dir(acl.util)
    for name in ("bytes_to_ptr", "ptr_to_bytes", "numpy_to_ptr", "ptr_to_numpy", "start_thread", "stop_thread"):
        assert name in names
