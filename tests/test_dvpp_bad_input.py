"""Bad input to JPEGD and VPC (issue #11 item 6): each case returns its exact code, nothing raises or hangs,
the same channel and stream still decode a good JPEG afterwards, and every resource is then released by its
own call (the ledger's leak list is empty after acl.finalize).

Codes: host checks are ACL's (reference §6.1: 100000, 100027, 500001); what the device refuses returns 0 from the
``*_async`` call, then 507018 from ``synchronize_stream`` and in the output desc's ``ret_code`` (UNCONFIRMED code,
reference §6.2, see ``acl_teach/sim/media/dvpp/common.py``).
"""
import io

import numpy as np
import pytest
from PIL import Image
from test_dvpp_accuracy import blocky_jpeg, photo_jpeg

from acl_teach.sim import inspect as sim_inspect
from acl_teach.spec.dvpp import align_up

NV12 = 1
FAULT = 507018  # UNCONFIRMED (reference §6.1): the simulator's code for a task the device rejects


def encoded(im, fmt="JPEG", **save):
    buf = io.BytesIO()
    im.save(buf, fmt, **save)
    return buf.getvalue()


def good_jpeg():
    return photo_jpeg("chelsea.png", (64, 48))


class Kit:
    """A stream, a channel and every desc/config/buffer a test makes, each released by its own call in finish()."""

    def __init__(self, acl):
        self.acl, self.media = acl, acl.media
        self.stream, ret = acl.rt.create_stream()
        assert ret == 0
        self.ch = self.media.dvpp_create_channel_desc()
        assert self.ch and self.media.dvpp_create_channel(self.ch) == 0
        self.mems, self.descs, self.rois, self.cfgs, self.keep = [], [], [], [], []

    def mem(self, size):
        ptr, ret = self.media.dvpp_malloc(size)
        assert ret == 0
        self.mems.append(ptr)
        return ptr

    def to_dvpp(self, raw):
        ptr = self.mem(len(raw))
        self.keep.append(raw)
        assert self.acl.rt.memcpy(ptr, len(raw), self.acl.util.bytes_to_ptr(raw), len(raw), 1) == 0
        return ptr

    def desc(self, w, h, ws, hs, fmt=NV12, size=None, data=None):
        size = ws * hs * 3 // 2 if size is None else size
        data = self.mem(max(size, 1)) if data is None else data
        d = self.media.dvpp_create_pic_desc()
        self.descs.append(d)
        for setter, value in (("data", data), ("size", size), ("format", fmt), ("width", w), ("height", h),
                              ("width_stride", ws), ("height_stride", hs)):
            assert getattr(self.media, f"dvpp_set_pic_desc_{setter}")(d, value) == 0
        return d

    def decode_desc(self, w, h, fmt=NV12):
        """An output desc with the 310's JPEGD strides (128/16) for a w x h JPEG."""
        ws, hs = align_up(max(w, 1), 128), align_up(max(h, 1), 16)
        return self.desc(w, h, ws, hs, fmt)

    def roi(self, left, right, top, bottom):
        r = self.media.dvpp_create_roi_config(left, right, top, bottom)
        self.rois.append(r)
        return r

    def resize_cfg(self):
        c = self.media.dvpp_create_resize_config()
        self.cfgs.append(c)
        return c

    def decode(self, raw, out, data=None):
        data = self.to_dvpp(raw) if data is None else data
        return self.media.dvpp_jpeg_decode_async(self.ch, data, len(raw), out, self.stream)

    def device_fault(self, queued, out, *fragments):
        """The call queues (0); synchronize_stream and the output desc then say FAULT, the message says why."""
        assert queued == 0
        assert self.acl.rt.synchronize_stream(self.stream) == FAULT
        assert self.media.dvpp_get_pic_desc_ret_code(out) == FAULT
        msg = self.acl.get_recent_err_msg()
        for fragment in fragments:
            assert fragment in msg, (fragment, msg)

    def finish(self):
        """A good decode still works on the same channel and stream; then release everything and find no leak."""
        raw = good_jpeg()
        out = self.decode_desc(64, 48)
        assert self.decode(raw, out) == 0
        assert self.acl.rt.synchronize_stream(self.stream) == 0 and self.media.dvpp_get_pic_desc_ret_code(out) == 0
        for d in self.descs:
            assert self.media.dvpp_destroy_pic_desc(d) == 0
        for r in self.rois:
            assert self.media.dvpp_destroy_roi_config(r) == 0
        for c in self.cfgs:
            assert self.media.dvpp_destroy_resize_config(c) == 0
        for ptr in self.mems:
            assert self.media.dvpp_free(ptr) == 0
        assert self.media.dvpp_destroy_channel(self.ch) == 0 and self.media.dvpp_destroy_channel_desc(self.ch) == 0
        assert self.acl.rt.destroy_stream(self.stream) == 0
        assert not [e for e in sim_inspect.live() if e.kind.startswith("dvpp") or e.kind == "stream"]
        assert self.acl.rt.reset_device(0) == 0 and self.acl.finalize() == 0
        assert sim_inspect.leaks() == []


