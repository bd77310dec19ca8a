"""Small matplotlib pictures for the notebooks: preprocessing, channels, time per step, callbacks, throughput.

Each function returns an ``IPython.display.Image`` (a PNG drawn with matplotlib's Agg canvas), never a pyplot
figure: no global backend is touched, the notebook stores a plain PNG that every viewer shows, and the cell's
text output is the same on every run (nbval compares text, not PNGs), even when the numbers drawn are timings.
Labels are bilingual when matplotlib knows a CJK font, English only otherwise (no empty boxes for 中文).
"""
from __future__ import annotations

import contextlib
import functools
import io
from typing import Mapping, Sequence, Tuple, Union

import numpy as np

Text = Union[str, Tuple[str, str]]
CJK_FONTS = ("Noto Sans CJK SC", "Noto Sans SC", "WenQuanYi Micro Hei", "WenQuanYi Zen Hei", "Source Han Sans SC",
             "Microsoft YaHei", "PingFang SC", "SimHei")
RED, GREY, BLUE = "#c7000b", "#5a5a5a", "#1f6fb4"


@functools.lru_cache(maxsize=1)
def cjk_font() -> str:
    """A font matplotlib can draw Chinese with, or '' — so labels never show empty boxes."""
    from matplotlib import font_manager
    known = {f.name for f in font_manager.fontManager.ttflist}
    return next((name for name in CJK_FONTS if name in known), "")


def label(text: Text) -> str:
    """'English · 中文' when a CJK font exists, else the English: one picture serves both editions."""
    if isinstance(text, str):
        return text
    en, zh = text
    return f"{en} · {zh}" if cjk_font() else en


@contextlib.contextmanager
def _style():
    """Fonts with a CJK fallback, set only while one picture is drawn (no global rcParams change)."""
    import matplotlib
    fonts = ["DejaVu Sans"] + ([cjk_font()] if cjk_font() else [])
    with matplotlib.rc_context({"font.family": fonts, "font.size": 10, "axes.spines.top": False,
                                "axes.spines.right": False}):
        yield


def _figure(width: float, height: float):
    """A Figure on the Agg canvas, outside pyplot, so nothing leaks between cells."""
    from matplotlib.figure import Figure
    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def _png(fig):
    """The figure as a PNG Image for display (the return value of every public function)."""
    from IPython.display import Image
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, metadata={"Software": None})
    return Image(data=buf.getvalue(), format="png")


def pictures(panels: Sequence[Tuple[np.ndarray, Text]], title: Text = "") -> "object":
    """Images side by side, each with a caption: the photo before and after preprocessing."""
    with _style():
        fig = _figure(3.4 * len(panels), 4.2)
        for ax, (image, caption) in zip(fig.subplots(1, len(panels), squeeze=False)[0], panels):
            ax.imshow(image)
            ax.set_title(label(caption), fontsize=8.5, loc="left")
            ax.set_axis_off()
        if title:
            fig.suptitle(label(title), fontsize=11)
        return _png(fig)


def channels(rows: Sequence[Tuple[Text, np.ndarray, Sequence[str]]]) -> "object":
    """Each channel of a [3, H, W] tensor as a grey image, named and with its value range — one row per tensor."""
    with _style():
        fig = _figure(9.6, 3.2 * len(rows))
        grid = fig.subplots(len(rows), 3, squeeze=False)
        for (title, tensor, names), axes in zip(rows, grid):
            planes = np.asarray(tensor, dtype=np.float32).reshape(3, *np.shape(tensor)[-2:])
            for c, (ax, plane, name) in enumerate(zip(axes, planes, names)):
                ax.imshow(plane, cmap="gray", vmin=float(plane.min()), vmax=float(plane.max()))
                ax.set_title(f"{label(title)}\n[{c}] {name}: {plane.min():.2f} … {plane.max():.2f}", fontsize=9)
                ax.set_axis_off()
        return _png(fig)


def step_times(took_ms: Mapping[str, float]) -> "object":
    """Milliseconds per step as horizontal bars, first step on top; a log axis so the small steps stay visible."""
    names, values = list(took_ms), [max(float(v), 1e-3) for v in took_ms.values()]
    with _style():
        fig = _figure(7.5, 0.36 * len(names) + 1.2)
        ax = fig.subplots()
        ax.barh(range(len(names))[::-1], values, color=RED)
        ax.set_yticks(range(len(names))[::-1], names)
        ax.set_xscale("log")
        ax.set_xlabel(label(("time per step, ms (log scale)", "每一步的耗时，毫秒（对数坐标）")))
        for y, v in zip(range(len(names))[::-1], values):
            ax.text(v * 1.1, y, f"{v:.2f}", va="center", fontsize=8, color=GREY)
        ax.set_xlim(min(values) / 2, max(values) * 4)
        return _png(fig)


def callback_timeline(launched: Mapping[int, float], called: Mapping[int, float], synced: float,
                      names: Sequence[str] = ()) -> "object":
    """When each execute_async + launch_callback returned, and when its callback ran (seconds from the first launch)."""
    items = sorted(launched)
    ticks = [names[i] if i < len(names) else str(i) for i in items]
    with _style():
        fig = _figure(7.5, 0.5 * len(items) + 2.0)
        ax = fig.subplots()
        for row, i in enumerate(items):
            y = len(items) - 1 - row
            ax.plot([launched[i] * 1e3, called[i] * 1e3], [y, y], color="#bbbbbb", zorder=1)
            ax.scatter([launched[i] * 1e3], [y], marker="o", color=BLUE, zorder=2,
                       label=label(("queued (execute_async + launch_callback returned)", "已入队")) if row == 0 else None)
            ax.scatter([called[i] * 1e3], [y], marker="s", color=RED, zorder=2,
                       label=label(("callback ran", "回调执行")) if row == 0 else None)
        ax.axvline(synced * 1e3, color=GREY, linestyle="--",
                   label=label(("synchronize_stream returned", "synchronize_stream 返回")))
        ax.set_yticks(range(len(items))[::-1], ticks)
        ax.set_xlabel(label(("ms since the first launch", "自第一次下发起的毫秒数")))
        fig.legend(loc="outside lower center", fontsize=8, frameon=False, ncol=1)
        return _png(fig)


def throughput(images_per_s: Mapping[int, float]) -> "object":
    """Images per second against batch size: what each gear of a dynamic-batch model delivers here."""
    batches, rates = list(images_per_s), [float(v) for v in images_per_s.values()]
    with _style():
        fig = _figure(6.0, 3.4)
        ax = fig.subplots()
        ax.plot(batches, rates, marker="o", color=RED)
        for b, r in zip(batches, rates):
            ax.annotate(f"{r:.0f}", (b, r), textcoords="offset points", xytext=(0, 6), ha="center", fontsize=8)
        ax.set_xscale("log", base=2)
        ax.set_xticks(batches, [str(b) for b in batches])
        ax.set_ylim(0, max(rates) * 1.25)
        ax.set_xlabel(label(("batch size (gear)", "Batch 大小（档位）")))
        ax.set_ylabel(label(("images per second", "每秒图片数")))
        return _png(fig)


__all__ = ["cjk_font", "label", "pictures", "channels", "step_times", "callback_timeline", "throughput"]
