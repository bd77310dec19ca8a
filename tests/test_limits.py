"""Bounded work: thin images and decompression bombs, long sessions, malformed recipe sidecars."""
import gc
import io
import json
import os
import shutil
import struct
import subprocess
import sys
import time
import tracemalloc
import zlib

import pytest
from PIL import Image

import acl_teach as at
from acl_teach import cli
from acl_teach.step import Payload
from acl_teach.toolchain import atc, images, recipes
from helpers import ROOT, make_onnx

PHOTOS = os.path.join(ROOT, "data", "images")
COFFEE = os.path.join(PHOTOS, "coffee.png")


def zero_png(path, width, height, color_type, channels, bit_depth=8):
    """A PNG of zeros written row by row: a huge image in a tiny file, never held in memory here."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    row = b"\0" * (1 + (width * channels * bit_depth + 7) // 8)
    packer = zlib.compressobj(9)
    idat = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    header = struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, 0)
    with open(path, "wb") as fh:
        fh.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", idat) + chunk(b"IEND", b""))
    return os.path.basename(path)


@pytest.fixture(scope="module")
def hostile_folder(tmp_path_factory):
    """The shipped photos beside thin strips and decompression bombs: {name: what must happen}."""
    folder = tmp_path_factory.mktemp("hostile")
    for name in os.listdir(PHOTOS):
        shutil.copy(os.path.join(PHOTOS, name), folder / name)
    expect = {}
    for name, size in (("thin12000.png", (1, 12000)), ("thin60000.png", (1, 60000)), ("wide60000.png", (60000, 1))):
        Image.new("RGB", size, (200, 100, 50)).save(folder / name)
        expect[name] = "aspect ratio"
    assert os.path.getsize(folder / "thin12000.png") == 134 and os.path.getsize(folder / "thin60000.png") == 320
    expect[zero_png(folder / "bomb.png", 9000, 9000, 0, 1, 1)] = "too large to be a photo"  # 81 MP in ~10 KB
    expect[zero_png(folder / "bomb_rgba.png", 8000, 8000, 6, 4)] = "MiB to decode and convert"  # 64 MP RGBA
    return folder, expect


def test_thin_images_are_refused_before_the_resize(hostile_folder):
    folder, _ = hostile_folder
    messages = {}
    tracemalloc.start()
    try:
        for name in ("thin12000.png", "thin60000.png", "wide60000.png"):
            t0 = time.perf_counter()
            with pytest.raises(at.ImageError) as info:
                images.preprocess(str(folder / name))
            assert time.perf_counter() - t0 < 1.0  # was 15.7 s (1 x 12000) and a MemoryError (1 x 60000)
            messages[name] = str(info.value)
        assert tracemalloc.get_traced_memory()[1] < 20e6  # was 3.3 GB for the 134-byte file
    finally:
        tracemalloc.stop()
    assert messages["thin12000.png"] == (
        f"{folder / 'thin12000.png'}: 1x12000 pixels (aspect ratio 12,000:1) would be resized to "
        f"256x3,072,000 = 786,432,000 pixels before the centre crop (limit 16,000,000); it is not a photo the "
        f"model can use. Crop it to a normal aspect ratio first.")
    assert "15,360,000x256 = 3,932,160,000 pixels" in messages["wide60000.png"]


def test_work_bound_is_checked_from_the_header(hostile_folder):
    folder, _ = hostile_folder
    with pytest.raises(at.ImageError, match=r"8000x8000 pixels of mode RGBA would need about 1,221 MiB"):
        images.load_image(str(folder / "bomb_rgba.png"))
    assert images.work_bytes("RGB", (8000, 8000)) <= images.MAX_WORK_BYTES  # a 64 MP photo still fits
    # exact-resize recipes never make a big intermediate: the same strip is fine for them
    strip = images.preprocess(str(folder / "thin12000.png"), dict(recipes.CAFFE_RESNET50))
    assert strip.shape == (1, 3, 224, 224)


# A launcher measures its one child: a child forked straight from pytest inherits pytest's own peak RSS.
PEAK = ("import resource, subprocess, sys; rc = subprocess.call(sys.argv[1:]); "
        "sys.stderr.write('\\npeak_kib %d\\n' % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); sys.exit(rc)")


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss is in KiB on Linux")
def test_classify_a_hostile_folder_in_bounded_memory(hostile_folder, default_om):
    """Every other image gets its result; the whole run stays under 500 MB peak RSS."""
    folder, expect = hostile_folder
    env = dict(os.environ, PYTHONPATH=ROOT, ACL_TEACH_CACHE=os.path.dirname(default_om))
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", PEAK, sys.executable, "-m", "acl_teach", "classify", str(folder),
                           "--json", "--backend", "sim"], capture_output=True, text=True, env=env, timeout=600)
    elapsed = time.perf_counter() - t0
    peak_mb = int(proc.stderr.split("peak_kib ")[-1]) * 1024 / 1e6
    rows = {os.path.basename(r["image"]): r for r in map(json.loads, proc.stdout.splitlines())}
    print(f"classify of {len(rows)} files: peak RSS {peak_mb:.0f} MB, {elapsed:.1f} s")
    assert proc.returncode == 1, proc.stderr
    assert peak_mb < 500
    assert set(rows) == set(expect) | set(os.listdir(PHOTOS))
    for name, words in expect.items():
        assert name in rows[name]["error"] and words in rows[name]["error"], rows[name]
    assert rows["coffee.png"]["top"][0]["index"] == 967
    assert 281 <= rows["chelsea.png"]["top"][0]["index"] <= 285
    assert "top" in rows["rocket.jpg"]


@pytest.mark.heavy  # 200 images under tracemalloc: scheduled early (tests/xdist_groups.py)
@pytest.mark.slow  # ~15 CPU-s: `make test-slow`
def test_a_long_session_stays_flat(step_api, default_om):
    """200 classifications of one photo: records keep no tensors and only the last image's steps."""
    gc.collect()
    tracemalloc.start()
    try:
        with at.Session(default_om) as s:
            for i in range(1, 201):
                assert s.classify(COFFEE).topk.top[0].index == 967
                if i == 1:
                    n_steps = len(s.steps)
                if i == 50:
                    gc.collect()
                    at_50 = tracemalloc.take_snapshot()
            gc.collect()
            at_200 = tracemalloc.take_snapshot()
            growth = sum(d.size_diff for d in at_200.compare_to(at_50, "filename"))
            assert len(s.steps) == n_steps
            calls = [c for st in s.steps for c in st.calls]
            assert not [c for c in calls if any(isinstance(a, (bytes, bytearray)) for a in c.args)]
            copy = next(c for c in calls if c.api == "acl.util.bytes_to_ptr")
            assert copy.args == (Payload(301056),) and repr(copy.args[0]) == "<301056 bytes>"
            code = s.code()
            assert "acl.util.bytes_to_ptr(data)" in code and code.count("acl.mdl.execute(") == 1
    finally:
        tracemalloc.stop()
    print(f"growth from image 50 to image 200: {growth / 1e3:.0f} KB")
    assert growth < 1e6  # was 46.7 MB (0.31 MB per image)


