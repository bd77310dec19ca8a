"""acl.media's DVPP memory, written as the memcpy sample uses it: dvpp_malloc -> memcpy H2D -> read back -> dvpp_free."""
import numpy as np
import pytest

from acl_teach.sim import inspect as sim_inspect


def test_dvpp_memory_round_trip_like_the_memcpy_sample(ready):
    acl = ready
    data = np.arange(1000, dtype=np.uint8)
    dev, ret = acl.media.dvpp_malloc(1000)
    assert ret == 0 and dev % 128 == 0
    assert acl.rt.memcpy(dev, 1000, acl.util.numpy_to_ptr(data), 1000, 1) == 0
    back = np.zeros(1000, np.uint8)
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(back), 1000, dev, 1000, 2) == 0
    assert back.tobytes() == data.tobytes()
    assert [e.kind for e in sim_inspect.live()].count("dvpp memory") == 1
    assert acl.media.dvpp_free(dev) == 0
    assert "dvpp memory" not in [e.kind for e in sim_inspect.live()]


def test_dvpp_padding_is_usable_as_on_a_board(ready):
    """acldvppMalloc reserves ALIGN_UP(size, 32) + 32 bytes: writes into that padding are harmless."""
    acl = ready
    dev, _ = acl.media.dvpp_malloc(100)
    assert acl.rt.memset(dev, 160, 7, 160) == 0  # 100 -> 128 + 32
    assert acl.rt.memset(dev, 161, 7, 161) != 0  # one byte past the padding
    assert sim_inspect.read(dev, 160) == bytes([7]) * 160
    acl.media.dvpp_free(dev)


def test_dvpp_free_wants_dvpp_memory_and_dvpp_malloc_wants_a_size(ready):
    acl = ready
    dev, _ = acl.rt.malloc(64, 0)
    assert acl.media.dvpp_free(dev) == 107000  # UNCONFIRMED: as acl.rt.free refuses the wrong allocator
    assert acl.rt.free(dev) == 0
    assert acl.media.dvpp_malloc(0) == (0, 100000)
    assert acl.media.dvpp_free(0) == 100000


def test_dvpp_malloc_needs_init_and_a_context(acl):
    assert acl.media.dvpp_malloc(64) == (0, 100001)
    assert acl.init() == 0
    assert acl.media.dvpp_malloc(64) == (0, 107002)
    acl.finalize()


def test_media_namespace_holds_pyacl_names_only(acl):
    from acl_teach.spec.binding import TABLE
    names = [n for n in dir(acl.media) if not n.startswith("_")]
    assert set(names) == set(TABLE["acl.media"]), names  # the binding's media names (pymedia_methods.cpp), nothing else
    assert {"dvpp_malloc", "dvpp_free", "dvpp_jpeg_decode_async", "dvpp_vpc_resize_async"} <= set(names)


def test_acl_rt_free_of_dvpp_memory_frees_it_with_a_warning(ready):
    """The vpc samples release DVPP buffers with acl.rt.free (and sometimes dvpp_free again afterwards)."""
    acl = ready
    dev, _ = acl.media.dvpp_malloc(64)
    assert acl.rt.free(dev) == 0
    assert "dvpp_free is its release call" in acl.get_recent_err_msg()
    assert "dvpp memory" not in [e.kind for e in sim_inspect.live()]
    assert acl.media.dvpp_free(dev) == 107000  # now a double free
