"""Bad input through `acl-teach classify` and the step API: clear messages, no crash, others still run."""
import io
import json
import os
import subprocess
import sys

import numpy as np
import pytest
from PIL import Image

import acl_teach as at
from acl_teach import classify, cli
from acl_teach.toolchain import images
from helpers import ROOT

COFFEE = os.path.join(ROOT, "data", "images", "coffee.png")


@pytest.fixture
def odd_images(tmp_path):
    """One file per way an image can be unusual or broken."""
    src = Image.open(COFFEE).convert("RGB").resize((320, 240))
    files = {}
    src.convert("L").save(tmp_path / "gray.png"); files["gray"] = "gray.png"
    src.convert("P", palette=Image.ADAPTIVE).save(tmp_path / "palette.png"); files["palette"] = "palette.png"
    rgba = src.convert("RGBA"); rgba.putalpha(128); rgba.save(tmp_path / "rgba.png"); files["rgba"] = "rgba.png"
    src.convert("CMYK").save(tmp_path / "cmyk.jpg"); files["cmyk"] = "cmyk.jpg"
    arr16 = (np.asarray(src.convert("L"), np.uint16) * 257)
    img16 = Image.new("I;16", src.size)
    img16.frombytes(arr16.astype("<u2").tobytes())
    img16.save(tmp_path / "gray16.png"); files["gray16"] = "gray16.png"
    exif = Image.Exif(); exif[0x0112] = 6
    src.save(tmp_path / "rotated.jpg", exif=exif); files["rotated"] = "rotated.jpg"
    (tmp_path / "empty.jpg").write_bytes(b""); files["empty"] = "empty.jpg"
    (tmp_path / "text.png").write_text("this is not an image"); files["text"] = "text.png"
    src.save(tmp_path / "full.jpg")
    data = (tmp_path / "full.jpg").read_bytes()
    (tmp_path / "truncated.jpg").write_bytes(data[:len(data) // 3]); files["truncated"] = "truncated.jpg"
    Image.new("1", (9000, 9000)).save(tmp_path / "bomb.png"); files["bomb"] = "bomb.png"
    os.remove(tmp_path / "full.jpg")
    return tmp_path, files


@pytest.mark.parametrize("name", ["gray", "palette", "rgba", "cmyk", "gray16", "rotated"])
def test_odd_modes_load_as_rgb(odd_images, name):
    folder, files = odd_images
    img = images.load_image(str(folder / files[name]))
    assert img.mode == "RGB"
    if name == "rotated":
        assert img.size == (240, 320)  # EXIF orientation 6 applied
    if name == "gray16":
        ref = np.asarray(images.load_image(str(folder / files["gray"])), np.int16)
        assert np.abs(np.asarray(img, np.int16) - ref).max() <= 1  # scaled, not clipped to white


@pytest.mark.parametrize("name, words", [("empty", "empty (0 bytes)"), ("text", "not an image"),
                                         ("truncated", "damaged or truncated"), ("bomb", "too large")])
def test_broken_files_raise_image_error_naming_the_file(odd_images, name, words):
    folder, files = odd_images
    with pytest.raises(at.ImageError) as info:
        images.load_image(str(folder / files[name]))
    assert files[name] in str(info.value) and words in str(info.value)


def test_missing_file_and_directory():
    with pytest.raises(at.ImageError, match="no such file"):
        images.load_image("nope.jpg")
    with pytest.raises(at.ImageError, match="is a directory"):
        images.load_image(ROOT)


def test_classify_reports_bad_images_and_carries_on(odd_images, default_om, acl):
    at.use("sim")
    at.reset(simulator=False)
    folder, files = odd_images
    out, err = io.StringIO(), io.StringIO()
    code = classify.run([str(folder)], default_om, "sim", as_json=True, out=out, err=err)
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    by_name = {os.path.basename(r["image"]): r for r in rows}
    assert code == 1
    for bad in ("empty.jpg", "text.png", "truncated.jpg", "bomb.png"):
        assert "error" in by_name[bad] and bad in by_name[bad]["error"]
    for good in ("gray.png", "palette.png", "rgba.png", "cmyk.jpg", "gray16.png", "rotated.jpg"):
        top = by_name[good]["top"]
        assert len(top) == 5 and set(top[0]) == {"index", "label", "prob"}
        assert set(by_name[good]["timings_ms"]) == {"preprocess", "h2d", "execute", "d2h"}
    assert by_name["palette.png"]["top"][0]["index"] == 967  # still an espresso
    assert at.sim.ledger() == []


def test_cli_user_errors_are_one_line(capsys, tiny_models, tmp_path):
    assert cli.main(["classify", COFFEE, "--model", str(tmp_path / "none.om"), "--backend", "sim"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "does not exist" in err
    assert cli.main(["classify", COFFEE, "--model", tiny_models["static"], "--backend", "sim"]) == 2
    err = capsys.readouterr().err
    assert "does not take one image" in err and "Traceback" not in err
    onnx_file = os.path.join(ROOT, "data", "models", "efficientnet_lite0.onnx")
    assert cli.main(["classify", COFFEE, "--model", onnx_file, "--backend", "sim"]) == 2
    err = capsys.readouterr().err
    assert "100013" in err and "acl-teach atc" in err and err.count("\n") == 1
    assert cli.main(["classify", str(tmp_path), "--backend", "sim"]) == 2
    assert "no images found" in capsys.readouterr().err
    assert at.sim.ledger() == []


def test_cli_classify_json_trace_and_exit_code(default_om):
    env = dict(os.environ, PYTHONPATH=ROOT, ACL_TEACH_CACHE=os.path.dirname(default_om))
    proc = subprocess.run([sys.executable, "-m", "acl_teach", "classify", COFFEE, os.path.join(ROOT, "data", "images",
                           "chelsea.png"), "--json", "--top", "3", "--backend", "sim"],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [len(r["top"]) for r in rows] == [3, 3]
    assert rows[0]["top"][0] == {"index": 967, "label": "espresso", "prob": pytest.approx(0.951, abs=0.01)}
    assert 281 <= rows[1]["top"][0]["index"] <= 285
    proc = subprocess.run([sys.executable, "-m", "acl_teach", "classify", COFFEE, "--trace", "--async",
                           "--backend", "sim"], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "ret = acl.mdl.execute_async(1, dataset, dataset_1, stream)  # -> 0" in proc.stdout
    assert "967" in proc.stdout and "espresso" in proc.stdout and "session: init" in proc.stdout


def test_cli_desc(default_om, capsys):
    at.use("sim")
    at.reset(simulator=False)
    assert cli.main(["desc", default_om]) == 0
    out = capsys.readouterr().out
    assert "data" in out and "[1, 3, 224, 224]" in out and "ACL_FLOAT16" in out and "301056" in out
    assert "1 x 1000 x 4 bytes (ACL_FLOAT) = 4000" in out
    assert cli.main(["desc", "missing.om"]) == 2
