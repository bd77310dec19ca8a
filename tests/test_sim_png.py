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