@pytest.fixture
def kit(ready):
    return Kit(ready)


def info(acl, raw, v2=False):
    call = acl.media.dvpp_jpeg_get_image_info_v2 if v2 else acl.media.dvpp_jpeg_get_image_info
    return call(acl.util.bytes_to_ptr(raw), len(raw))


# --- what is not a decodable baseline JPEG --------------------------------------------------------------
def test_png_handed_to_jpegd(ready, kit):
    raw = encoded(Image.new("RGB", (64, 48), (10, 200, 30)), "PNG")
    assert info(ready, raw) == (0, 0, 0, 500001)
    assert ready.media.dvpp_jpeg_predict_dec_size(ready.util.bytes_to_ptr(raw), len(raw), NV12) == (0, 500001)
    out = kit.decode_desc(64, 48)
    kit.device_fault(kit.decode(raw, out), out, "PNG file, not a JPEG")
    data = kit.to_dvpp(raw)
    assert ready.media.dvpp_png_decode_async(kit.ch, data, len(raw), out, kit.stream) == 100027  # PNGD: RGB888 only
    kit.finish()


def test_corrupt_header(ready, kit):
    raw = good_jpeg()
    bad = raw[:2] + bytes(range(256)) + raw[258:]  # DQT/SOF overwritten
    assert info(ready, bad) == (0, 0, 0, 500001)
    out = kit.decode_desc(64, 48)
    kit.device_fault(kit.decode(bad, out), out, "libjpeg cannot parse")
    kit.finish()


def test_corrupt_marker_inside_the_entropy_data(ready, kit):
    raw = good_jpeg()
    mid = (raw.index(b"\xff\xda") + len(raw)) // 2
    bad = raw[:mid] + b"\xff\x05" + raw[mid + 2:]  # 0xFF 0x05 is no marker at all
    assert info(ready, bad) == (64, 48, 3, 0)  # the header is fine
    out = kit.decode_desc(64, 48)
    kit.device_fault(kit.decode(bad, out), out, "could not decode the stream")
    kit.finish()


@pytest.mark.parametrize("keep", [0.5, 0.9])
def test_truncated_jpeg(ready, kit, keep):
    """Cut inside the entropy data: libjpeg runs out of data; the task fails instead of raising out of sync."""
    raw = photo_jpeg("rocket.jpg", (200, 120))
    bad = raw[:int(len(raw) * keep)]
    assert info(ready, bad) == (200, 120, 3, 0)
    out = kit.decode_desc(200, 120)
    kit.device_fault(kit.decode(bad, out), out, "truncated")
    kit.finish()


def test_truncated_before_the_frame_header(ready, kit):
    raw = good_jpeg()
    bad = raw[:raw.index(b"\xff\xc0")]
    assert info(ready, bad)[-1] == 500001
    out = kit.decode_desc(64, 48)
    kit.device_fault(kit.decode(bad, out), out, "JPEGD")
    kit.finish()


def test_progressive_jpeg(ready, kit):
    """JPEGD decodes baseline Huffman only [DOC-JPEGD]; the header still parses on the host."""
    raw = encoded(Image.open(io.BytesIO(good_jpeg())), quality=90, progressive=True)
    assert info(ready, raw, v2=True) == (64, 48, 3, 2, 0)
    out = kit.decode_desc(64, 48)
    kit.device_fault(kit.decode(raw, out), out, "progressive")
    kit.finish()


def test_arithmetic_coded_frame(ready, kit):
    """SOF9 (arithmetic sequential): not baseline Huffman."""
    raw = bytearray(good_jpeg())
    raw[raw.index(b"\xff\xc0") + 1] = 0xC9
    out = kit.decode_desc(64, 48)
    kit.device_fault(kit.decode(bytes(raw), out), out, "arithmetic sequential")
    kit.finish()


