"""PNG header functions (dvpp_png_get_image_info, dvpp_png_predict_dec_size) on PNGs written by Pillow."""
import io

import numpy as np
from PIL import Image

from acl_teach import models
from acl_teach.spec import dvpp as D


def _png(mode, size, **kwargs):
    buf = io.BytesIO()
    Image.new(mode, size, **kwargs).save(buf, "PNG")
    return buf.getvalue()


def _info(acl, data):
    return acl.media.dvpp_png_get_image_info(acl.util.bytes_to_ptr(data), len(data))


def _predict(acl, data, fmt):
    return acl.media.dvpp_png_predict_dec_size(acl.util.bytes_to_ptr(data), len(data), fmt)


def test_image_info_reads_size_and_components_from_the_header(ready):
    acl = ready
    with open(models.image("coffee.png"), "rb") as fh:
        coffee = fh.read()
    with Image.open(models.image("coffee.png")) as im:
        w, h, bands = im.size[0], im.size[1], len(im.getbands())
    assert _info(acl, coffee) == (w, h, bands, 0)
    assert _info(acl, _png("L", (40, 33))) == (40, 33, 1, 0)
    assert _info(acl, _png("LA", (40, 33))) == (40, 33, 2, 0)
    assert _info(acl, _png("RGB", (40, 33))) == (40, 33, 3, 0)
    assert _info(acl, _png("RGBA", (40, 33))) == (40, 33, 4, 0)
    assert _info(acl, _png("P", (40, 33)))[3] == 100027  # palette
    assert _info(acl, b"\x89PNG" + bytes(40))[3] == 100000  # not the signature
    assert _info(acl, _png("RGB", (40, 33))[:29])[3] == 100000  # 29 bytes or fewer


def test_predict_dec_size_aligns_width_to_128_and_height_to_16(ready):
    acl = ready
    rgb = _png("RGB", (200, 100))
    assert _predict(acl, rgb, D.PIXEL_FORMAT_RGB_888) == (256 * 3 * 112, 0)
    assert _predict(acl, rgb, D.PIXEL_FORMAT_RGBA_8888) == (256 * 4 * 112, 0)
    assert _predict(acl, rgb, D.PIXEL_FORMAT_UNKNOWN) == (256 * 4 * 112, 0)
    assert _predict(acl, rgb, D.PIXEL_FORMAT_YUV_SEMIPLANAR_420) == (0, 100027)
    deep = io.BytesIO()
    Image.fromarray(np.zeros((40, 40), np.uint16) + 500).save(deep, "PNG")  # 16-bit grey
    assert _predict(acl, deep.getvalue(), D.PIXEL_FORMAT_RGB_888) == (128 * 6 * 48, 0)
    assert _predict(acl, _png("RGB", (31, 100)), D.PIXEL_FORMAT_RGB_888) == (0, 100000)
    assert _predict(acl, _png("RGB", (4097, 40)), D.PIXEL_FORMAT_RGB_888) == (0, 100000)


