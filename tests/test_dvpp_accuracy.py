"""JPEGD and VPC pixel accuracy, per pixel, through the raw pyACL calls (issue #11).

Bound (the issue's Done-when): the decoded Y plane equals the luma of Pillow's YCbCr decode of the same
file within +-1 per pixel, the UV plane its chroma within +-2 after averaging over each chroma block
(2x2 for YUV420SP). "Pillow's YCbCr decode" is libjpeg's own YCbCr output (``draft("YCbCr")``); the
RGB decode then ``convert("YCbCr")`` cannot meet +-1 because libjpeg clips out-of-gamut pixels to
0..255 before the conversion back (measured up to 20 on coffee.png), so that independent route is
checked only where no channel clipped.
"""
import io
import os
from functools import lru_cache

import numpy as np
import pytest
from PIL import Image
from test_sim_dvpp import Dvpp

from acl_teach.sim.media.dvpp import jpeg as dvpp_jpeg
from acl_teach.spec.dvpp import align_up

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NV12, NV21, YUV422SP, YVU444SP = 1, 2, 3, 6
SENTINEL = 0xA5  # what the output buffer holds before the decode
IMAGES = ("coffee.png", "chelsea.png", "rocket.jpg")
SIZES = (None, (301, 199), (33, 35))  # shipped size, odd width and height, near JPEGD's 32x32 minimum
SAMPLING = {"4:4:4": 0, "4:2:2": 1, "4:2:0": 2}
QUALITY = 90
CHROMA_STEP = {NV12: (2, 2), NV21: (2, 2), YUV422SP: (2, 1), YVU444SP: (1, 1)}  # (x, y) per output format


@lru_cache(maxsize=None)
def photo_jpeg(name, size=None, sampling="4:2:0", mode="RGB"):
    """A shipped photo (optionally resized) saved as a baseline JPEG at QUALITY with this chroma sampling."""
    im = Image.open(os.path.join(ROOT, "data", "images", name)).convert(mode)
    if size:
        im = im.resize(size, Image.BILINEAR)
    buf = io.BytesIO()
    im.save(buf, "JPEG", quality=QUALITY, **({} if mode == "L" else {"subsampling": SAMPLING[sampling]}))
    return buf.getvalue()


# --- a baseline JPEG with any sampling factors: flat 8x8 blocks (DC only), for 4:4:0 and 4:1:1 -------------
_DC_CODE = ["00", "010", "011", "100", "101", "110", "1110", "11110", "111110", "1111110", "11111110",
            "111111110"]  # JPEG Annex K.3 luminance DC table, by magnitude category
_DC_BITS = bytes([0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0])


def _segment(marker, body):
    return bytes([0xFF, marker]) + (len(body) + 2).to_bytes(2, "big") + body


