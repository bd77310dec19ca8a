"""tools/samples: the per-entry NumPy venv, taking a sample from a commit, the constant substitutes and the box check."""
import importlib
import os
import re
import subprocess
import sys

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HERE = os.path.join(ROOT, "tools", "samples")


@pytest.fixture(scope="module")
def tools():
    """The runner's modules, imported from tools/samples and dropped afterwards (names like `data` are generic)."""
    sys.path.insert(0, HERE)
    before = set(sys.modules)
    try:
        yield {name: importlib.import_module(name) for name in ("run", "stage", "checks", "models", "catalogue")}
    finally:
        sys.path.remove(HERE)
        for name in set(sys.modules) - before:
            if os.path.dirname(getattr(sys.modules[name], "__file__", None) or "") == HERE:
                del sys.modules[name]


def _git(repo, *args):
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True).stdout.strip()


def test_a_numpy_entry_runs_in_the_side_venv_and_the_others_here(tools, monkeypatch):
    run, catalogue = tools["run"], tools["catalogue"]
    pinned = next(s for s in catalogue.SAMPLES if s.name == "hand_detection_Gitee")
    plain = next(s for s in catalogue.SAMPLES if s.name == "resnet50_imagenet_classification")
    monkeypatch.delenv("SAMPLES_VENV", raising=False)
    side = os.path.join(ROOT, ".venv", "samples-np123")  # in the checkout's .venv, whatever sys.prefix is
    assert run.side_venv("1.23") == side
    assert run.command(pinned)[0] == os.path.join(side, "bin", "python")
    assert run.command(plain)[:3] == [sys.executable, "-m", "acl_teach.sim"]
    assert {s.name for s in catalogue.SAMPLES if s.numpy} == {
        "hand_detection_Gitee", "object_tracking_video", "object_tracking_video+picture"}


def test_the_side_venv_sits_beside_the_makefiles_samples_venv_or_is_refused(tools, monkeypatch, tmp_path):
    run = tools["run"]
    monkeypatch.setenv("SAMPLES_VENV", str(tmp_path / "sv"))
    assert run.side_venv("1.23") == str(tmp_path / "sv-np123")
    monkeypatch.setenv("SAMPLES_VENV", os.path.join(".venv", "samples"))
    assert run.side_venv("1.23") == os.path.join(ROOT, ".venv", "samples-np123")
    monkeypatch.delenv("SAMPLES_VENV")
    monkeypatch.setattr(run, "ROOT", str(tmp_path))  # run.py copied out of a checkout: no place to guess
    with pytest.raises(run.NoVenvPlace, match="set SAMPLES_VENV"):
        run.side_venv("1.23")
    monkeypatch.setattr(run.stage, "resolve_checkout", lambda path: path)
    with pytest.raises(SystemExit) as stop:
        run.main([str(tmp_path), "hand_detection_Gitee"])
    assert stop.value.code == 2


def test_a_side_venv_pip_cannot_make_fails_only_its_entries(tools, monkeypatch, tmp_path, capsys):
    run = tools["run"]
    monkeypatch.setenv("SAMPLES_VENV", str(tmp_path / "sv"))
    calls = []

    def fake_run(step, **kwargs):  # the venv is made; pip fails as offline with no compiler would
        calls.append(step)
        if "pip" in step:
            return subprocess.CompletedProcess(step, 1, "", "Collecting lap\n\nerror: subprocess-exited-with-error\n"
                                               "  gcc: not found\nERROR: Failed building wheel for cython_bbox\n")
        return subprocess.CompletedProcess(step, 0, "", "")
    monkeypatch.setattr(run.subprocess, "run", fake_run)
    monkeypatch.setattr(run.stage, "resolve_checkout", lambda path: path)
    monkeypatch.setattr(run.under_test, "prepare", lambda where, commit: "acl-teach under test")
    ran = []
    monkeypatch.setattr(run, "run_one", lambda s, *a: ran.append(s.name) or run.Result(s, True, "ran"))
    names = ["hand_detection_Gitee", "resnet50_imagenet_classification", "object_tracking_video"]
    assert run.main([str(tmp_path), *names, "--work", str(tmp_path / "w"), "-j", "1"]) == 0
    assert ran == ["resnet50_imagenet_classification"] and len(calls) == 2  # one venv for both 1.23 entries
    lines = {ln.split()[1]: ln for ln in capsys.readouterr().out.splitlines() if ln.startswith(("PASS", "FAIL"))}
    why = (f"could not make {tmp_path / 'sv-np123'} (pip install): error: subprocess-exited-with-error | "
           "gcc: not found | ERROR: Failed building wheel for cython_bbox")
    assert lines["hand_detection_Gitee"].startswith("FAIL") and lines["hand_detection_Gitee"].endswith(why)
    assert lines["object_tracking_video"].startswith("FAIL") and lines["object_tracking_video"].endswith(why)
    assert lines["resnet50_imagenet_classification"].startswith("PASS")
    assert not (tmp_path / "sv-np123" / ".installed").exists()  # the next run tries again