# --- dvpp_png_decode_async: a sample-style PNGD program ----------------------------------------------------
class Pngd:
    """A stream and a DVPP channel; decode() runs one PNG through PNGD as the samples do."""

    def __init__(self, acl):
        self.acl = acl
        self.stream, ret = acl.rt.create_stream()
        assert ret == 0
        self.channel = acl.media.dvpp_create_channel_desc()
        assert acl.media.dvpp_create_channel(self.channel) == 0
        self.mems = []

    def to_dvpp(self, raw):
        ptr, ret = self.acl.media.dvpp_malloc(len(raw))
        assert ret == 0
        self.mems.append(ptr)
        assert self.acl.rt.memcpy(ptr, len(raw), self.acl.util.bytes_to_ptr(raw), len(raw), 1) == 0
        return ptr

    def decode(self, raw, fmt, size=None, data=None):
        """(queue ret, sync ret, desc fields, output bytes) of one decode into a predict_dec_size buffer."""
        acl = self.acl
        if size is None:
            size, ret = acl.media.dvpp_png_predict_dec_size(acl.util.bytes_to_ptr(raw), len(raw),
                                                            D.PIXEL_FORMAT_RGB_888 if fmt == D.PIXEL_FORMAT_RGB_888
                                                            else D.PIXEL_FORMAT_RGBA_8888)
            assert ret == 0
        out, ret = acl.media.dvpp_malloc(size)
        assert ret == 0
        self.mems.append(out)
        desc = acl.media.dvpp_create_pic_desc()
        assert acl.media.dvpp_set_pic_desc_data(desc, out) == 0
        assert acl.media.dvpp_set_pic_desc_size(desc, size) == 0
        assert acl.media.dvpp_set_pic_desc_format(desc, fmt) == 0
        queued = acl.media.dvpp_png_decode_async(self.channel, self.to_dvpp(raw) if data is None else data, len(raw),
                                                 desc, self.stream)
        synced = acl.rt.synchronize_stream(self.stream) if queued == 0 else None
        fields = {name: getattr(acl.media, f"dvpp_get_pic_desc_{name}")(desc)
                  for name in ("format", "width", "height", "width_stride", "height_stride", "ret_code")}
        host, ret = acl.rt.malloc_host(size)
        assert ret == 0
        assert acl.rt.memcpy(host, size, out, size, 2) == 0
        pixels = acl.util.ptr_to_bytes(host, size)
        assert acl.rt.free_host(host) == 0 and acl.media.dvpp_destroy_pic_desc(desc) == 0
        return queued, synced, fields, pixels

    def close(self):
        for ptr in self.mems:
            assert self.acl.media.dvpp_free(ptr) == 0
        assert self.acl.media.dvpp_destroy_channel(self.channel) == 0
        assert self.acl.media.dvpp_destroy_channel_desc(self.channel) == 0
        assert self.acl.rt.destroy_stream(self.stream) == 0


def _rows(pixels, fields, channels):
    """The visible h x w x channels picture inside the strided output."""
    ws, hs, w, h = fields["width_stride"], fields["height_stride"], fields["width"], fields["height"]
    return np.frombuffer(pixels[:ws * hs], np.uint8).reshape(hs, ws)[:h, :w * channels].reshape(h, w, channels)


def test_png_decode_writes_rgb888_rows_equal_to_pillow_and_fills_the_desc(ready):
    pngd = Pngd(ready)
    with open(models.image("coffee.png"), "rb") as fh:
        coffee = fh.read()
    with Image.open(models.image("coffee.png")) as im:
        want = np.asarray(im.convert("RGB"))
    queued, synced, fields, pixels = pngd.decode(coffee, D.PIXEL_FORMAT_RGB_888)
    h, w = want.shape[:2]
    assert (queued, synced) == (0, 0)
    assert fields == {"format": D.PIXEL_FORMAT_RGB_888, "width": w, "height": h, "ret_code": 0,
                      "width_stride": D.align_up(w, 128) * 3, "height_stride": D.align_up(h, 16)}
    assert np.array_equal(_rows(pixels, fields, 3), want)
    pngd.close()


def test_unknown_keeps_the_source_format_and_rgb888_drops_alpha(ready):
    pngd = Pngd(ready)
    rng = np.random.default_rng(7)
    rgba = rng.integers(0, 256, (37, 50, 4), np.uint8)
    raw = io.BytesIO()
    Image.fromarray(rgba, "RGBA").save(raw, "PNG")
    _, synced, fields, pixels = pngd.decode(raw.getvalue(), D.PIXEL_FORMAT_UNKNOWN)
    assert synced == 0 and fields["format"] == D.PIXEL_FORMAT_RGBA_8888 and fields["width_stride"] == 128 * 4
    assert np.array_equal(_rows(pixels, fields, 4), rgba)
    _, synced, fields, pixels = pngd.decode(raw.getvalue(), D.PIXEL_FORMAT_RGB_888)
    assert synced == 0 and fields["format"] == D.PIXEL_FORMAT_RGB_888 and fields["width_stride"] == 128 * 3
    assert np.array_equal(_rows(pixels, fields, 3), rgba[..., :3])
    grey = rng.integers(0, 256, (40, 33), np.uint8)
    raw = io.BytesIO()
    Image.fromarray(grey, "L").save(raw, "PNG")
    _, synced, fields, pixels = pngd.decode(raw.getvalue(), D.PIXEL_FORMAT_UNKNOWN)
    assert synced == 0 and fields["format"] == D.PIXEL_FORMAT_RGB_888
    assert np.array_equal(_rows(pixels, fields, 3), np.repeat(grey[..., None], 3, axis=2))
    pngd.close()


