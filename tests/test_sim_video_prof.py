"""VDEC and VENC frames on the simulated timeline and in acl.prof's trace, and the video example under --prof."""
import glob
import json
import os
import re
import subprocess
import sys

import pytest

from acl_teach import models
from acl_teach.sim.media.dvpp import cost as dvpp_cost
from acl_teach.spec import prof as P
from acl_teach.spec import video as V
from acl_teach.toolchain import video
from video_programs import Vdec, stop_leftover_threads, vpc_resize
from test_sim_venc import Venc

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "acl_teach", "examples", "video_classify.py")
IMAGES = [models.image("coffee.png"), models.image("chelsea.png")]
W, H = 160, 128
EPS = 0.002  # the trace rounds times to 3 decimals (ns)


@pytest.fixture(autouse=True)
def _threads():
    yield
    stop_leftover_threads()


def _slices(trace):
    """(lane name, event) of every duration event, in file order."""
    lanes = {e["tid"]: e["args"]["name"] for e in trace["traceEvents"] if e.get("name") == "thread_name"}
    return [(lanes[e["tid"]], e) for e in trace["traceEvents"] if e.get("ph") == "X"]


def _end(event):
    return event["ts"] + event["dur"]


def _profile(acl, folder):
    assert acl.prof.init(str(folder)) == 0
    cfg = acl.prof.create_config([0], P.ACL_AICORE_NONE, 0, P.ACL_PROF_ACL_API | P.ACL_PROF_TASK_TIME)
    assert cfg and acl.prof.start(cfg) == 0
    return cfg


def _written(acl, cfg, folder):
    assert acl.prof.stop(cfg) == 0 and acl.prof.destroy_config(cfg) == 0 and acl.prof.finalize() == 0
    files = glob.glob(os.path.join(str(folder), "PROF_*_sim", "trace_view.json"))
    assert len(files) == 1, files
    with open(files[0], encoding="utf-8") as fh:
        return json.load(fh)


