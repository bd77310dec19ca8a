"""Success checks beyond exit code and regexes: results the samples print or write, read back and judged.

A check is ``check(output, sample_dir) -> (ok, detail)``: ``output`` is stdout + stderr, ``detail``
a short phrase for the report (what was seen, or why it is wrong).
"""
from __future__ import annotations

import os
import re
from typing import Callable, Dict, Iterable, List, Optional, Tuple

import numpy as np

Check = Callable[[str, str], Tuple[bool, str]]
CATS = frozenset(range(281, 286))  # ImageNet: tabby, tiger cat, Persian, Siamese, Egyptian cat
ESPRESSO = frozenset({967})


def top1s(output: str, class_re: str, image_re: Optional[str] = None) -> List[Tuple[Optional[str], int]]:
    """(image, class) for the first class line after each 'top5' header, with the last image line seen."""
    found, image, want = [], None, False
    for line in output.splitlines():
        if image_re and re.search(image_re, line):
            image = os.path.basename(re.search(image_re, line).group(1).strip())
        if "top5 inference results" in line:
            want = True
            continue
        m = re.match(class_re, line.strip())
        if want and m:
            found.append((image, int(m.group(1))))
            want = False
    return found


def imagenet_top1(expected: Dict[str, Iterable[int]], image_re: Optional[str] = r"images:(\S+)",
                  count: Optional[int] = None) -> Check:
    """Each result's top-1 is in its image's expected classes (any image's, each seen, when no names are printed)."""
    allowed = {k: frozenset(v) for k, v in expected.items()}
    anything = frozenset().union(*allowed.values())

    def check(output: str, sample_dir: str) -> Tuple[bool, str]:
        results = top1s(output, r"^\[(\d+)\]:", image_re)
        want = len(allowed) if count is None else count
        if len(results) != want:
            return False, f"{len(results)} top-5 results printed, expected {want}"
        wrong = [(img, c) for img, c in results if c not in allowed.get(img or "", anything)]
        if image_re is None:  # no names printed: each image must still show up among the results
            wrong += [("never seen", sorted(v)) for v in allowed.values() if not v & {c for _, c in results}]
        seen = ", ".join(f"{img}: {c}" if img else str(c) for img, c in results)
        return (not wrong), f"top-1 {seen}" + (f"; wrong: {wrong}" if wrong else "")
    return check


def labels_printed(count: int) -> Check:
    """An acllite classifier printed a top-5 block per image (the substitute's classes mean nothing)."""
    def check(output: str, sample_dir: str) -> Tuple[bool, str]:
        results = top1s(output, r"^label:(\d+)", r"images:(\S+)")
        ok = len(results) == count
        return ok, f"{len(results)} of {count} images classified (top-1 {[c for _, c in results]})"
    return check


def files_written(*paths: str) -> Check:
    """The sample wrote these result files (relative to the sample dir), non-empty."""
    def check(output: str, sample_dir: str) -> Tuple[bool, str]:
        missing = [p for p in paths if not os.path.isfile(os.path.join(sample_dir, p))
                   or not os.path.getsize(os.path.join(sample_dir, p))]
        return (not missing), f"missing result files {missing}" if missing else f"wrote {', '.join(paths)}"
    return check


def _matrix(text: str) -> np.ndarray:
    rows = re.findall(r"\[([-\d\s]+)\]", text)
    return np.array([[int(v) for v in row.split()] for row in rows])


def add_result(output: str, sample_dir: str) -> Tuple[bool, str]:
    """acl_operator_add: the printed 'ACL output' equals factor_a + factor_b (both printed before)."""
    m = re.search(r"factor_a:\s*(\[\[.*?\]\])\s*factor_b:\s*(\[\[.*?\]\])", output, re.S)
    out = re.search(r"ACL output:\s*(\[\[.*?\]\])", output, re.S)
    if not m or not out:
        return False, "factor_a / factor_b / ACL output not printed"
    a, b, c = _matrix(m.group(1)), _matrix(m.group(2)), _matrix(out.group(1))
    if a.shape != (8, 16) or c.shape != a.shape:
        return False, f"unexpected shapes {a.shape} / {c.shape}"
    return bool((a + b == c).all()), "ACL output == a + b" if (a + b == c).all() else "ACL output != a + b"


def all_of(*checks: Check) -> Check:
    """Every check passes; details joined."""
    def check(output: str, sample_dir: str) -> Tuple[bool, str]:
        results = [c(output, sample_dir) for c in checks]
        return all(ok for ok, _ in results), "; ".join(d for _, d in results)
    return check


def top1_every(classes: Iterable[int], count: int) -> Check:
    """``count`` top-5 blocks ('label:N' lines), each with its top-1 in ``classes`` (the vdec sample's frames)."""
    allowed = frozenset(classes)

    def check(output: str, sample_dir: str) -> Tuple[bool, str]:
        found = [c for _, c in top1s(output, r"^label:\s*(\d+)")]
        ok = len(found) == count and all(c in allowed for c in found)
        return ok, f"{len(found)} of {count} frames classified, top-1 {found}"
    return check