def test_unsupported_subsampling_411(ready, kit):
    """4:1:1 (luma 4x1): get_image_info_v2 reports ACL_JPEG_CSS_411 (5); JPEGD decodes 444/422/420/440/400 only."""
    raw = blocky_jpeg(64, 48, [(4, 1), (1, 1), (1, 1)])
    assert info(ready, raw, v2=True) == (64, 48, 3, 5, 0)
    out = kit.decode_desc(64, 48)
    kit.device_fault(kit.decode(raw, out), out, "4x1, 1x1, 1x1")
    kit.finish()


def test_cmyk_jpeg(ready, kit):
    raw = encoded(Image.new("CMYK", (64, 48), (10, 20, 30, 40)), quality=90)
    assert info(ready, raw, v2=True) == (64, 48, 4, 1000, 0)  # ACL_JPEG_CSS_UNKNOWN
    out = kit.decode_desc(64, 48)
    kit.device_fault(kit.decode(raw, out), out, "sampling")
    kit.finish()


# --- sizes -------------------------------------------------------------------------------------------------
def test_zero_size_jpeg_input(ready, kit):
    raw = good_jpeg()
    assert ready.media.dvpp_jpeg_get_image_info(ready.util.bytes_to_ptr(raw), 0) == (0, 0, 0, 100000)
    out = kit.decode_desc(64, 48)
    data = kit.to_dvpp(raw)
    assert ready.media.dvpp_jpeg_decode_async(kit.ch, data, 0, out, kit.stream) == 100000
    assert ready.media.dvpp_jpeg_decode_async(kit.ch, 0, len(raw), out, kit.stream) == 100000
    assert ready.rt.synchronize_stream(kit.stream) == 0  # nothing was queued
    kit.finish()


@pytest.mark.parametrize("size", [(16, 16), (8200, 40)], ids=["below-32", "above-8192"])
def test_jpeg_outside_32_to_8192(ready, kit, size):
    raw = encoded(Image.new("RGB", size, (90, 120, 150)), quality=75)
    host = ready.util.bytes_to_ptr(raw)
    assert ready.media.dvpp_jpeg_predict_dec_size(host, len(raw), NV12) == (0, 100000)
    assert info(ready, raw)[:2] == size  # get_image_info itself has no size rule
    out = kit.decode_desc(*size)
    kit.device_fault(kit.decode(raw, out), out, "outside 32..8192")
    kit.finish()


@pytest.mark.parametrize("w, h, ws, hs, fmt", [(0, 48, 64, 48, NV12), (64, 0, 64, 48, NV12),
                                                (4112, 6, 4112, 6, NV12)], ids=["zero-width", "zero-height",
                                                                                "wider-than-4096"])
def test_vpc_picture_outside_10x6_to_4096(ready, kit, w, h, ws, hs, fmt):
    src = kit.desc(64, 48, 64, 48)
    out = kit.desc(w, h, ws, hs, fmt)
    kit.device_fault(ready.media.dvpp_vpc_resize_async(kit.ch, src, out, kit.resize_cfg(), kit.stream), out,
                     f"output is {w}x{h}")
    kit.finish()


def test_vpc_scale_ratio_above_16(ready, kit):
    src = kit.desc(16, 6, 32, 6)
    out = kit.desc(512, 96, 512, 96)
    kit.device_fault(ready.media.dvpp_vpc_resize_async(kit.ch, src, out, kit.resize_cfg(), kit.stream), out,
                     "scaling width 16 -> 512")
    kit.finish()


# --- strides and buffer sizes -------------------------------------------------------------------------------
@pytest.mark.parametrize("ws, hs, why", [(300 + 4, 208, "widthStride"), (384, 200, "heightStride"),
                                         (256, 208, "widthStride")], ids=["ws-not-128", "hs-not-16", "ws<w"])
def test_jpegd_output_strides(ready, kit, ws, hs, why):
    raw = photo_jpeg("coffee.png", (300, 200))
    out = kit.desc(300, 200, ws, hs)
    kit.device_fault(kit.decode(raw, out), out, f"strides {ws}x{hs}", why)
    kit.finish()


def test_jpegd_output_buffer_smaller_than_the_strides_need(ready, kit):
    raw = photo_jpeg("coffee.png", (300, 200))
    out = kit.desc(300, 200, 384, 208, size=384 * 208)  # Y plane only
    kit.device_fault(kit.decode(raw, out), out, "output size 79872 < 119808")
    kit.finish()


@pytest.mark.parametrize("ws, hs, fragment", [(72, 48, "widthStride 72"), (64, 49, "heightStride 49"),
                                              (48, 48, "widthStride 48")], ids=["ws-not-16", "hs-odd", "ws<w"])
