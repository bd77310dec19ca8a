"""Batch crop-resize(-paste), crop-resize-make-border, pyramid down, border configs and channel params on NV12 pictures."""
import numpy as np
import pytest

from acl_teach.spec import dvpp as D
from video_programs import from_device, to_dvpp
from acl_teach import sim

W, H = 64, 48


def _picture(acl, width=W, height=H, seed=0):
    """An NV12 picture in DVPP memory (strides = size) with random bytes; (desc-setting dict, host bytes)."""
    data = np.random.default_rng(seed).integers(0, 256, width * height * 3 // 2, np.uint8).tobytes()
    return {"data": to_dvpp(acl, data), "size": len(data), "format": 1, "width": width, "height": height,
            "width_stride": width, "height_stride": height}, data


def _output(acl, width, height):
    size = width * height * 3 // 2
    ptr, ret = acl.media.dvpp_malloc(size)
    assert ret == 0
    assert acl.rt.memset(ptr, size, 0x55, size) == 0
    return {"data": ptr, "size": size, "format": 1, "width": width, "height": height, "width_stride": width,
            "height_stride": height}


def _set(acl, desc, fields):
    for name, value in fields.items():
        assert getattr(acl.media, f"dvpp_set_pic_desc_{name}")(desc, value) == 0
    return desc


@pytest.fixture
def vpc(ready):
    acl = ready
    channel = acl.media.dvpp_create_channel_desc()
    assert acl.media.dvpp_create_channel(channel) == 0
    stream, _ = acl.rt.create_stream()
    cfg = acl.media.dvpp_create_resize_config()
    assert acl.media.dvpp_set_resize_config_interpolation(cfg, 2) == 0  # nearest: exact and easy to compare
    yield acl, channel, stream, cfg
    acl.media.dvpp_destroy_resize_config(cfg)
    acl.rt.destroy_stream(stream)
    acl.media.dvpp_destroy_channel(channel)
    acl.media.dvpp_destroy_channel_desc(channel)


def _single(acl, channel, stream, cfg, src_fields, roi, out_w, out_h):
    """The same crop through the single-picture dvpp_vpc_crop_resize_async: the output bytes."""
    src = _set(acl, acl.media.dvpp_create_pic_desc(), src_fields)
    out_fields = _output(acl, out_w, out_h)
    dst = _set(acl, acl.media.dvpp_create_pic_desc(), out_fields)
    assert acl.media.dvpp_vpc_crop_resize_async(channel, src, dst, roi, cfg, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    return from_device(acl, out_fields["data"], out_fields["size"])


def _batches(acl, src_fields, outs):
    src = acl.media.dvpp_create_batch_pic_desc(1)
    _set(acl, acl.media.dvpp_get_pic_desc(src, 0), src_fields)
    dst = acl.media.dvpp_create_batch_pic_desc(len(outs))
    for i, fields in enumerate(outs):
        _set(acl, acl.media.dvpp_get_pic_desc(dst, i), fields)
    return src, dst


def test_batch_crop_resize_equals_one_crop_resize_per_roi_and_returns_a_bare_ret(vpc):
    acl, channel, stream, cfg = vpc
    src_fields, _ = _picture(acl)
    rois = [acl.media.dvpp_create_roi_config(0, 31, 0, 23), acl.media.dvpp_create_roi_config(16, 63, 10, 47)]
    outs = [_output(acl, 32, 32), _output(acl, 48, 16)]
    src, dst = _batches(acl, src_fields, outs)
    assert acl.media.dvpp_vpc_batch_crop_resize_async(channel, src, [2], dst, rois, cfg, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    for roi, out in zip(rois, outs):
        assert from_device(acl, out["data"], out["size"]) == _single(acl, channel, stream, cfg, src_fields, roi,
                                                                     out["width"], out["height"])
    with pytest.raises(TypeError, match="argument 3 is not list"):
        acl.media.dvpp_vpc_batch_crop_resize_async(channel, src, (2,), dst, rois, cfg, stream)
    assert acl.media.dvpp_vpc_batch_crop_resize_async(channel, src, [3], dst, rois, cfg, stream) == 100000


def test_batch_crop_resize_paste_writes_into_the_paste_box_only(vpc):
    acl, channel, stream, cfg = vpc
    src_fields, _ = _picture(acl, seed=1)
    roi = acl.media.dvpp_create_roi_config(0, 31, 0, 23)
    paste = acl.media.dvpp_create_roi_config(16, 47, 8, 31)  # 32 x 24 at (16, 8)
    out = _output(acl, W, H)
    src, dst = _batches(acl, src_fields, [out])
    with pytest.raises(TypeError, match="argument 6 is not list"):
        acl.media.dvpp_vpc_batch_crop_resize_paste_async(channel, src, [1], dst, [roi], paste, cfg, stream)
    assert acl.media.dvpp_vpc_batch_crop_resize_paste_async(channel, src, [1], dst, [roi], [paste], cfg, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    y = np.frombuffer(from_device(acl, out["data"], out["size"]), np.uint8)[:W * H].reshape(H, W)
    crop = np.frombuffer(_single(acl, channel, stream, cfg, src_fields, roi, 32, 24), np.uint8)[:32 * 24]
    assert np.array_equal(y[8:32, 16:48], crop.reshape(24, 32))
    assert (y[:8] == 0x55).all() and (y[:, :16] == 0x55).all()  # untouched outside the paste ROI


def test_make_border_is_not_on_the_310_and_pads_on_the_310p(vpc):
    acl, channel, stream, cfg = vpc
    src_fields, _ = _picture(acl, seed=2)
    roi = acl.media.dvpp_create_roi_config(0, 31, 0, 23)
    border = acl.media.dvpp_create_border_config()
    for edge, value in (("top", 8), ("bottom", 8), ("left", 16), ("right", 16)):
        assert getattr(acl.media, f"dvpp_set_border_config_{edge}")(border, value) == 0
    for i, value in enumerate((16.0, 128.0, 200.0)):
        assert acl.media.dvpp_set_border_config_value(border, i, value) == 0
    out = _output(acl, W, H)
    src, dst = _batches(acl, src_fields, [out])
    args = (channel, src, [1], dst, [roi], [border], cfg, stream)
    with pytest.raises(TypeError, match="the sixth argument is not list"):
        acl.media.dvpp_vpc_batch_crop_resize_make_border_async(*args[:5], border, *args[6:])
    assert acl.media.dvpp_vpc_batch_crop_resize_make_border_async(*args) == 200006  # Ascend310
    sim.configure(soc_name="Ascend310P3")
    try:
        assert acl.media.dvpp_vpc_batch_crop_resize_make_border_async(*args) == 0
        assert acl.rt.synchronize_stream(stream) == 0
        buf = np.frombuffer(from_device(acl, out["data"], out["size"]), np.uint8)
        y, uv = buf[:W * H].reshape(H, W), buf[W * H:].reshape(H // 2, W)
        inner = np.frombuffer(_single(acl, channel, stream, cfg, src_fields, roi, 32, 32), np.uint8)
        assert np.array_equal(y[8:40, 16:48], inner[:32 * 32].reshape(32, 32))
        assert (y[:8] == 16).all() and (y[40:] == 16).all() and (y[:, :16] == 16).all()
        assert (uv[:4, 0::2] == 128).all() and (uv[:4, 1::2] == 200).all()
        assert acl.media.dvpp_set_border_config_border_type(border, 1) == 0  # replicate
        assert acl.media.dvpp_vpc_batch_crop_resize_make_border_async(*args) == 0
        assert acl.rt.synchronize_stream(stream) == 0
        y = np.frombuffer(from_device(acl, out["data"], out["size"]), np.uint8)[:W * H].reshape(H, W)
        assert (y[:8, 16:48] == y[8, 16:48]).all() and (y[8:40, :16] == y[8:40, 16:17]).all()
    finally:
        sim.configure(soc_name="Ascend310")


def test_pyr_down_halves_the_luma_on_the_310p(vpc):
    acl, channel, stream, cfg = vpc
    src_fields, data = _picture(acl, seed=3)
    src = _set(acl, acl.media.dvpp_create_pic_desc(), src_fields)
    out = dict(_output(acl, W // 2, H // 2), format=D.PIXEL_FORMAT_YUV_400)
    dst = _set(acl, acl.media.dvpp_create_pic_desc(), out)
    assert acl.media.dvpp_vpc_pyr_down_async(channel, src, dst, 0, stream) == 200006  # Ascend310
    sim.configure(soc_name="Ascend310P3")
    try:
        assert acl.media.dvpp_vpc_pyr_down_async(channel, src, dst, 0, stream) == 0
        assert acl.rt.synchronize_stream(stream) == 0
        got = np.frombuffer(from_device(acl, out["data"], (W // 2) * (H // 2)), np.uint8).reshape(H // 2, W // 2)
        y = np.frombuffer(data, np.uint8)[:W * H].reshape(H, W).astype(np.float64)
        k = np.array([1, 4, 6, 4, 1]) / 16
        p = np.pad(y, 2, mode="reflect")
        want = sum(k[i] * k[j] * p[i:i + H, j:j + W] for i in range(5) for j in range(5))[::2, ::2]
        assert np.abs(got.astype(int) - np.rint(want)).max() <= 1
        assert acl.media.dvpp_vpc_pyr_down_async(channel, src, dst, 1, stream) == 100000  # reserve must be NULL
    finally:
        sim.configure(soc_name="Ascend310")


def test_border_config_and_channel_param_round_trip(ready):
    acl = ready
    cfg = acl.media.dvpp_create_border_config()
    assert acl.media.dvpp_set_border_config_value(cfg, 3, np.float32(2.5)) == 0
    assert acl.media.dvpp_get_border_config_value(cfg, 3) == 2.5
    assert acl.media.dvpp_set_border_config_value(cfg, 4, 1.0) == 100000
    assert acl.media.dvpp_get_border_config_value(cfg, 4) == 0.0
    with pytest.raises(TypeError, match="args parse failed"):
        acl.media.dvpp_set_border_config_value(cfg, 0, "grey")
    assert acl.media.dvpp_set_border_config_border_type(cfg, 3) == 0
    assert acl.media.dvpp_get_border_config_border_type(cfg) == 3
    assert acl.media.dvpp_set_border_config_border_type(cfg, 9) == 100000
    for edge in ("top", "bottom", "left", "right"):
        assert getattr(acl.media, f"dvpp_set_border_config_{edge}")(cfg, 6) == 0
        assert getattr(acl.media, f"dvpp_get_border_config_{edge}")(cfg) == 6
    assert acl.media.dvpp_destroy_border_config(cfg) == 0
    assert acl.media.dvpp_get_border_config_top(cfg) == 0
    channel = acl.media.dvpp_create_channel_desc()
    assert acl.media.dvpp_set_channel_desc_param(channel, 0, 3) == (channel, 0)
    assert acl.media.dvpp_get_channel_desc_param(channel, 0) == (4, 3, 0)
    assert acl.media.dvpp_get_channel_desc_param(channel, 1) == (0, 0, 100000)
    assert acl.media.dvpp_destroy_channel_desc(channel) == 0
