"""acl_teach/examples/video_classify.py end to end on the simulator: H.264 -> VDEC -> VPC -> AIPP model -> top-5."""
import os
import re
import subprocess
import sys

from acl_teach import models
from acl_teach.toolchain import video

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "acl_teach", "examples", "video_classify.py")


def test_video_classify_prints_top5_per_frame_with_count_and_timings(tmp_path):
    clip = video.write_stream(str(tmp_path / "clip.h264"), [models.image("coffee.png"), models.image("chelsea.png")],
                              192, 144, 4)
    proc = subprocess.run([sys.executable, "-m", "acl_teach.sim", SCRIPT, clip, models.aipp_om()],
                          capture_output=True, text=True, timeout=300, cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    top1 = [int(m.group(2)) for m in re.finditer(r"^frame (\d+): top5 (\d+):", proc.stdout, re.M)]
    assert top1[:2] == [967, 967] and all(281 <= c <= 285 for c in top1[2:]) and len(top1) == 4, proc.stdout
    assert "frames: 4 sent, 4 decoded (192x144)" in proc.stdout
    assert re.search(r"time: vdec [\d.]+ ms/frame, vpc \+ execute [\d.]+ ms/frame", proc.stdout)
    assert "Traceback" not in proc.stderr and "leak" not in proc.stderr.lower(), proc.stderr