def _entropy(levels, factors, mcux, mcuy):
    """Huffman-coded MCUs: each block's DC difference, then EOB (the AC table's only code, '0')."""
    bits, pred = [], [0] * len(factors)
    for my in range(mcuy):
        for mx in range(mcux):
            for c, (hf, vf) in enumerate(factors):
                for by in range(vf):
                    for bx in range(hf):
                        dc = 8 * (int(levels[c][my * vf + by, mx * hf + bx]) - 128)  # block mean = DC/8 + 128
                        diff, pred[c] = dc - pred[c], dc
                        cat = abs(diff).bit_length()
                        bits.append(_DC_CODE[cat] + (format(diff if diff > 0 else diff + (1 << cat) - 1,
                                                            f"0{cat}b") if cat else "") + "0")
    s = "".join(bits)
    s += "1" * (-len(s) % 8)
    raw = int(s, 2).to_bytes(len(s) // 8, "big") if s else b""
    return raw.replace(b"\xff", b"\xff\x00")


def blocky_jpeg(width, height, factors, seed=0):
    """A valid baseline JPEG of 3 components with these (H, V) sampling factors; every 8x8 block flat."""
    hmax, vmax = max(f[0] for f in factors), max(f[1] for f in factors)
    mcux, mcuy = -(-width // (8 * hmax)), -(-height // (8 * vmax))
    rng = np.random.default_rng(seed)
    levels = [rng.integers(40, 216, (mcuy * vf, mcux * hf)) for hf, vf in factors]
    sof = bytes([8]) + height.to_bytes(2, "big") + width.to_bytes(2, "big") + bytes([len(factors)]) + \
        b"".join(bytes([c + 1, hf << 4 | vf, 0]) for c, (hf, vf) in enumerate(factors))
    dht = bytes([0x00]) + _DC_BITS + bytes(range(12)) + bytes([0x10, 1] + [0] * 15 + [0x00])
    sos = bytes([len(factors)]) + b"".join(bytes([c + 1, 0]) for c in range(len(factors))) + bytes([0, 63, 0])
    return (b"\xff\xd8" + _segment(0xDB, bytes([0]) + bytes([1] * 64)) + _segment(0xC0, sof) +
            _segment(0xC4, dht) + _segment(0xDA, sos) + _entropy(levels, factors, mcux, mcuy) + b"\xff\xd9")


# --- the raw pyACL decode and an independent reader -------------------------------------------------------
def decode(acl, dvpp, raw, fmt):
    """get_image_info -> predict_dec_size -> dvpp_malloc (filled with SENTINEL) -> decode -> sync -> D2H copy."""
    media = acl.media
    host = acl.util.bytes_to_ptr(raw)
    w, h, _, ret = media.dvpp_jpeg_get_image_info(host, len(raw))
    assert ret == 0
    size, ret = media.dvpp_jpeg_predict_dec_size(host, len(raw), fmt)
    assert ret == 0
    ws, hs = align_up(w, 128), align_up(h, 16)
    out = dvpp.desc(w, h, ws, hs, fmt, size)
    data = media.dvpp_get_pic_desc_data(out)
    assert acl.rt.memset(data, size, SENTINEL, size) == 0
    jpeg = dvpp.to_dvpp(raw)
    assert media.dvpp_jpeg_decode_async(dvpp.ch, jpeg, len(raw), out, dvpp.stream) == 0
    assert dvpp.sync() == 0 and media.dvpp_get_pic_desc_ret_code(out) == 0
    buf = dvpp.read(out)
    for ptr in (data, jpeg):
        assert media.dvpp_free(ptr) == 0
    assert media.dvpp_destroy_pic_desc(out) == 0
    return buf, w, h, ws, hs


def semiplanar(buf, fmt, w, h, ws, hs):
    """(Y, U, V, Y padding, UV padding) of a strided semi-planar buffer, read with numpy only."""
    sx, sy = CHROMA_STEP[fmt]
    cw, ch = -(-w // sx), -(-h // sy)
    yplane = buf[:ws * hs].reshape(hs, ws)
    row = ws * 2 // sx
    uvplane = buf[ws * hs:ws * hs + row * (hs // sy)].reshape(hs // sy, row)
    uv = uvplane[:ch, :2 * cw].reshape(ch, cw, 2).astype(int)
    u, v = (uv[..., 1], uv[..., 0]) if fmt in (NV21, YVU444SP) else (uv[..., 0], uv[..., 1])
    ypad = np.concatenate([yplane[:h, w:].ravel(), yplane[h:].ravel()])
    uvpad = np.concatenate([uvplane[:ch, 2 * cw:].ravel(), uvplane[ch:].ravel()])
    return yplane[:h, :w].astype(int), u, v, ypad, uvpad


def pillow_ycbcr(raw):
    """Pillow's YCbCr decode: libjpeg's own Y, Cb, Cr (chroma upsampled by libjpeg), as floats."""
    im = Image.open(io.BytesIO(raw))
    if im.mode == "L":
        return np.asarray(im, float)[..., None]
    im.draft("YCbCr", None)
    assert im.mode == "YCbCr"
    return np.asarray(im, float)


def block_mean(plane, sx, sy, valid=None):
    """Mean over each sx x sy block of the pixels that exist (edge blocks of odd sizes are smaller);
    with ``valid``, blocks holding an invalid pixel are NaN."""
    h, w = plane.shape
    ph, pw = -(-h // sy) * sy, -(-w // sx) * sx
    p = np.full((ph, pw), np.nan)
    p[:h, :w] = plane
    blocks = p.reshape(ph // sy, sy, pw // sx, sx)
    mean = np.nanmean(blocks, axis=(1, 3))
    if valid is not None:
        ok = np.zeros((ph, pw), bool)
        ok[:h, :w] = valid
        mean[~ok.reshape(ph // sy, sy, pw // sx, sx).all(axis=(1, 3))] = np.nan
    return mean


def deltas(raw, planes, fmt):
    """(max |dY|, max |dUV|) of decoded planes against Pillow's YCbCr decode, chroma block-averaged."""
    y, u, v = planes
    ref = pillow_ycbcr(raw)
    sx, sy = CHROMA_STEP[fmt]
    dy = np.abs(y - ref[..., 0]).max()
    if ref.shape[2] == 1:
        return dy, max(np.abs(u - 128).max(), np.abs(v - 128).max())
    return dy, max(np.abs(u - block_mean(ref[..., 1], sx, sy)).max(), np.abs(v - block_mean(ref[..., 2], sx, sy)).max())


@pytest.fixture
def dvpp(ready):
    return Dvpp(ready)


@pytest.mark.parametrize("fmt", [NV12, NV21])
@pytest.mark.parametrize("sampling", list(SAMPLING))
@pytest.mark.parametrize("size", SIZES, ids=lambda s: "shipped" if s is None else f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", IMAGES)
def test_decode_is_pillows_ycbcr_per_pixel(ready, dvpp, name, size, sampling, fmt):
    """max |dY| <= 1 on every pixel, max |dUV| <= 2 against Cb/Cr averaged 2x2; padding untouched."""
    raw = photo_jpeg(name, size, sampling)
    buf, w, h, ws, hs = decode(ready, dvpp, raw, fmt)
    y, u, v, ypad, uvpad = semiplanar(buf, fmt, w, h, ws, hs)
    dy, duv = deltas(raw, (y, u, v), fmt)
    assert dy <= 1 and duv <= 2, (name, size, sampling, dy, duv)
    assert buf.size == ws * hs * 3 // 2
    assert (ypad == SENTINEL).all() and (uvpad == SENTINEL).all()  # the simulator's choice (UNCONFIRMED)


@pytest.mark.parametrize("name", IMAGES)
def test_decode_matches_the_rgb_round_trip_where_nothing_clipped(ready, dvpp, name):
    """Independent of libjpeg's YCbCr path: Pillow's RGB decode and its own RGB->YCbCr, on unclipped pixels."""
    raw = photo_jpeg(name)
    buf, w, h, ws, hs = decode(ready, dvpp, raw, NV12)
    y, u, v, _, _ = semiplanar(buf, NV12, w, h, ws, hs)
    rgb = Image.open(io.BytesIO(raw)).convert("RGB")
    ycc = np.asarray(rgb.convert("YCbCr"), float)
    valid = ((np.asarray(rgb) > 0) & (np.asarray(rgb) < 255)).all(axis=2)
    assert valid.mean() > 0.9
    assert np.abs(y - ycc[..., 0])[valid].max() <= 1
    for got, ref in ((u, ycc[..., 1]), (v, ycc[..., 2])):
        mean = block_mean(ref, 2, 2, valid)
        assert np.nanmax(np.abs(got - mean)) <= 2


@pytest.mark.parametrize("fmt", [NV12, NV21])
def test_uv_byte_order_nv12_u_first_nv21_v_first(ready, dvpp, fmt):
    """A red picture: Cr (V) high, Cb (U) low; NV12 stores U then V, NV21 V then U."""
    im = Image.new("RGB", (64, 48), (200, 30, 0))  # Cb about 84, Cr about 215
    out = io.BytesIO()
    im.save(out, "JPEG", quality=QUALITY)
    buf, _, _, ws, hs = decode(ready, dvpp, out.getvalue(), fmt)
    first, second = buf[ws * hs], buf[ws * hs + 1]
    low, high = (first, second) if fmt == NV12 else (second, first)
    assert low < 110 and high > 190, (first, second)


@pytest.mark.parametrize("fmt", [NV12, NV21])
@pytest.mark.parametrize("size", [None, (301, 199)], ids=["shipped", "301x199"])
def test_grey_jpeg_decodes_to_its_luma_and_uv_0x80(ready, dvpp, size, fmt):
    raw = photo_jpeg("chelsea.png", size, mode="L")
    buf, w, h, ws, hs = decode(ready, dvpp, raw, fmt)
    y, u, v, ypad, uvpad = semiplanar(buf, fmt, w, h, ws, hs)
    assert np.abs(y - pillow_ycbcr(raw)[..., 0]).max() <= 1
    assert (u == 0x80).all() and (v == 0x80).all()
    assert (ypad == SENTINEL).all() and (uvpad == SENTINEL).all()


@pytest.mark.parametrize("sampling, fmt", [("4:2:2", YUV422SP), ("4:4:4", YVU444SP)])
def test_native_422sp_and_444sp_outputs(ready, dvpp, sampling, fmt):
    """jpeg(422) -> YUV422SP (chroma averaged 2x1) and jpeg(444) -> YVU444SP (chroma kept), 128/16 strides."""
    raw = photo_jpeg("rocket.jpg", (301, 199), sampling)
    buf, w, h, ws, hs = decode(ready, dvpp, raw, fmt)
    assert buf.size == ws * hs * (2 if fmt == YUV422SP else 3)
    y, u, v, ypad, uvpad = semiplanar(buf, fmt, w, h, ws, hs)
    dy, duv = deltas(raw, (y, u, v), fmt)
    assert dy <= 1 and duv <= 2
    assert (ypad == SENTINEL).all() and (uvpad == SENTINEL).all()


def test_440_jpeg_decodes_to_nv12(ready, dvpp):
    """4:4:0 (chroma halved vertically) is a JPEGD input [DOC-JPEGD]; into NV12 (440 -> NV12: UNCONFIRMED pair)."""
    raw = blocky_jpeg(66, 50, [(1, 2), (1, 1), (1, 1)])
    assert ready.media.dvpp_jpeg_get_image_info_v2(ready.util.bytes_to_ptr(raw), len(raw)) == (66, 50, 3, 4, 0)
    buf, w, h, ws, hs = decode(ready, dvpp, raw, NV12)
    y, u, v, _, _ = semiplanar(buf, NV12, w, h, ws, hs)
    dy, duv = deltas(raw, (y, u, v), NV12)
    assert dy <= 1 and duv <= 2
    assert y.std() > 10 and u.std() > 10  # the blocks really differ: not a flat picture


def test_padding_value_is_labelled_a_simulator_choice():
    """What the tests above pin (padding keeps the buffer's bytes) is documented as the simulator's choice."""
    paragraph = next(p for p in dvpp_jpeg.__doc__.split("\n\n") if "padding bytes" in p)
    assert "keep what the buffer held" in paragraph and "UNCONFIRMED" in paragraph


# --- VPC resize on a tiny picture ------------------------------------------------------------------------
def tent_weights(n_in, n_out):
    """Pillow's BILINEAR as documented: a triangle filter on pixel centres (+0.5), widened by the downscale factor."""
    scale = n_in / n_out
    support = max(scale, 1.0)
    weights = np.zeros((n_out, n_in))
    for i in range(n_out):
        centre = (i + 0.5) * scale
        j = np.arange(max(int(centre - support + 0.5), 0), min(int(centre + support + 0.5), n_in))
        w = np.clip(1 - np.abs((j + 0.5 - centre) / support), 0, None)
        weights[i, j] = w / w.sum()
    return weights


def vpc_stride(width):
    """A VPC widthStride: ALIGN_UP(w, 16), at least 32 (acl_dvpp.h's minimum)."""
    return max(align_up(width, 16), 32)


def tent_resize(plane, width, height):
    return tent_weights(plane.shape[0], height) @ plane @ tent_weights(plane.shape[1], width).T


@pytest.mark.parametrize("src, dst", [((15, 11), (28, 20)), ((32, 24), (12, 8)), ((20, 12), (20, 12))],
                         ids=["odd-up", "down", "same"])
def test_vpc_resize_of_a_tiny_picture_is_a_tent_filter_within_1(ready, dvpp, src, dst):
    """Reference: the triangle filter in float numpy, per plane, after the 310 aligns odd sizes down (15x11 ->
    14x10). Bound 1: Pillow resamples in 8-bit fixed point, rounding once after each of its two passes."""
    acl = ready
    (w, h), (ow, oh) = src, dst
    ws, hs = vpc_stride(w), align_up(h, 2)
    pixels = np.random.default_rng(3).integers(0, 256, ws * hs * 3 // 2, dtype=np.uint8)
    src_desc = dvpp.desc(w, h, ws, hs)
    assert acl.rt.memcpy(acl.media.dvpp_get_pic_desc_data(src_desc), pixels.size, acl.util.numpy_to_ptr(pixels),
                         pixels.size, 1) == 0
    out = dvpp.desc(ow, oh, vpc_stride(ow), align_up(oh, 2))
    cfg = acl.media.dvpp_create_resize_config()
    assert acl.media.dvpp_vpc_resize_async(dvpp.ch, src_desc, out, cfg, dvpp.stream) == 0
    assert dvpp.sync() == 0 and acl.media.dvpp_get_pic_desc_ret_code(out) == 0
    y, u, v, _, _ = semiplanar(dvpp.read(out), NV12, ow, oh, vpc_stride(ow), align_up(oh, 2))
    ew, eh = w & ~1, h & ~1
    sy_, su, sv, _, _ = semiplanar(pixels, NV12, ew, eh, ws, hs)
    assert np.abs(y - tent_resize(sy_.astype(float), ow, oh)).max() <= 1
    for got, ref in ((u, su), (v, sv)):
        assert np.abs(got - tent_resize(ref.astype(float), ow // 2, oh // 2)).max() <= 1