def test_video_classify_with_prof_writes_vdec_vpc_and_execute_slices_in_order(tmp_path):
    clip = video.write_stream(str(tmp_path / "clip.h264"), IMAGES, 192, 144, 4)
    out = tmp_path / "prof_out"
    proc = subprocess.run([sys.executable, "-m", "acl_teach.sim", SCRIPT, clip, models.aipp_om(), "--prof", str(out)],
                          capture_output=True, text=True, timeout=300, cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "frames: 4 sent, 4 decoded (192x144)" in proc.stdout
    top1 = [int(m.group(1)) for m in re.finditer(r"^frame \d+: top5 (\d+):", proc.stdout, re.M)]
    assert top1[:2] == [967, 967] and all(281 <= c <= 285 for c in top1[2:]) and len(top1) == 4, proc.stdout
    where = re.search(r"^profiling: (.+)$", proc.stdout, re.M)
    assert where, proc.stdout
    path = os.path.realpath(where.group(1) if os.path.isabs(where.group(1)) else tmp_path / where.group(1))
    assert path.startswith(os.path.realpath(out) + os.sep) and path.endswith("trace_view.json")
    assert sorted(os.listdir(tmp_path)) == ["clip.h264", "prof_out"]  # nothing written beside the folder given
    with open(path, encoding="utf-8") as fh:
        slices = _slices(json.load(fh))
    vdec = [e for lane, e in slices if e["cat"] == "vdec"]
    vpc = [e for lane, e in slices if e["cat"] == "vpc"]
    run = [e for lane, e in slices if e["cat"] == "model"]
    assert [e["name"] for e in vdec] == [f"VDEC frame {i}" for i in range(4)]
    assert {lane for lane, e in slices if e["cat"] == "vdec"} == {"VDEC channel 0"}
    assert all(e["args"]["width"] == 192 and e["args"]["height"] == 144 and e["dur"] > 0 for e in vdec)
    assert len(vpc) == len(run) == 4 and all(e["name"] == "dvpp_vpc_resize" and e["dur"] > 0 for e in vpc)
    assert all(lane.startswith("stream ") for lane, e in slices if e["cat"] == "vpc")
    for a, b in zip(vdec, vdec[1:]):  # one unit: frame after frame
        assert _end(a) <= b["ts"] + EPS
    for dec, resize, execute in zip(vdec, vpc, run):  # each frame: decoded, then resized, then classified
        assert _end(dec) <= resize["ts"] + EPS and _end(resize) <= execute["ts"] + EPS


def test_vdec_frames_are_slices_on_the_channel_row_costed_by_picture_size(ready, tmp_path):
    acl = ready
    chunks = video.encode(IMAGES, W, H, 3, "h264")
    cfg = _profile(acl, tmp_path / "p")
    vdec = Vdec(acl, channel_id=5)
    for i, chunk in enumerate(chunks):
        assert vdec.send(chunk, i, V.yuv420sp_size(*V.vdec_strides(W, H))) == 0
    assert vdec.close() == 0
    after, _ = acl.rt.malloc(64, 0)  # the host waited for the channel at destroy: later work starts after it
    assert acl.rt.memset(after, 64, 0, 64) == 0
    slices = _slices(_written(acl, cfg, tmp_path / "p"))
    dec = [e for lane, e in slices if lane == "VDEC channel 5"]
    assert [e["name"] for e in dec] == ["VDEC frame 0", "VDEC frame 1", "VDEC frame 2"]
    assert [e["args"]["frame"] for e in dec] == [0, 1, 2] and all(e["args"]["result"] == "ok" for e in dec)
    assert all(e["dur"] == pytest.approx(dvpp_cost.dvpp_cost("vdec", W * H), abs=1e-3) for e in dec)
    assert [r["user"] for r in vdec.results] == [0, 1, 2]  # the callbacks as before
    memset = [e for lane, e in slices if e["cat"] == "memset"]
    assert len(memset) == 1 and memset[0]["ts"] >= _end(dec[-1]) - EPS


def test_a_failed_vdec_frame_is_a_short_slice_marked_failed(ready, tmp_path):
    acl = ready
    good = video.encode(IMAGES, W, H, 1, "h264")[0]
    cfg = _profile(acl, tmp_path / "p")
    vdec = Vdec(acl)
    assert vdec.send(b"\x00\x00\x01garbage" * 8, 0, V.yuv420sp_size(*V.vdec_strides(W, H))) == 0
    assert vdec.send(good, 1, V.yuv420sp_size(*V.vdec_strides(W, H))) == 0
    assert vdec.close() == 0
    dec = [e for lane, e in _slices(_written(acl, cfg, tmp_path / "p")) if e["cat"] == "vdec"]
    assert [e["name"] for e in dec] == ["VDEC frame 0 (failed)", "VDEC frame 1"]
    assert dec[0]["args"]["result"].startswith("failed: ") and dec[0]["dur"] == dvpp_cost.UNIT_LAUNCH_US
    assert [r["ret_code"] for r in vdec.results] == [507018, 0]


def test_work_started_in_a_vdec_callback_starts_after_its_frame_was_decoded(ready, tmp_path):
    acl = ready
    chunks = video.encode(IMAGES, W, H, 2, "h264")
    channel = acl.media.dvpp_create_channel_desc()
    assert acl.media.dvpp_create_channel(channel) == 0
    stream, _ = acl.rt.create_stream()
    cfg = _profile(acl, tmp_path / "p")
    ws, hs = V.vdec_strides(W, H)

    class ResizingVdec(Vdec):
        """The callback resizes each picture itself (a VPC task synchronized in the callback thread)."""

        def _callback(self, stream_desc, pic_desc, user_data):
            data = acl.media.dvpp_get_pic_desc_data(pic_desc)
            size = acl.media.dvpp_get_pic_desc_size(pic_desc)
            small, _ = vpc_resize(acl, channel, stream, data, size, W, H, ws, hs)
            assert acl.media.dvpp_free(small) == 0
            super()._callback(stream_desc, pic_desc, user_data)

    vdec = ResizingVdec(acl)
    for i, chunk in enumerate(chunks):
        assert vdec.send(chunk, i, V.yuv420sp_size(ws, hs)) == 0
    assert vdec.close() == 0
    slices = _slices(_written(acl, cfg, tmp_path / "p"))
    dec = [e for lane, e in slices if e["cat"] == "vdec"]
    vpc = [e for lane, e in slices if e["cat"] == "vpc"]
    assert len(dec) == len(vpc) == 2
    for d, v in zip(dec, vpc):
        assert _end(d) <= v["ts"] + EPS
    assert acl.rt.destroy_stream(stream) == 0
    assert acl.media.dvpp_destroy_channel(channel) == 0 and acl.media.dvpp_destroy_channel_desc(channel) == 0


def test_venc_frames_are_slices_on_their_own_row(ready, tmp_path):
    acl = ready
    pictures = video.decode_nv12(video.encode(IMAGES, W, H, 3, "h264"))
    cfg = _profile(acl, tmp_path / "p")
    venc = Venc(acl)
    for i, picture in enumerate(pictures):
        assert venc.send(picture.tobytes(), i) == 0
    assert venc.close() == 0
    slices = _slices(_written(acl, cfg, tmp_path / "p"))
    enc = [(lane, e) for lane, e in slices if e["cat"] == "venc"]
    assert [e["name"] for _, e in enc] == ["VENC frame 0", "VENC frame 1", "VENC frame 2"]
    assert len({lane for lane, _ in enc}) == 1 and enc[0][0].startswith("VENC channel ")
    assert all(e["dur"] == pytest.approx(dvpp_cost.dvpp_cost("venc", W * H), abs=1e-3) for _, e in enc)
    for (_, a), (_, b) in zip(enc, enc[1:]):
        assert _end(a) <= b["ts"] + EPS
    assert [f["ret_code"] for f in venc.frames] == [0, 0, 0]


def test_the_cost_model_follows_the_soc():
    assert [dvpp_cost.family(s) for s in ("Ascend310", "Ascend310P3", "Ascend310B1", "Ascend910B")] == \
        ["310", "310P", "310B", "310"]
    assert dvpp_cost.PX_PER_US["vdec"]["310P"] > dvpp_cost.PX_PER_US["vdec"]["310"]