@pytest.mark.parametrize("text, reason", [
    ('{"resize_short": 256,', "cannot be read as JSON"),
    ("[1, 2]", "must hold a JSON object"),
    ('{"mean": [1, 2]}', "'mean' is [1, 2]; it must be 3 numbers"),
    ('{"resample": "lanczos"}', '"bicubic", "bilinear" or "nearest"'),
])
def test_atc_fails_like_atc_on_a_malformed_recipe(tmp_path, text, reason):
    onnx_path = make_onnx(tmp_path / "m.onnx")
    (tmp_path / "m.recipe.json").write_text(text)
    out, err = io.StringIO(), io.StringIO()
    argv = [f"--model={onnx_path}", "--framework=5", f"--output={tmp_path / 'm'}", "--soc_version=Ascend310"]
    assert atc.run(argv, out, err) == 1
    lines = err.getvalue().splitlines()
    assert lines[0] == atc.FAILED and len(lines) == 2
    assert str(tmp_path / "m.recipe.json") in lines[1] and reason in lines[1]
    assert not (tmp_path / "m.om").exists()


def test_atc_cli_malformed_recipe_has_no_traceback(tmp_path):
    onnx_path = make_onnx(tmp_path / "m.onnx")
    (tmp_path / "m.recipe.json").write_text("{not json")
    proc = subprocess.run([sys.executable, "-m", "acl_teach", "atc", f"--model={onnx_path}", "--framework=5",
                           f"--output={tmp_path / 'm'}", "--soc_version=Ascend310"], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=ROOT), timeout=300)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert "ATC run failed" in proc.stderr and "m.recipe.json cannot be read as JSON" in proc.stderr


def test_classify_with_a_malformed_sidecar_is_one_line(tmp_path, default_om, capsys):
    model = tmp_path / "m.om"
    shutil.copy(default_om, model)
    (tmp_path / "m.recipe.json").write_text('{"std": [1, 0, 1]}')
    assert cli.main(["classify", COFFEE, "--model", str(model), "--backend", "sim"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "m.recipe.json: 'std' is [1, 0, 1]; it must be 3 non-zero numbers" in err


def test_an_image_that_runs_out_of_memory_is_one_error_and_the_rest_still_run(step_api, default_om, monkeypatch):
    real = images.preprocess

    def starved(image, *args, **kwargs):
        if "chelsea" in str(image):
            raise MemoryError()
        return real(image, *args, **kwargs)
    monkeypatch.setattr(images, "preprocess", starved)
    out = io.StringIO()
    from acl_teach import classify
    assert classify.run([PHOTOS], default_om, "sim", as_json=True, out=out, err=io.StringIO()) == 1
    rows = {os.path.basename(r["image"]): r for r in map(json.loads, out.getvalue().splitlines())}
    assert "not enough memory" in rows["chelsea.png"]["error"] and "chelsea.png" in rows["chelsea.png"]["error"]
    assert rows["coffee.png"]["top"][0]["index"] == 967 and "top" in rows["rocket.jpg"]