def _packages(path):
    with open(path, encoding="utf-8") as fh:
        return {re.split(r"[\s<>=~#]", ln.strip())[0] for ln in fh if ln.strip() and not ln.startswith("#")}


def test_the_trackers_packages_go_only_into_the_numpy_123_venv(tools):
    run, catalogue = tools["run"], tools["catalogue"]
    main, extra = _packages(run.REQUIREMENTS), _packages(os.path.join(HERE, "requirements-np123.txt"))
    assert extra == {"scipy", "lap", "cython_bbox"} and not main & extra
    assert run.side_requirements("1.23") == [run.REQUIREMENTS, os.path.join(HERE, "requirements-np123.txt")]
    assert run.side_requirements("1.22") == [run.REQUIREMENTS]
    for sample in catalogue.SAMPLES:  # every entry importing them runs in the venv that has them
        assert not set(sample.needs) & extra or sample.numpy == "1.23", sample.name


def test_either_requirement_file_changing_remakes_the_side_venv(tools, monkeypatch, tmp_path):
    run = tools["run"]
    for name in ("requirements.txt", "requirements-np123.txt"):
        (tmp_path / name).write_text(f"{name}-pkg\n")
    monkeypatch.setattr(run, "HERE", str(tmp_path))
    monkeypatch.setattr(run, "REQUIREMENTS", str(tmp_path / "requirements.txt"))
    monkeypatch.setenv("SAMPLES_VENV", str(tmp_path / "sv"))
    calls = []

    def fake_run(step, **kwargs):
        calls.append(step)
        os.makedirs(tmp_path / "sv-np123", exist_ok=True)
        return subprocess.CompletedProcess(step, 0, "", "")
    monkeypatch.setattr(run.subprocess, "run", fake_run)
    assert run.ensure_side_venv("1.23") == (True, f"made {tmp_path / 'sv-np123'} for the samples needing NumPy 1.23")
    assert calls[1][-5:] == ["-r", str(tmp_path / "requirements.txt"), "-r", str(tmp_path / "requirements-np123.txt"),
                             "numpy~=1.23.0"]
    assert run.ensure_side_venv("1.23")[0] and len(calls) == 2  # stamp matches: nothing run
    for name in ("requirements-np123.txt", "requirements.txt"):
        (tmp_path / name).write_text("changed\n")
        before = len(calls)
        assert run.ensure_side_venv("1.23")[1].startswith("made ") and len(calls) == before + 2, name


def test_missing_modules_asks_the_other_interpreter(tools):
    run = tools["run"]
    assert run.missing_modules(sys.executable, ["os", "no_such_module_xyz"]) == ["no_such_module_xyz"]
    other = os.path.realpath(sys.executable)  # the venv's interpreter by another name: asked in a child process
    if other == sys.executable:
        pytest.skip("sys.executable is not a symlink")
    assert run.missing_modules(other, ["json", "numpy_not_here_xyz"]) == ["numpy_not_here_xyz"]


def test_an_entry_is_taken_from_its_commit_in_a_bare_mirror_or_a_checkout(tools, tmp_path):
    stage = tools["stage"]
    repo = tmp_path / "repo"
    (repo / "python" / "s").mkdir(parents=True)
    _git(tmp_path, "init", "-q", str(repo))
    (repo / "python" / "s" / "a.py").write_text("old\n")
    _git(repo, "add", ".")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one")
    first = _git(repo, "rev-parse", "HEAD")
    (repo / "python" / "s" / "a.py").write_text("new\n")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "two")
    _git(tmp_path, "clone", "-q", "--bare", str(repo), str(tmp_path / "bare.git"))
    for checkout, ref, want in ((repo, first, "old\n"), (repo, "", "new\n"),
                                (tmp_path / "bare.git", first, "old\n"), (tmp_path / "bare.git", "", "new\n")):
        work = tmp_path / f"w{len(list(tmp_path.iterdir()))}"
        stage.copy_folder(str(checkout), "python/s", str(work), ref)
        assert (work / "python" / "s" / "a.py").read_text() == want, (checkout, ref)
    with pytest.raises(stage.PrepareError, match="is not in"):
        stage.copy_folder(str(repo), "python/s", str(tmp_path / "wx"), "0" * 40)
    plain = tmp_path / "plain"
    (plain / "python" / "s").mkdir(parents=True)
    with pytest.raises(stage.PrepareError, match="not a git checkout"):
        stage.copy_folder(str(plain), "python/s", str(tmp_path / "wy"), first)


def _run(model, feeds):
    import onnxruntime as ort
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return {o.name: v for o, v in zip(sess.get_outputs(), sess.run(None, feeds))}