def test_png_decode_host_checks_return_acls_codes(ready):
    acl = ready
    pngd = Pngd(acl)
    raw = _png("RGB", (40, 33))
    assert pngd.decode(raw, D.PIXEL_FORMAT_RGBA_8888, size=128 * 4 * 48)[0] == 100027  # predict takes it, decode not
    assert pngd.decode(raw, D.PIXEL_FORMAT_YUV_SEMIPLANAR_420, size=128 * 3 * 48)[0] == 100027
    assert pngd.decode(raw, D.PIXEL_FORMAT_RGB_888, data=0)[0] == 100000
    desc = acl.media.dvpp_create_pic_desc()
    assert acl.media.dvpp_set_pic_desc_format(desc, D.PIXEL_FORMAT_RGB_888) == 0
    data = pngd.to_dvpp(raw)
    assert acl.media.dvpp_png_decode_async(pngd.channel, data, 0, desc, pngd.stream) == 100000  # size 0
    assert acl.media.dvpp_png_decode_async(pngd.channel, data, len(raw), 0, pngd.stream) == 100000  # no desc
    unopened = acl.media.dvpp_create_channel_desc()
    assert acl.media.dvpp_png_decode_async(unopened, data, len(raw), desc, pngd.stream) == 100000
    assert acl.media.dvpp_destroy_channel_desc(unopened) == 0 and acl.media.dvpp_destroy_pic_desc(desc) == 0
    pngd.close()


def test_png_decode_device_faults_fail_the_stream_and_set_ret_code(ready, capsys):
    acl = ready
    pngd = Pngd(acl)
    palette = _png("P", (40, 33))
    queued, synced, fields, _ = pngd.decode(palette, D.PIXEL_FORMAT_RGB_888, size=128 * 3 * 48)
    assert (queued, synced, fields["ret_code"]) == (0, 507018, 507018)
    small = pngd.decode(_png("RGB", (40, 33)), D.PIXEL_FORMAT_RGB_888, size=100)
    assert small[0] == 0 and small[1] == 507018 and small[2]["ret_code"] == 507018
    tiny = pngd.decode(_png("RGB", (31, 40)), D.PIXEL_FORMAT_RGB_888, size=128 * 3 * 48)
    assert tiny[1] == 507018
    truncated = pngd.decode(_png("RGB", (40, 33))[:60], D.PIXEL_FORMAT_RGB_888, size=128 * 3 * 48)
    assert truncated[:2] == (0, 507018) and truncated[2]["ret_code"] == 507018
    err = capsys.readouterr().err
    assert "PNGD: the PNG could not be decoded (OSError: image file is truncated)" in err and "palette" in err
    raw = _png("RGB", (40, 33))
    host = acl.util.bytes_to_ptr(raw)  # PNGD reads DVPP memory
    assert pngd.decode(raw, D.PIXEL_FORMAT_RGB_888, data=host)[1] == 507018
    assert pngd.decode(raw, D.PIXEL_FORMAT_RGB_888)[1] == 0  # the stream goes on after a failed task
    pngd.close()


def test_png_decode_is_a_pngd_slice_on_the_stream(ready, tmp_path):
    import glob
    import json
    from acl_teach.spec import prof as P
    acl = ready
    assert acl.prof.init(str(tmp_path)) == 0
    cfg = acl.prof.create_config([0], P.ACL_AICORE_NONE, 0, P.ACL_PROF_ACL_API | P.ACL_PROF_TASK_TIME)
    assert acl.prof.start(cfg) == 0
    pngd = Pngd(acl)
    assert pngd.decode(_png("RGB", (64, 48)), D.PIXEL_FORMAT_RGB_888)[1] == 0
    pngd.close()
    assert acl.prof.stop(cfg) == 0 and acl.prof.destroy_config(cfg) == 0 and acl.prof.finalize() == 0
    with open(glob.glob(str(tmp_path / "PROF_*_sim" / "trace_view.json"))[0], encoding="utf-8") as fh:
        events = [e for e in json.load(fh)["traceEvents"] if e.get("cat") == "pngd"]
    assert len(events) == 1 and events[0]["name"].startswith("dvpp_png_decode") and events[0]["dur"] > 0