def video_frames(path: str, codec: str, count: int) -> Check:
    """The sample wrote an elementary stream (relative to the sample dir) that FFmpeg decodes to ``count`` frames."""
    def check(output: str, sample_dir: str) -> Tuple[bool, str]:
        full = os.path.join(sample_dir, path)
        if not os.path.isfile(full) or not os.path.getsize(full):
            return False, f"missing result file {path}"
        from acl_teach.toolchain import video
        with open(full, "rb") as fh:
            frames = video.decode_nv12([fh.read()], codec)
        return len(frames) == count, f"{path}: {len(frames)} {codec} frames decoded (want {count})"
    return check


def _edges(img: np.ndarray, box: Tuple[int, int, int, int], shift: int) -> List[np.ndarray]:
    """The BGR pixels of each of box's four 1-pixel edges moved ``shift`` outward, corners left out (text may sit
    there) and clipped to the image; an edge off the picture gives none (there is nothing drawn to see)."""
    height, width = img.shape[:2]
    x1, y1, x2, y2 = box
    xs = slice(max(x1 + 8, 0), min(x2 - 8, width))
    ys = slice(max(y1 + 8, 0), min(y2 - 8, height))
    none = img[:0, 0]
    top, bottom, left, right = y1 - shift, y2 + shift, x1 - shift, x2 + shift
    return [img[y, xs] if 0 <= y < height else none for y in (top, bottom)] + \
           [img[ys, x] if 0 <= x < width else none for x in (left, right)]


def _distance(img: np.ndarray, box: Tuple[int, int, int, int], bgr) -> float:
    """How far the outline's median pixel is from ``bgr``: each edge taken 1 pixel in, on, or 1 out, whichever is
    nearest (cv2 truncates each float corner on its own); inf when no edge lies in the picture."""
    def far(pixels: np.ndarray) -> float:
        return float(np.linalg.norm(np.median(pixels, axis=0) - bgr)) if len(pixels) else np.inf
    candidates = zip(*(_edges(img, box, shift) for shift in (-1, 0, 1)))  # per edge: its three lines
    return far(np.concatenate([min(lines, key=far) for lines in candidates]))


def box_drawn(path: str, box: Tuple[int, int, int, int], bgr: Tuple[int, int, int],
              absent: Iterable[Tuple[int, int, int, int]] = (), tolerance: float = 40.0) -> Check:
    """The result picture (relative to the sample dir) has a ``bgr`` outline on ``box`` (x1, y1, x2, y2 in its
    pixels): the median edge pixel within ``tolerance`` of the colour (JPEG blurs a 2-pixel line) and at least 25
    nearer than on the outline 6 pixels inside (the picture itself, which might be near the colour); no such outline
    on the ``absent`` boxes. What the sample's drawing code makes of the substitute's detections."""
    def check(output: str, sample_dir: str) -> Tuple[bool, str]:
        from PIL import Image
        full = os.path.join(sample_dir, path)
        if not os.path.isfile(full):
            return False, f"missing result picture {path}"
        with Image.open(full) as picture:
            img = np.asarray(picture.convert("RGB"))[:, :, ::-1].astype(np.float64)  # BGR, as the samples draw
        off = [_distance(img, b, bgr) for b in (box, *absent)]
        inside = _distance(img, (box[0] + 6, box[1] + 6, box[2] - 6, box[3] - 6), bgr)
        drawn = [d <= tolerance for d in off]
        ok = drawn[0] and off[0] + 25 <= inside and not any(drawn[1:])
        seen = f"{path}: box {box} in {bgr} (median edge {off[0]:.0f} away, {inside:.0f} inside)"
        return ok, seen + "".join(f"; {b} {'also drawn' if d else 'not drawn'} ({o:.0f})"
                                  for b, d, o in zip(absent, drawn[1:], off[1:]))
    return check


def box_in_frames(folder: str, count: int, box: Tuple[int, int, int, int], bgr: Tuple[int, int, int]) -> Check:
    """``count`` result pictures in ``folder`` (relative to the sample dir), each with box_drawn's outline."""
    def check(output: str, sample_dir: str) -> Tuple[bool, str]:
        full = os.path.join(sample_dir, folder)
        names = sorted(n for n in os.listdir(full) if n.endswith(".jpg")) if os.path.isdir(full) else []
        if len(names) != count:
            return False, f"{len(names)} pictures in {folder}, expected {count}"
        results = [box_drawn(os.path.join(folder, n), box, bgr)(output, sample_dir) for n in names]
        bad = [n for n, (ok, _) in zip(names, results) if not ok]
        return (not bad), (f"{count} frames in {folder}, each with box {box} in {bgr}" if not bad
                           else f"no box in {bad[:3]}: {results[names.index(bad[0])][1]}")
    return check