def test_the_hand_substitute_gives_two_boxes_one_over_the_samples_threshold(tools):
    models = tools["models"]
    out = _run(models.hand_ssd(), {"image_tensor": np.full((1, 300, 300, 3), 200, np.uint8)})
    assert list(out) == ["num_detections", "detection_classes", "detection_scores", "detection_boxes"]
    assert out["num_detections"].tolist() == [2.0]
    assert out["detection_scores"].shape == (1, 10) and out["detection_boxes"].shape == (1, 10, 4)
    assert [s >= 0.6 for s in out["detection_scores"][0, :2]] == [True, False]
    np.testing.assert_array_equal(out["detection_boxes"][0, :2], models.HAND_BOXES)


def test_the_fairmot_substitute_has_one_peak_where_the_catalogue_expects_its_box(tools):
    models, catalogue = tools["models"], tools["catalogue"]
    out = _run(models.fairmot(), {"input.1": np.zeros((1, 3, 608, 1088), np.float32)})
    assert list(out) == ["id_feature", "reg", "wh", "hm"]
    assert [v.shape for v in out.values()] == [(152, 272, 128), (152, 272, 2), (152, 272, 4), (152, 272)]
    ys, xs = np.nonzero(out["hm"] > 0.35)
    assert (ys.tolist(), xs.tolist()) == ([76], [136])
    cx, cy = xs[0] + out["reg"][76, 136, 0], ys[0] + out["reg"][76, 136, 1]
    left, top, right, bottom = out["wh"][76, 136]
    grid_box = np.array([cx - left, cy - top, cx + right, cy + bottom])
    assert tuple(int(v) for v in grid_box * 4) == catalogue.MOT_PICTURE_BOX  # 1088x608 picture: 4 pixels a cell
    scale = max(1088 / 608 * 1080, 1920) / 272  # the code's affine for a 1920x1080 frame, around its centre
    frame_box = (grid_box - [136, 76, 136, 76]) * scale + [960, 540, 960, 540]
    assert tuple(int(v) for v in frame_box) == catalogue.MOT_BOX


def test_box_drawn_needs_the_outline_not_just_a_picture_of_that_colour(tools, tmp_path):
    from PIL import Image, ImageDraw
    checks = tools["checks"]
    rng = np.random.default_rng(0)
    plain = np.clip(rng.normal((87, 51, 111), 25, (200, 300, 3)), 0, 255).astype(np.uint8)  # RGB near the colour
    Image.fromarray(plain).save(tmp_path / "plain.jpg", quality=90)
    drawn = Image.new("RGB", (300, 200), (200, 200, 200))
    ImageDraw.Draw(drawn).rectangle((50, 40, 250, 160), outline=(87, 51, 111), width=2)
    drawn.save(tmp_path / "drawn.jpg", quality=90)
    box, bgr = (50, 40, 250, 160), (111, 51, 87)
    assert checks.box_drawn("drawn.jpg", box, bgr)("", str(tmp_path))[0]
    assert not checks.box_drawn("plain.jpg", box, bgr)("", str(tmp_path))[0]
    assert not checks.box_drawn("drawn.jpg", (60, 50, 240, 150), bgr)("", str(tmp_path))[0]
    ok, detail = checks.box_drawn("drawn.jpg", box, bgr, absent=(box,))("", str(tmp_path))
    assert not ok and "also drawn" in detail
    assert not checks.box_drawn("missing.jpg", box, (0, 255, 0))("", str(tmp_path))[0]


def test_box_drawn_at_or_past_the_pictures_border_checks_the_edges_inside_it(tools, tmp_path):
    from PIL import Image, ImageDraw
    checks = tools["checks"]
    bgr, purple = (111, 51, 87), (87, 51, 111)
    for name, box in (("corner.png", (0, 40, 250, 199)), ("past.png", (50, 0, 320, 160))):
        drawn = Image.new("RGB", (300, 200), (200, 200, 200))
        ImageDraw.Draw(drawn).rectangle(box, outline=purple, width=2)  # clipped to the picture, as cv2 draws
        drawn.save(tmp_path / name)
        ok, detail = checks.box_drawn(name, box, bgr)("", str(tmp_path))
        assert ok, detail
        assert "median edge 0 away" in detail, detail
    Image.new("RGB", (300, 200), (200, 200, 200)).save(tmp_path / "blank.png")
    assert not checks.box_drawn("blank.png", (0, 40, 250, 199), bgr)("", str(tmp_path))[0]
    img = np.zeros((200, 300, 3))
    img[:, 299, :] = bgr  # the column x = -1 would wrap round to
    assert checks._edges(img, (0, 40, 250, 199), 1)[2].shape == (0, 3)  # the left edge moved out: off the picture
    assert checks._edges(img, (0, 40, 250, 199), 1)[1].shape == (0, 3)  # the bottom one too (row 200)
    assert checks._distance(img, (0, 40, 250, 199), bgr) > 40
    assert checks._distance(img, (400, 300, 500, 400), bgr) == np.inf  # wholly outside: nothing to see
