"""Input files for the samples, made locally: the shipped photos under the names the READMEs download, and generated data.

Each maker takes the destination path (inside the staged sample) and writes one file; nothing is downloaded.
"""
from __future__ import annotations

import json
import os
from typing import Callable

from PIL import Image, ImageDraw, ImageFont

Maker = Callable[[str], None]
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"


def _parent(path: str) -> None:
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)


def photo(name: str, size=None) -> Maker:
    """A shipped photo (e.g. 'chelsea.png') saved as the destination's format, optionally resized to (w, h)."""
    def make(path: str) -> None:
        from acl_teach.toolchain import assets
        _parent(path)
        with Image.open(assets.image(name)) as img:
            img = img.convert("RGB")
            if size:
                img = img.resize(size, Image.BICUBIC)
            img.save(path, quality=95) if path.lower().endswith((".jpg", ".jpeg")) else img.save(path)
    return make


def digit(text: str = "1", size: int = 28) -> Maker:
    """An MNIST-like picture: a white digit on black (LeNet's test1.png)."""
    def make(path: str) -> None:
        _parent(path)
        img = Image.new("RGB", (size, size))
        font = ImageFont.truetype(FONT, size - 6) if os.path.isfile(FONT) else ImageFont.load_default()
        ImageDraw.Draw(img).text((size // 4, 1), text, fill=(255, 255, 255), font=font)
        img.save(path)
    return make


def hole_mask(like: str) -> Maker:
    """An inpainting mask the size of shipped photo ``like``: white (the hole) in a central rectangle, black elsewhere."""
    def make(path: str) -> None:
        from acl_teach.toolchain import assets
        _parent(path)
        with Image.open(assets.image(like)) as ref:
            w, h = ref.size
        img = Image.new("RGB", (w, h))
        ImageDraw.Draw(img).rectangle([w * 3 // 8, h * 3 // 8, w * 5 // 8, h * 5 // 8], fill=(255, 255, 255))
        img.save(path, quality=95)
    return make


# A sports news paragraph (Chinese, > 298 characters, so the sample's tokenizer fills all 300 positions).
SPORTS_TEXT = (
    "北京时间昨晚，中国男子篮球队在亚洲杯小组赛最后一轮比赛中以八十九比七十六战胜对手，以小组第一的身份晋级八强。"
    "比赛一开始，中国队就打出一波十比零的进攻高潮，内线球员连续得分，外线投手也手感火热。第二节对手调整防守策略，"
    "一度将比分追到只差三分，但中国队凭借板凳球员的出色发挥再次拉开差距。下半场中国队加强防守强度，"
    "多次抢断后快攻得手，第三节结束时已经领先十五分。末节主教练让主力球员轮流休息，年轻球员获得了宝贵的上场时间。"
    "赛后主教练表示，球队在防守端的专注程度令人满意，但篮板球和罚球命中率仍需提高。队长在接受采访时说，"
    "全队会认真总结这场比赛的得失，全力备战接下来的淘汰赛，争取在本届亚洲杯上取得好成绩，不辜负球迷的期待。"
    "据悉，八强赛将于后天晚上进行，中国队的对手将在今晚的另一场比赛结束后产生。"
)


def text(content: str = SPORTS_TEXT) -> Maker:
    """A UTF-8 text file (BERT's data/sample.txt)."""
    def make(path: str) -> None:
        _parent(path)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(content)
    return make


def json_file(obj) -> Maker:
    """A JSON file (e.g. a single-operator description the README downloads instead of shipping)."""
    def make(path: str) -> None:
        _parent(path)
        with open(path, "w", encoding="utf-8") as fh:
            json.dump(obj, fh, indent=2)
    return make


def nv12(name: str, size) -> Maker:
    """A shipped photo as a raw NV12 (YUV420SP) file of (w, h), tightly packed, JPEG/BT.601 full range
    (what the vpc_jpeg sample's *_nv12.yuv inputs hold)."""
    def make(path: str) -> None:
        import numpy as np
        from acl_teach.toolchain import assets
        _parent(path)
        w, h = size
        with Image.open(assets.image(name)) as img:
            ycc = np.asarray(img.convert("RGB").resize((w, h), Image.BICUBIC).convert("YCbCr"), np.uint16)
        chroma = ycc[:, :, 1:].reshape(h // 2, 2, w // 2, 2, 2).mean(axis=(1, 3)).round().astype(np.uint8)
        with open(path, "wb") as fh:
            fh.write(ycc[:, :, 0].astype(np.uint8).tobytes() + chroma.tobytes())
    return make


def video(name: str, size, frames: int, codec: str = "h264") -> Maker:
    """A shipped photo, panned, as an Annex-B H.264/H.265 elementary stream of ``frames`` frames at (w, h)
    (the camera clips the video samples download are not ours to ship; PyAV's x264/x265 make these)."""
    def make(path: str) -> None:
        from acl_teach.toolchain import assets
        from acl_teach.toolchain import video as vid
        vid.write_stream(path, [assets.image(name)], size[0], size[1], frames, codec)
    return make


def text_file(content: str) -> Maker:
    """A text file with ``content`` (e.g. an AIPP cfg the README downloads)."""
    return text(content)


def font() -> Maker:
    """A TrueType font (DejaVu Sans Bold) for a sample that ships its own font file, where the checkout lacks it
    (a partial mirror without the blob)."""
    def make(path: str) -> None:
        import shutil
        _parent(path)
        if not os.path.isfile(path):
            shutil.copyfile(FONT, path)
    return make


def mp4(name: str, size, frames: int) -> Maker:
    """A shipped photo, slowly panned, as an MPEG-4 Part 2 .mp4 of ``frames`` frames at (w, h) (OpenCV's mp4v writer:
    what cv2.VideoCapture in the samples reads; the READMEs download camera clips we may not ship)."""
    def make(path: str) -> None:
        import cv2
        import numpy as np
        from acl_teach.toolchain import assets
        _parent(path)
        w, h = size
        with Image.open(assets.image(name)) as img:
            big = np.asarray(img.convert("RGB").resize((w + 2 * frames, h), Image.BICUBIC))[:, :, ::-1]
        writer = cv2.VideoWriter(path, cv2.VideoWriter_fourcc(*"mp4v"), 25, (w, h))
        for i in range(frames):
            writer.write(np.ascontiguousarray(big[:, 2 * i:2 * i + w]))
        writer.release()
    return make


def clip_bin(name: str, size, frames: int) -> Maker:
    """A shipped photo, panned, as ``frames`` RGB frames of (w, h) in float32 [0, 1], raw (the 3D gesture sample's
    video2bin output: frames x h x w x 3 float32)."""
    def make(path: str) -> None:
        import numpy as np
        from acl_teach.toolchain import assets
        _parent(path)
        w, h = size
        with Image.open(assets.image(name)) as img:
            big = np.asarray(img.convert("RGB").resize((w + 2 * frames, h), Image.BICUBIC), np.float32) / 255.0
        clip = np.stack([big[:, 2 * i:2 * i + w] for i in range(frames)])
        clip.astype(np.float32).tofile(path)
    return make
