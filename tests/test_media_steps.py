"""The media steps (acl_teach.media): decode_jpeg, resize, crop, picture_dataset into the AIPP model, each a record."""
import io
import json

import numpy as np
import pytest
from PIL import Image

from acl_teach.sim import inspect as sim_inspect


def jpeg_of(name, size=None, quality=95):
    """A shipped photo as JPEG bytes (optionally resized), as a learner would have it."""
    from acl_teach import models
    img = Image.open(models.image(name)).convert("RGB")
    if size:
        img = img.resize(size)
    out = io.BytesIO()
    img.save(out, "JPEG", quality=quality)
    return out.getvalue()


@pytest.fixture
def dvpp(step_api):
    """Initialised step API, resources and an open DVPP channel; closes and checks nothing leaked."""
    at = step_api
    at.init()
    res = at.request_resources(0)
    ch = at.media.open_channel()
    yield at, res, ch
    at.media.close_channel(ch)
    at.release_resources(res)
    at.finalize()
    assert sim_inspect.leaks() == []


def read(pic):
    """The picture's bytes as the device holds them."""
    return np.frombuffer(sim_inspect.read(pic.ptr, pic.size), np.uint8)


def test_decode_jpeg_lays_out_strides_and_frees_its_source(dvpp):
    at, res, ch = dvpp
    pic = at.media.decode_jpeg(jpeg_of("coffee.png", (600, 390)), ch, res)
    assert (pic.width, pic.height, pic.width_stride, pic.height_stride, pic.size) == (600, 390, 640, 400, 384000)
    assert pic.arithmetic == "640 x 400 x 3 / 2 = 384000 bytes"
    apis = [c.api for c in pic.calls]
    assert apis[:5] == ["acl.util.bytes_to_ptr", "acl.media.dvpp_jpeg_get_image_info",
                        "acl.media.dvpp_jpeg_predict_dec_size", "acl.media.dvpp_malloc", "acl.rt.memcpy"]
    assert apis[-3:] == ["acl.media.dvpp_jpeg_decode_async", "acl.rt.synchronize_stream", "acl.media.dvpp_free"]
    assert "dvpp_set_pic_desc_width_stride(pic_desc, 640)" in pic.code()
    dvpp_blocks = [e for e in sim_inspect.live() if e.kind == "dvpp memory"]
    assert len(dvpp_blocks) == 1  # the JPEG's DVPP copy is freed, the decoded picture remains
    y = read(pic)[:640 * 400].reshape(400, 640)
    luma = np.asarray(Image.open(io.BytesIO(jpeg_of("coffee.png", (600, 390)))).convert("YCbCr"))[:, :, 0]
    assert np.abs(y[:390, :600].astype(int) - luma).mean() < 1.0
    at.media.release_picture(pic)
    assert at.media.release_picture(pic).released is False  # twice: a no-op that says so


def test_nv21_swaps_the_chroma_bytes_of_nv12(dvpp):
    at, res, ch = dvpp
    data = jpeg_of("chelsea.png", (130, 66))
    nv12 = at.media.decode_jpeg(data, ch, res, "NV12")
    nv21 = at.media.decode_jpeg(data, ch, res, "NV21")
    a, b = read(nv12), read(nv21)
    y_end = nv12.width_stride * nv12.height_stride
    assert (nv12.width_stride, nv12.height_stride) == (256, 80)
    assert np.array_equal(a[:y_end], b[:y_end])
    uv12 = a[y_end:].reshape(40, 256)[:33, :130]
    uv21 = b[y_end:].reshape(40, 256)[:33, :130]
    assert np.array_equal(uv12[:, 0::2], uv21[:, 1::2]) and np.array_equal(uv12[:, 1::2], uv21[:, 0::2])
    for p in (nv12, nv21):
        at.media.release_picture(p)
    with pytest.raises(ValueError, match="NV12"):
        at.media.decode_jpeg(data, ch, res, "RGB")