def test_vpc_input_strides(ready, kit, ws, hs, fragment):
    src = kit.desc(64, 48, ws, hs)
    out = kit.desc(32, 24, 32, 24)
    kit.device_fault(ready.media.dvpp_vpc_resize_async(kit.ch, src, out, kit.resize_cfg(), kit.stream), out,
                     "input " + fragment)
    kit.finish()


# --- memory that is not DVPP memory -------------------------------------------------------------------------
def test_jpeg_input_in_acl_rt_malloc_memory(ready, kit):
    raw = good_jpeg()
    plain, ret = ready.rt.malloc(len(raw), 0)
    assert ret == 0
    assert ready.rt.memcpy(plain, len(raw), ready.util.bytes_to_ptr(raw), len(raw), 1) == 0
    out = kit.decode_desc(64, 48)
    kit.device_fault(kit.decode(raw, out, data=plain), out, "JPEG input data", "dvpp_malloc")
    assert ready.rt.free(plain) == 0
    kit.finish()


def test_jpeg_input_as_a_host_pointer(ready, kit):
    """The samples' get_image_info takes bytes_to_ptr(...); decode wants the dvpp_malloc copy."""
    raw = good_jpeg()
    out = kit.decode_desc(64, 48)
    kit.device_fault(kit.decode(raw, out, data=ready.util.bytes_to_ptr(raw)), out, "JPEGD")
    kit.finish()


def test_decode_output_in_host_memory(ready, kit):
    host, ret = ready.rt.malloc_host(128 * 48 * 3 // 2)
    assert ret == 0
    out = kit.desc(64, 48, 128, 48, data=host)
    kit.device_fault(kit.decode(good_jpeg(), out), out, "output picture data", "dvpp_malloc")
    assert ready.rt.free_host(host) == 0
    kit.finish()


def test_vpc_input_in_acl_rt_malloc_memory(ready, kit):
    plain, _ = ready.rt.malloc(64 * 48 * 3 // 2, 0)
    src = kit.desc(64, 48, 64, 48, data=plain)
    out = kit.desc(32, 24, 32, 24)
    kit.device_fault(ready.media.dvpp_vpc_resize_async(kit.ch, src, out, kit.resize_cfg(), kit.stream), out,
                     "input picture data", "dvpp_malloc")
    assert ready.rt.free(plain) == 0
    kit.finish()


def test_dvpp_memory_freed_before_the_stream_ran(ready, kit):
    """The task finds its buffer gone at synchronize_stream: a fault, not a crash."""
    raw = good_jpeg()
    out = kit.decode_desc(64, 48)
    data = kit.to_dvpp(raw)
    assert kit.decode(raw, out, data=data) == 0
    kit.mems.remove(data)
    assert ready.media.dvpp_free(data) == 0
    assert ready.rt.synchronize_stream(kit.stream) == FAULT
    assert ready.media.dvpp_get_pic_desc_ret_code(out) == FAULT
    kit.finish()


# --- ROIs ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("roi", [(16, 47, 9, 24), (16, 46, 8, 23), (16, 47, 8, 22)],
                         ids=["odd-top", "even-right", "even-bottom"])
def test_crop_roi_parity(ready, kit, roi):
    src = kit.desc(64, 32, 64, 32)
    out = kit.desc(32, 16, 32, 16)
    kit.device_fault(ready.media.dvpp_vpc_crop_async(kit.ch, src, out, kit.roi(*roi), kit.stream), out,
                     "left and top must be even, right and bottom odd")
    kit.finish()


def test_crop_roi_outside_the_picture(ready, kit):
    src = kit.desc(64, 32, 64, 32)
    out = kit.desc(32, 16, 32, 16)
    kit.device_fault(ready.media.dvpp_vpc_crop_async(kit.ch, src, out, kit.roi(32, 95, 0, 15), kit.stream), out,
                     "must lie inside the 64x32 picture")
    kit.finish()


def test_crop_and_paste_odd_paste_offset(ready, kit):
    src = kit.desc(64, 32, 64, 32)
    out = kit.desc(64, 64, 64, 64)
    before = np.full(64 * 64 * 3 // 2, 7, np.uint8)
    data = ready.media.dvpp_get_pic_desc_data(out)
    assert ready.rt.memcpy(data, before.size, ready.util.bytes_to_ptr(before.tobytes()), before.size, 1) == 0
    queued = ready.media.dvpp_vpc_crop_and_paste_async(kit.ch, src, out, kit.roi(0, 31, 0, 15),
                                                       kit.roi(16, 47, 33, 48), kit.stream)
    kit.device_fault(queued, out, "paste ROI", "even")
    assert sim_inspect.read(data, before.size) == before.tobytes()  # nothing written by the refused task
    kit.finish()
