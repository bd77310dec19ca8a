"""acl.media JPEGD + VPC written as the vpc samples use them: decode our photo, resize to 224x224, check the bytes."""
import io
import os

import numpy as np
import pytest
from PIL import Image

from acl_teach.spec.dvpp import align_up
from acl_teach import sim

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NV12, NV21 = 1, 2


def coffee_jpeg(size=None, **save):
    im = Image.open(os.path.join(ROOT, "data", "images", "coffee.png")).convert("RGB")
    if size:
        im = im.resize(size)
    buf = io.BytesIO()
    im.save(buf, "JPEG", quality=95, **save)
    return buf.getvalue()


class Dvpp:
    """The sample's Dvpp class in miniature: channel, stream, helpers that check every ret."""

    def __init__(self, acl):
        self.acl = acl
        self.stream, ret = acl.rt.create_stream()
        assert ret == 0
        self.ch = acl.media.dvpp_create_channel_desc()
        assert self.ch and acl.media.dvpp_create_channel(self.ch) == 0

    def to_dvpp(self, raw):
        dev, ret = self.acl.media.dvpp_malloc(len(raw))
        assert ret == 0
        self.keep = raw
        assert self.acl.rt.memcpy(dev, len(raw), self.acl.util.bytes_to_ptr(raw), len(raw), 1) == 0
        return dev

    def desc(self, w, h, ws, hs, fmt=NV12, size=None, data=None):
        media = self.acl.media
        size = size if size is not None else ws * hs * 3 // 2
        if data is None:
            data, ret = media.dvpp_malloc(size)
            assert ret == 0
        d = media.dvpp_create_pic_desc()
        for setter, value in ((media.dvpp_set_pic_desc_data, data), (media.dvpp_set_pic_desc_size, size),
                              (media.dvpp_set_pic_desc_format, fmt), (media.dvpp_set_pic_desc_width, w),
                              (media.dvpp_set_pic_desc_height, h), (media.dvpp_set_pic_desc_width_stride, ws),
                              (media.dvpp_set_pic_desc_height_stride, hs)):
            assert setter(d, value) == 0
        return d

    def read(self, desc):
        size = self.acl.media.dvpp_get_pic_desc_size(desc)
        back = np.zeros(size, np.uint8)
        assert self.acl.rt.memcpy(self.acl.util.numpy_to_ptr(back), size,
                                  self.acl.media.dvpp_get_pic_desc_data(desc), size, 2) == 0
        return back

    def decode(self, raw, fmt=NV12):
        acl = self.acl
        host = acl.util.bytes_to_ptr(raw)
        w, h, c, ret = acl.media.dvpp_jpeg_get_image_info(host, len(raw))
        assert ret == 0 and c == 3
        size, ret = acl.media.dvpp_jpeg_predict_dec_size(host, len(raw), fmt)
        assert ret == 0 and size == align_up(w, 128) * align_up(h, 16) * 3 // 2
        out = self.desc(w, h, align_up(w, 128), align_up(h, 16), fmt, size)
        assert acl.media.dvpp_jpeg_decode_async(self.ch, self.to_dvpp(raw), len(raw), out, self.stream) == 0
        return out

    def sync(self):
        return self.acl.rt.synchronize_stream(self.stream)


