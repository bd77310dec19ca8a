"""VPC resize to an odd NV12 size (the deeplabv3_postprocess_optimization sample's 513x513 through acllite).

Documented: YUV420SP output width and height even; the official sample asks for 513x513 and runs on a board, so the
simulator goes on with a warning (chroma covers ceil(w/2) x ceil(h/2) pairs, UNCONFIRMED) and refuses only in
strict mode.
"""
import numpy as np
import pytest
from test_dvpp_accuracy import semiplanar, tent_resize
from test_sim_dvpp import Dvpp

from acl_teach import sim
from acl_teach.spec.dvpp import align_up

NV12 = 1
SENTINEL = 0xA5


def _source(acl, dvpp, w, h):
    """A smooth NV12 picture (gradients, so a bilinear reference is meaningful) at acllite's 16/2 strides."""
    ws, hs = align_up(w, 16), align_up(h, 2)
    yy, xx = np.mgrid[0:hs, 0:ws]
    y = (xx * 200 // ws + yy * 50 // hs).astype(np.uint8)
    uv = np.empty((hs // 2, ws), np.uint8)
    uv[:, 0::2] = (np.arange(ws // 2) * 255 // (ws // 2))[None, :]
    uv[:, 1::2] = (np.arange(hs // 2) * 255 // (hs // 2))[:, None]
    pixels = np.concatenate([y.ravel(), uv.ravel()])
    desc = dvpp.desc(w, h, ws, hs)
    assert acl.rt.memcpy(acl.media.dvpp_get_pic_desc_data(desc), pixels.size, acl.util.bytes_to_ptr(pixels.tobytes()),
                         pixels.size, 1) == 0
    return desc, pixels, ws, hs


def _output(acl, dvpp, w, h):
    """acllite's resize output: widthStride ALIGN_UP(w, 16), heightStride ALIGN_UP(h, 2), filled with a sentinel."""
    ws, hs = align_up(w, 16), align_up(h, 2)
    out = dvpp.desc(w, h, ws, hs)
    fill = np.full(ws * hs * 3 // 2, SENTINEL, np.uint8)
    assert acl.rt.memcpy(acl.media.dvpp_get_pic_desc_data(out), fill.size, acl.util.bytes_to_ptr(fill.tobytes()),
                         fill.size, 1) == 0
    return out, ws, hs


@pytest.mark.parametrize("src, dst", [((640, 360), (513, 513)), ((64, 48), (33, 27)), ((64, 48), (33, 28))],
                         ids=["deeplab-513", "odd-both", "odd-width"])
def test_odd_nv12_resize_is_accepted_with_a_warning(ready, src, dst):
    acl = ready
    dvpp = Dvpp(acl)
    in_desc, pixels, iws, ihs = _source(acl, dvpp, *src)
    (ow, oh) = dst
    out, ws, hs = _output(acl, dvpp, ow, oh)
    assert acl.media.dvpp_get_pic_desc_size(out) == ws * hs * 3 // 2
    cfg = acl.media.dvpp_create_resize_config()
    assert acl.media.dvpp_vpc_resize_async(dvpp.ch, in_desc, out, cfg, dvpp.stream) == 0
    assert dvpp.sync() == 0
    assert acl.media.dvpp_get_pic_desc_ret_code(out) == 0
    notes = [w for w in sim.warnings() if w.api == "acl.media.dvpp_vpc_resize_async"]
    assert len(notes) == 1 and f"output {ow}x{oh}" in notes[0].message and "UNCONFIRMED" in notes[0].message
    assert f"{-(-ow // 2)}x{-(-oh // 2)} chroma pairs" in notes[0].message

    buf = dvpp.read(out)
    assert buf.size == ws * hs * 3 // 2
    y, u, v, ypad, uvpad = semiplanar(buf, NV12, ow, oh, ws, hs)
    assert y.shape == (oh, ow) and u.shape == v.shape == (-(-oh // 2), -(-ow // 2))
    assert (ypad == SENTINEL).all() and (uvpad == SENTINEL).all()  # only the picture was written
    sy_, su, sv, _, _ = semiplanar(pixels, NV12, *src, iws, ihs)
    assert np.abs(y - tent_resize(sy_.astype(float), ow, oh)).max() <= 1
    for got, ref in ((u, su), (v, sv)):
        assert np.abs(got - tent_resize(ref.astype(float), -(-ow // 2), -(-oh // 2))).max() <= 1


def test_even_output_gives_no_warning(ready):
    acl = ready
    dvpp = Dvpp(acl)
    in_desc, _, _, _ = _source(acl, dvpp, 64, 48)
    out, _, _ = _output(acl, dvpp, 32, 24)
    cfg = acl.media.dvpp_create_resize_config()
    assert acl.media.dvpp_vpc_resize_async(dvpp.ch, in_desc, out, cfg, dvpp.stream) == 0
    assert dvpp.sync() == 0 and sim.warnings() == []


def test_odd_output_in_strict_mode_fails_the_task(ready):
    acl = ready
    dvpp = Dvpp(acl)
    in_desc, _, _, _ = _source(acl, dvpp, 64, 48)
    out, _, _ = _output(acl, dvpp, 33, 27)
    cfg = acl.media.dvpp_create_resize_config()
    sim.configure(strict=True)
    try:
        assert acl.media.dvpp_vpc_resize_async(dvpp.ch, in_desc, out, cfg, dvpp.stream) == 0
        assert dvpp.sync() == 507018
    finally:
        sim.configure(strict=False)
    assert acl.media.dvpp_get_pic_desc_ret_code(out) == 507018
    assert "must be even" in acl.get_recent_err_msg()


def test_odd_output_with_too_small_a_stride_is_still_refused(ready):
    """widthStride 32 < width 33: the existing stride rule, not the odd-size warning, decides."""
    acl = ready
    dvpp = Dvpp(acl)
    in_desc, _, _, _ = _source(acl, dvpp, 64, 48)
    out = dvpp.desc(33, 27, 32, 28)
    cfg = acl.media.dvpp_create_resize_config()
    assert acl.media.dvpp_vpc_resize_async(dvpp.ch, in_desc, out, cfg, dvpp.stream) == 0
    assert dvpp.sync() == 507018 and acl.media.dvpp_get_pic_desc_ret_code(out) == 507018
    assert "widthStride 32" in acl.get_recent_err_msg() and sim.warnings() == []