def test_resize_and_crop_use_vpc_strides(dvpp):
    at, res, ch = dvpp
    pic = at.media.decode_jpeg(jpeg_of("coffee.png", (600, 390)), ch, res)
    small = at.media.resize(pic, 100, 52, ch, res)
    assert (small.width_stride, small.height_stride, small.size) == (112, 52, 112 * 52 * 3 // 2)
    assert "dvpp_vpc_resize_async" in small.code() and "dvpp_destroy_resize_config" in small.code()
    part = at.media.crop(pic, 200, 100, 224, 224, ch, res)
    assert "dvpp_create_roi_config(200, 423, 100, 323)" in part.code()
    y = read(part)[:224 * 224].reshape(224, 224)
    src = read(pic)[:640 * 400].reshape(400, 640)[100:324, 200:424]
    assert np.abs(y.astype(int) - src).max() <= 1  # a crop at scale 1 copies the luma
    for p in (part, small, pic):
        at.media.release_picture(p)


def test_an_odd_crop_is_refused_by_dvpp_and_leaks_nothing(dvpp):
    at, res, ch = dvpp
    pic = at.media.decode_jpeg(jpeg_of("coffee.png", (600, 390)), ch, res)
    before = len(sim_inspect.live())
    with pytest.raises(at.AclError) as info:
        at.media.crop(pic, 201, 100, 224, 224, ch, res)
    assert info.value.code == 507018 and "left and top must be even" in str(info.value)
    assert len(sim_inspect.live()) == before  # the half-made output picture was released
    at.media.release_picture(pic)


def test_a_png_is_not_a_jpeg_and_leaks_nothing(dvpp):
    at, res, ch = dvpp
    from acl_teach import models
    with open(models.image("coffee.png"), "rb") as fh:
        png = fh.read()
    before = len(sim_inspect.live())
    with pytest.raises(at.AclError) as info:
        at.media.decode_jpeg(png, ch, res)
    assert info.value.code == 500001 and "PNG" in str(info.value)
    assert len(sim_inspect.live()) == before


def test_even_roi_is_the_recipes_centre_crop():
    from acl_teach import media
    from acl_teach.toolchain import recipes
    assert media.even_roi(600, 390, recipes.EFFICIENTNET_LITE_AIPP) == (130, 24, 340, 340)
    assert media.even_roi(224, 224, {"resize_exact": [224, 224], "crop": 224}) == (0, 0, 224, 224)
    for size, recipe in (((451, 301), recipes.EFFICIENTNET_LITE_AIPP), ((451, 301), recipes.IMAGENET_ONNX),
                         ((303, 451), {"resize_short": 224, "crop": 224}), ((33, 35), recipes.EFFICIENTNET_LITE)):
        left, top, w, h = media.even_roi(*size, recipe)
        assert left % 2 == top % 2 == w % 2 == h % 2 == 0, (size, recipe)
        assert left >= 0 and top >= 0 and left + w <= size[0] and top + h <= size[1], (size, recipe)
    with pytest.raises(ValueError, match="below VPC's minimum"):
        media.even_roi(11, 9, recipes.EFFICIENTNET_LITE_AIPP)


def test_dvpp_path_into_the_aipp_model_agrees_with_the_host_path(dvpp):
    at, res, ch = dvpp
    from acl_teach.toolchain import recipes
    model = at.load_model(at.models.aipp_om())
    desc = at.query_desc(model)
    assert desc.inputs[0].size == 224 * 224 * 3 // 2 and desc.inputs[0].type_name == "ACL_UINT8"
    assert recipes.resolve(None, at.models.aipp_om())["name"] == "efficientnet-lite-aipp"
    assert at.models.recipe(at.models.aipp_om())["input"] == "YUV420SP_U8"
    outs = at.build_dataset(desc, "output")
    dvpp_top = {}
    for name in ("coffee.png", "chelsea.png", "rocket.jpg"):
        pic = at.media.decode_jpeg(jpeg_of(name), ch, res)
        small = at.media.apply_recipe(pic, recipes.EFFICIENTNET_LITE_AIPP, ch, res)
        ins = at.media.picture_dataset(small, desc)
        at.execute(model, ins, outs)
        top = at.top_k(at.unpack_outputs(desc, outs, res).arrays[0], 5, at.models.labels())
        dvpp_top[name] = [p.index for p in top.top]
        at.release_dataset(ins)  # the buffer and dataset, not the DVPP memory
        assert at.media.release_picture(small).released and at.media.release_picture(pic).released
    at.release_dataset(outs)
    at.unload_model(model, desc)
    assert dvpp_top["coffee.png"][0] == 967
    with at.Session() as s:
        for name, top in dvpp_top.items():
            host = [p.index for p in s.classify(at.models.image(name)).topk.top]
            assert host[:3] == top[:3], name


def test_session_explains_that_an_aipp_model_takes_a_dvpp_picture(step_api):
    at = step_api
    with pytest.raises(ValueError, match="decode_jpeg -> apply_recipe -> picture_dataset"):
        with at.Session(at.models.aipp_om()) as s:
            s.classify(at.models.image("coffee.png"))
    assert sim_inspect.leaks() == []


def test_a_recipe_with_an_unknown_input_kind_is_refused(tmp_path):
    from acl_teach.toolchain import recipes
    path = tmp_path / "m.recipe.json"
    path.write_text(json.dumps({"name": "x", "input": "RGB_U8"}))
    with pytest.raises(recipes.RecipeError, match="YUV420SP_U8"):
        recipes.resolve(str(path), "m.om")


def test_released_records_and_bad_arguments_are_refused_before_any_call(dvpp):
    at, res, ch = dvpp
    from acl_teach.toolchain import recipes
    pic = at.media.decode_jpeg(jpeg_of("coffee.png", (320, 240)), ch, res)
    before = len(sim_inspect.live())
    with pytest.raises(ValueError, match="non-negative whole number"):
        at.media.resize(pic, 224.0, 224, ch, res)
    with pytest.raises(ValueError, match="non-negative whole number"):
        at.media.crop(pic, -2, 0, 100, 100, ch, res)
    with pytest.raises(ValueError, match="bytes or a file path"):
        at.media.decode_jpeg(0, ch, res)  # an int is not opened as a file descriptor
    model = at.load_model(at.models.aipp_om())
    desc = at.query_desc(model)
    with pytest.raises(ValueError, match="resize or apply_recipe"):  # the 320x240 decode is not the model's input
        at.media.picture_dataset(pic, desc)
    at.unload_model(model, desc)
    assert len(sim_inspect.live()) == before
    at.media.release_picture(pic)
    for step in (lambda: at.media.resize(pic, 224, 224, ch, res), lambda: at.media.picture_dataset(pic),
                 lambda: at.media.apply_recipe(pic, recipes.EFFICIENTNET_LITE_AIPP, ch, res)):
        with pytest.raises(ValueError, match="was released"):
            step()
    closed = at.media.open_channel()
    at.media.close_channel(closed)
    with pytest.raises(ValueError, match="channel was closed"):
        at.media.decode_jpeg(jpeg_of("coffee.png"), closed, res)


def test_the_aipp_recipe_is_refused_for_host_preprocessing(step_api):
    at = step_api
    with pytest.raises(ValueError, match="feeds a DVPP picture into an AIPP model"):
        with at.Session(recipe="efficientnet-lite-aipp") as s:
            s.classify(at.models.image("coffee.png"))
    assert sim_inspect.leaks() == []


def test_an_aipp_model_without_its_recipe_is_recognised_by_its_input(step_api, tmp_path):
    at = step_api
    from acl_teach.toolchain import assets
    cfg = tmp_path / "aipp.cfg"
    with open(assets.aipp_cfg()) as fh:
        cfg.write_text(fh.read())
    om = at.models.convert(assets.default_onnx(), ["--output_type=FP32", f"--insert_op_conf={cfg}"], "own_aipp")
    with pytest.raises(ValueError, match="has AIPP: it takes a DVPP picture"):
        with at.Session(om) as s:
            s.classify(at.models.image("coffee.png"))


def test_the_aipp_models_recipe_is_written_once_and_atomically(step_api):
    import os
    at = step_api
    from acl_teach.toolchain import recipes
    path = at.models.aipp_om()
    stamp = os.stat(recipes.sidecar(path)).st_mtime_ns
    assert at.models.aipp_om() == path and os.stat(recipes.sidecar(path)).st_mtime_ns == stamp  # not rewritten
    with open(recipes.sidecar(path), "w") as fh:
        fh.write("{not json")  # damaged: replaced, never read half-way
    at.models.aipp_om()
    assert recipes.read_sidecar(path) == recipes.EFFICIENTNET_LITE_AIPP