def planes(buf, w, h, ws, hs, fmt=NV12):
    y = buf[:ws * hs].reshape(hs, ws)[:h, :w].astype(int)
    uv = buf[ws * hs:ws * hs * 3 // 2].reshape(hs // 2, ws)[:h // 2, :w].reshape(h // 2, w // 2, 2).astype(int)
    u, v = (uv[..., 1], uv[..., 0]) if fmt == NV21 else (uv[..., 0], uv[..., 1])
    return y, u, v


def reference_ycbcr(raw):
    """Independent: Pillow decodes to RGB, then its own RGB -> YCbCr (JFIF full range), chroma averaged 2x2."""
    ycc = np.asarray(Image.open(io.BytesIO(raw)).convert("RGB").convert("YCbCr"), int)
    h, w = ycc.shape[:2]
    c = ycc[:h // 2 * 2, :w // 2 * 2, 1:].reshape(h // 2, 2, w // 2, 2, 2).mean(axis=(1, 3))
    return ycc[..., 0], c[..., 0], c[..., 1]


@pytest.mark.parametrize("fmt", [NV12, NV21])
def test_decode_lays_out_yuv420sp_with_the_310_strides(ready, fmt):
    acl = ready
    raw = coffee_jpeg((300, 200))  # 300x200 -> strides 384 x 208: both paddings exercised
    dvpp = Dvpp(acl)
    out = dvpp.decode(raw, fmt)
    before = dvpp.read(out)
    assert dvpp.sync() == 0 and acl.media.dvpp_get_pic_desc_ret_code(out) == 0
    buf = dvpp.read(out)
    assert buf.size == 384 * 208 * 3 // 2
    y, u, v = planes(buf, 300, 200, 384, 208, fmt)
    ry, ru, rv = reference_ycbcr(raw)
    # tolerance: libjpeg's direct YCbCr vs Pillow's YCbCr -> RGB (clipped) -> YCbCr round trip
    assert np.abs(y - ry).mean() < 0.6 and np.percentile(np.abs(y - ry), 99.5) <= 3
    assert np.abs(u - ru).mean() < 1.0 and np.abs(v - rv).mean() < 1.0
    # layout exact: padding untouched (the simulator's fresh-memory pattern), UV at ws*hs
    assert (buf[:384 * 208].reshape(208, 384)[:200, 300:] == before[:384 * 208].reshape(208, 384)[:200, 300:]).all()
    assert (buf[:384 * 208].reshape(208, 384)[200:] == before[:384 * 208].reshape(208, 384)[200:]).all()


def test_output_bytes_exist_only_after_synchronize_stream(ready):
    acl = ready
    dvpp = Dvpp(acl)
    out = dvpp.decode(coffee_jpeg((64, 64)))
    before = dvpp.read(out)
    assert dvpp.sync() == 0
    assert not np.array_equal(before, dvpp.read(out))


def test_decode_then_resize_to_224_matches_an_independent_resize(ready):
    """Sample A's pipeline: JPEGD (128/16 strides) -> VPC resize to 224x224 (75264 bytes) on the decode buffer."""
    acl = ready
    raw = coffee_jpeg()
    dvpp = Dvpp(acl)
    dec = dvpp.decode(raw)
    assert dvpp.sync() == 0
    w, h = acl.media.dvpp_get_pic_desc_width(dec), acl.media.dvpp_get_pic_desc_height(dec)
    src = dvpp.desc(w, h, align_up(w, 128), align_up(h, 16), data=acl.media.dvpp_get_pic_desc_data(dec),
                    size=acl.media.dvpp_get_pic_desc_size(dec))
    out = dvpp.desc(224, 224, 224, 224)
    assert acl.media.dvpp_get_pic_desc_size(out) == 75264
    cfg = acl.media.dvpp_create_resize_config()
    assert acl.media.dvpp_vpc_resize_async(dvpp.ch, src, out, cfg, dvpp.stream) == 0
    assert dvpp.sync() == 0
    y, u, v = planes(dvpp.read(out), 224, 224, 224, 224)
    ref = Image.open(io.BytesIO(raw)).convert("RGB").crop((0, 0, w & ~1, h & ~1)).resize((224, 224), Image.BILINEAR)
    ry = np.asarray(ref.convert("YCbCr"), int)[..., 0]
    # tolerance: the 310's resize kernel is unpublished; both are bilinear on different planes/paths
    assert np.abs(y - ry).mean() < 3 and np.percentile(np.abs(y - ry), 99) < 20
    for d in (src, out, dec):
        acl.media.dvpp_free(acl.media.dvpp_get_pic_desc_data(d)) if d != src else None
        assert acl.media.dvpp_destroy_pic_desc(d) == 0
    assert acl.media.dvpp_destroy_resize_config(cfg) == 0
    assert acl.media.dvpp_destroy_channel(dvpp.ch) == 0 and acl.media.dvpp_destroy_channel_desc(dvpp.ch) == 0


def _yuv_in_dvpp(dvpp, w, h, ws, hs, value=None):
    """An NV12 picture made on the host and copied into DVPP memory."""
    rng = np.random.default_rng(0)
    buf = rng.integers(0, 256, ws * hs * 3 // 2, dtype=np.uint8) if value is None else \
        np.full(ws * hs * 3 // 2, value, np.uint8)
    d = dvpp.desc(w, h, ws, hs)
    assert dvpp.acl.rt.memcpy(dvpp.acl.media.dvpp_get_pic_desc_data(d), buf.size,
                              dvpp.acl.util.numpy_to_ptr(buf), buf.size, 1) == 0
    return d, buf


def test_crop_takes_the_roi_exactly_when_no_scaling(ready):
    acl = ready
    dvpp = Dvpp(acl)
    src, buf = _yuv_in_dvpp(dvpp, 64, 32, 64, 32)
    out = dvpp.desc(32, 16, 32, 16)
    roi = acl.media.dvpp_create_roi_config(16, 47, 8, 23)  # 32x16 at (16, 8)
    assert acl.media.dvpp_vpc_crop_async(dvpp.ch, src, out, roi, dvpp.stream) == 0
    assert dvpp.sync() == 0
    y, u, v = planes(dvpp.read(out), 32, 16, 32, 16)
    sy, su, sv = planes(buf, 64, 32, 64, 32)
    assert (y == sy[8:24, 16:48]).all() and (u == su[4:12, 8:24]).all() and (v == sv[4:12, 8:24]).all()
    assert acl.media.dvpp_destroy_roi_config(roi) == 0


def test_crop_and_paste_writes_only_the_paste_roi(ready):
    acl = ready
    dvpp = Dvpp(acl)
    src, buf = _yuv_in_dvpp(dvpp, 64, 32, 64, 32)
    out, _ = _yuv_in_dvpp(dvpp, 64, 64, 64, 64, value=7)
    crop = acl.media.dvpp_create_roi_config(0, 31, 0, 15)
    paste = acl.media.dvpp_create_roi_config(16, 47, 32, 47)
    assert acl.media.dvpp_vpc_crop_and_paste_async(dvpp.ch, src, out, crop, paste, dvpp.stream) == 0
    assert dvpp.sync() == 0
    y, u, v = planes(dvpp.read(out), 64, 64, 64, 64)
    sy, su, _ = planes(buf, 64, 32, 64, 32)
    assert (y[32:48, 16:48] == sy[:16, :32]).all() and (u[16:24, 8:24] == su[:8, :16]).all()
    mask = np.ones_like(y, bool)
    mask[32:48, 16:48] = False
    assert (y[mask] == 7).all()


# --- the rules and their codes ---------------------------------------------------------------------------
def _fails_at_sync(acl, dvpp, out, call):
    assert call() == 0  # the host library does not check it: the call queues the task
    assert dvpp.sync() == 507018  # UNCONFIRMED code (reference §6.1)
    assert acl.media.dvpp_get_pic_desc_ret_code(out) == 507018


def test_bad_width_stride_fails_on_the_device(ready):
    acl = ready
    dvpp = Dvpp(acl)
    src, _ = _yuv_in_dvpp(dvpp, 100, 100, 112, 100)
    out = dvpp.desc(224, 224, 230, 224)  # 230 is not a multiple of 16
    cfg = acl.media.dvpp_create_resize_config()
    _fails_at_sync(acl, dvpp, out, lambda: acl.media.dvpp_vpc_resize_async(dvpp.ch, src, out, cfg, dvpp.stream))
    assert "widthStride 230" in acl.get_recent_err_msg()


def test_decode_stride_not_128_aligned_fails_on_the_device(ready):
    acl = ready
    dvpp = Dvpp(acl)
    raw = coffee_jpeg((300, 200))
    out = dvpp.desc(300, 200, 304, 208)  # the VPC's 16-alignment is not enough for JPEGD on the 310
    _fails_at_sync(acl, dvpp, out, lambda: acl.media.dvpp_jpeg_decode_async(dvpp.ch, dvpp.to_dvpp(raw), len(raw),
                                                                            out, dvpp.stream))


def test_odd_crop_left_fails_on_the_device(ready):
    acl = ready
    dvpp = Dvpp(acl)
    src, _ = _yuv_in_dvpp(dvpp, 64, 32, 64, 32)
    out = dvpp.desc(32, 16, 32, 16)
    roi = acl.media.dvpp_create_roi_config(15, 46, 8, 23)
    _fails_at_sync(acl, dvpp, out, lambda: acl.media.dvpp_vpc_crop_async(dvpp.ch, src, out, roi, dvpp.stream))
    assert "even" in acl.get_recent_err_msg()


def test_paste_left_must_be_16_aligned(ready):
    acl = ready
    dvpp = Dvpp(acl)
    src, _ = _yuv_in_dvpp(dvpp, 64, 32, 64, 32)
    out = dvpp.desc(64, 64, 64, 64)
    crop, paste = acl.media.dvpp_create_roi_config(0, 31, 0, 15), acl.media.dvpp_create_roi_config(8, 39, 0, 15)
    _fails_at_sync(acl, dvpp, out, lambda: acl.media.dvpp_vpc_crop_and_paste_async(dvpp.ch, src, out, crop, paste,
                                                                                   dvpp.stream))


def test_non_dvpp_memory_fails_on_the_device(ready):
    acl = ready
    dvpp = Dvpp(acl)
    src, _ = _yuv_in_dvpp(dvpp, 64, 32, 64, 32)
    plain, _ = acl.rt.malloc(64 * 32 * 3 // 2, 0)
    out = dvpp.desc(64, 32, 64, 32, data=plain)
    cfg = acl.media.dvpp_create_resize_config()
    _fails_at_sync(acl, dvpp, out, lambda: acl.media.dvpp_vpc_resize_async(dvpp.ch, src, out, cfg, dvpp.stream))
    assert "dvpp_malloc" in acl.get_recent_err_msg()


def test_unsupported_formats_are_refused_by_the_host_library(ready):
    acl = ready
    dvpp = Dvpp(acl)
    src, _ = _yuv_in_dvpp(dvpp, 64, 32, 64, 32)
    out = dvpp.desc(64, 32, 64, 32, fmt=12)  # RGB_888 output: not on the 310's VPC
    cfg = acl.media.dvpp_create_resize_config()
    assert acl.media.dvpp_vpc_resize_async(dvpp.ch, src, out, cfg, dvpp.stream) == 100027
    raw = coffee_jpeg((64, 64))
    assert acl.media.dvpp_jpeg_decode_async(dvpp.ch, dvpp.to_dvpp(raw), len(raw), out, dvpp.stream) == 100027
    host = acl.util.bytes_to_ptr(raw)
    assert acl.media.dvpp_jpeg_predict_dec_size(host, len(raw), 12) == (0, 100027)
    assert acl.media.dvpp_set_resize_config_interpolation(cfg, 5) == 100000
    assert dvpp.sync() == 0


def test_host_checks_and_return_shapes(ready):
    acl = ready
    media = acl.media
    dvpp = Dvpp(acl)
    raw = coffee_jpeg((20, 20))
    host = acl.util.bytes_to_ptr(raw)
    assert media.dvpp_jpeg_predict_dec_size(host, len(raw), 1) == (0, 100000)  # 20x20 < 32x32
    junk = b"not a jpeg at all"
    assert media.dvpp_jpeg_get_image_info(acl.util.bytes_to_ptr(junk), len(junk)) == (0, 0, 0, 500001)
    out = dvpp.desc(64, 64, 128, 64)
    assert media.dvpp_jpeg_decode_async(dvpp.ch, 0, 10, out, dvpp.stream) == 100000
    lone = media.dvpp_create_channel_desc()
    assert media.dvpp_jpeg_decode_async(lone, 1, 10, out, dvpp.stream) == 100000  # no dvpp_create_channel
    assert media.dvpp_set_channel_desc_mode(lone, 1) == 200006  # V100
    assert media.dvpp_vpc_convert_color_async(dvpp.ch, out, out, dvpp.stream) == 200006
    fresh = media.dvpp_create_pic_desc()
    assert [media.dvpp_get_pic_desc_format(fresh), media.dvpp_get_pic_desc_width(fresh)] == [0, 0]
    assert media.dvpp_destroy_pic_desc(0) == 0 and media.dvpp_destroy_pic_desc(fresh) == 0
    assert media.dvpp_destroy_pic_desc(fresh) == 100000
    batch = media.dvpp_create_batch_pic_desc(2)
    assert media.dvpp_get_pic_desc(batch, 1) and media.dvpp_get_pic_desc(batch, 2) == 0
    assert media.dvpp_destroy_batch_pic_desc(batch) == 0
    roi = media.dvpp_create_roi_config(0, 9, 0, 5)
    assert media.dvpp_set_roi_config(roi, 2, 11, 2, 7) == 0 and media.dvpp_set_roi_config_left(roi, 4) == 0
    with pytest.raises(TypeError, match="args parse failed"):
        media.dvpp_create_roi_config(0, 1, 2)
    assert media.dvpp_destroy_channel_desc(lone) == 0


def test_exif_orientation_swaps_width_and_height(ready):
    acl = ready
    exif = Image.Exif()
    exif[0x0112] = 6
    raw = coffee_jpeg((64, 48), exif=exif.tobytes())
    w, h, c, ret = acl.media.dvpp_jpeg_get_image_info(acl.util.bytes_to_ptr(raw), len(raw))
    assert (w, h, c, ret) == (48, 64, 3, 0)


def test_jpege_encodes_what_jpegd_decoded(ready):
    """vpc_jpeg sample type 3: predict_enc_size -> dvpp_malloc -> encode with a host size holder -> sync."""
    acl = ready
    media = acl.media
    dvpp = Dvpp(acl)
    raw = coffee_jpeg((256, 128))
    dec = dvpp.decode(raw)
    assert dvpp.sync() == 0
    cfg = media.dvpp_create_jpege_config()
    assert media.dvpp_set_jpege_config_level(cfg, 100) == 0 and media.dvpp_get_jpege_config_level(cfg) == 100
    n, ret = media.dvpp_jpeg_predict_enc_size(dec, cfg)
    assert ret == 0 and n == 2 << 20  # 256*128*3/2 + 768, rounded up to 2 MiB
    out, _ = media.dvpp_malloc(n)
    holder = np.array([n], np.uint32)
    assert media.dvpp_jpeg_encode_async(dvpp.ch, dec, out, acl.util.numpy_to_ptr(holder), cfg, dvpp.stream) == 0
    assert holder[0] == n  # nothing before the stream runs
    assert dvpp.sync() == 0
    size = int(holder[0])
    back = np.zeros(size, np.uint8)
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(back), size, out, size, 2) == 0
    again = np.asarray(Image.open(io.BytesIO(back.tobytes())).convert("L"), int)
    first = np.asarray(Image.open(io.BytesIO(raw)).convert("L"), int)
    assert again.shape == (128, 256) and np.abs(again - first).mean() < 3
    bad = dvpp.desc(256, 128, 250, 128)  # widthStride not a multiple of 16
    assert media.dvpp_jpeg_predict_enc_size(bad, cfg) == (0, 100000)
    assert media.dvpp_set_jpege_config_level(cfg, 101) == 100000
    assert media.dvpp_destroy_jpege_config(cfg) == 0


def test_batch_crop_fills_each_output_and_its_ret_code(ready):
    """vpc_jpeg sample type 5: one input, 2 ROIs, 2 outputs from dvpp_get_pic_desc; ret_code read per output."""
    acl = ready
    media = acl.media
    dvpp = Dvpp(acl)
    src_b, dst_b = media.dvpp_create_batch_pic_desc(1), media.dvpp_create_batch_pic_desc(2)
    _, buf = _yuv_in_dvpp(dvpp, 64, 32, 64, 32)
    data, _ = media.dvpp_malloc(buf.size)
    acl.rt.memcpy(data, buf.size, acl.util.numpy_to_ptr(buf), buf.size, 1)
    for d, (w, h, p) in ((media.dvpp_get_pic_desc(src_b, 0), (64, 32, data)),
                         (media.dvpp_get_pic_desc(dst_b, 0), (32, 16, None)),
                         (media.dvpp_get_pic_desc(dst_b, 1), (32, 16, None))):
        p = p or media.dvpp_malloc(w * h * 3 // 2)[0]
        for setter, value in ((media.dvpp_set_pic_desc_data, p), (media.dvpp_set_pic_desc_size, w * h * 3 // 2),
                              (media.dvpp_set_pic_desc_format, 1), (media.dvpp_set_pic_desc_width, w),
                              (media.dvpp_set_pic_desc_height, h), (media.dvpp_set_pic_desc_width_stride, w),
                              (media.dvpp_set_pic_desc_height_stride, h)):
            setter(d, value)
    rois = [media.dvpp_create_roi_config(0, 31, 0, 15), media.dvpp_create_roi_config(32, 63, 16, 31)]
    assert media.dvpp_vpc_batch_crop_async(dvpp.ch, src_b, [2], dst_b, rois, dvpp.stream) == (dst_b, 0)
    assert dvpp.sync() == 0
    sy, _, _ = planes(buf, 64, 32, 64, 32)
    for i, (top, left) in enumerate(((0, 0), (16, 32))):
        out = media.dvpp_get_pic_desc(dst_b, i)
        assert media.dvpp_get_pic_desc_ret_code(out) == 0
        y, _, _ = planes(dvpp.read(out), 32, 16, 32, 16)
        assert (y == sy[top:top + 16, left:left + 32]).all()
    with pytest.raises(TypeError, match="not list"):
        media.dvpp_vpc_batch_crop_async(dvpp.ch, src_b, 2, dst_b, rois, dvpp.stream)
    with pytest.raises(ValueError, match="between 1 and 256"):
        media.dvpp_vpc_batch_crop_async(dvpp.ch, src_b, [], dst_b, rois, dvpp.stream)
    assert media.dvpp_destroy_batch_pic_desc(src_b) == 0 and media.dvpp_destroy_batch_pic_desc(dst_b) == 0


def test_jpegd_alignment_follows_the_soc(acl):
    """310: ALIGN_UP(w, 128) x ALIGN_UP(h, 16); 310P/310B: 64 x 16 (UNCONFIRMED for current libraries)."""
    before = sim.state().config.soc_name
    sim.configure(soc_name="Ascend310P3")
    try:
        assert acl.init() == 0
        raw = coffee_jpeg((300, 200))
        assert acl.media.dvpp_jpeg_predict_dec_size(acl.util.bytes_to_ptr(raw), len(raw), 1) == \
            (320 * 208 * 3 // 2, 0)
        info = acl.media.dvpp_jpeg_get_image_info_v2(acl.util.bytes_to_ptr(raw), len(raw))
        assert info == (300, 200, 3, 2, 0)  # Pillow saves 4:2:0 -> ACL_JPEG_CSS_420
    finally:
        sim.configure(soc_name=before)
        acl.finalize()


def test_dvpp_calls_before_init_and_creators_return_null(acl):
    assert acl.media.dvpp_create_pic_desc() == 0
    assert acl.media.dvpp_create_channel_desc() == 0
    assert acl.media.dvpp_jpeg_get_image_info(1, 1) == (0, 0, 0, 100001)
