"""Small matplotlib pictures for the notebooks: preprocessing, channels, time per step, callbacks, throughput,
a profiling timeline.

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


TASK_COLOURS = {"memcpy": BLUE, "model": RED, "event": GREY, "callback": "#8c6d1f", "range": "#2e8b57",
                "mark": "#2e8b57"}
OP_PALETTE = ("#c7000b", "#1f6fb4", "#e69f00", "#2e8b57", "#8c6d1f", "#7b3294")


def _lanes(events: Sequence[Mapping]) -> dict:
    """Lane name by Chrome-trace tid (from the thread_name metadata), in the file's order."""
    lanes = {ev.get("tid"): str(ev.get("args", {}).get("name", ev.get("tid")))
             for ev in events if ev.get("ph") == "M" and ev.get("name") == "thread_name"}
    return {tid: "your program (msproftx)" if name.endswith("(msproftx)") else name for tid, name in lanes.items()}


def _rows(events: Sequence[Mapping], lanes: dict) -> list:
    """(row label, [events]) top to bottom: each lane, and under a lane its operators on a row of their own."""
    rows = []
    for tid, name in lanes.items():
        mine = [ev for ev in events if ev.get("tid") == tid and ev.get("ph") in ("X", "i")]
        tasks, ops = [ev for ev in mine if ev.get("cat") != "op"], [ev for ev in mine if ev.get("cat") == "op"]
        if tasks:
            rows.append((name, tasks))
        if ops:
            rows.append((name + " · operators", ops))
    return rows


def trace_timeline(doc: Mapping, title: Text = "", names: Mapping[str, str] = None) -> "object":
    """A Chrome-trace document (acl.prof's trace_view.json) as lanes of bars: tasks, operators by type, marks.

    ``names`` relabels lanes (``{"stream 0x…": "copy stream"}``); a lane not named keeps the file's name.
    """
    events = [ev for ev in doc.get("traceEvents", []) if isinstance(ev, Mapping)]
    timed = [ev for ev in events if ev.get("ph") in ("X", "i")]
    lanes = {tid: (names or {}).get(name, name) for tid, name in _lanes(events).items()}
    rows = _rows(events, lanes)
    if not timed or not rows:
        raise ValueError("the trace holds no timed events: was anything run between start and stop?")
    t0 = min(float(ev["ts"]) for ev in timed)
    span = max(float(ev["ts"]) + float(ev.get("dur", 0.0)) for ev in timed) - t0
    ops = [ev for ev in timed if ev.get("cat") == "op"]
    by_type: dict = {}
    for ev in ops:
        by_type[ev.get("args", {}).get("type", "?")] = by_type.get(ev.get("args", {}).get("type", "?"), 0.0) + \
            float(ev.get("dur", 0.0))
    top = sorted(by_type, key=lambda t: -by_type[t])[:len(OP_PALETTE) - 1]
    colour = {t: OP_PALETTE[i] for i, t in enumerate(top)}
    with _style():
        fig = _figure(9.0, 0.55 * len(rows) + 2.2)
        ax = fig.subplots()
        for row, (name, evs) in enumerate(rows):
            y = len(rows) - 1 - row
            bars: dict = {}  # (colour, edge) -> spans: one collection per colour and lane, not one per event
            for ev in evs:
                x, w = (float(ev["ts"]) - t0) / 1e3, float(ev.get("dur", 0.0)) / 1e3
                if ev.get("ph") == "i":
                    ax.plot([x, x], [y - 0.4, y + 0.4], color=TASK_COLOURS["mark"], linewidth=1.5)
                    ax.annotate(str(ev.get("name", ""))[:24], (x, y + 0.42), fontsize=7, ha="left")
                    continue
                c = colour.get(ev.get("args", {}).get("type"), "#bbbbbb") if ev.get("cat") == "op" else \
                    TASK_COLOURS.get(ev.get("cat"), GREY)
                bars.setdefault((c, "none" if ev.get("cat") == "op" else "white"), []).append((x, max(w, 1e-4)))
                if ev.get("cat") != "op" and w * 1e3 > 0.08 * span:
                    ax.annotate(str(ev.get("name", ""))[:28], (x, y + 0.38), fontsize=7, ha="left")
            for (c, edge), spans in bars.items():
                ax.broken_barh(spans, (y - 0.35, 0.7), facecolors=c, edgecolor=edge, linewidth=0.8)
        ax.set_yticks(range(len(rows))[::-1], [n for n, _ in rows], fontsize=8)
        ax.set_xlim(-0.01 * span / 1e3, 1.02 * span / 1e3)
        ax.set_xlabel(label(("ms since the first recorded task", "自第一个记录的任务起的毫秒数")))
        handles = [ax.bar(0, 0, color=colour[t], label=t) for t in top]
        if handles:
            fig.legend(fontsize=7, frameon=False, loc="outside right upper", title=label(("operator types", "算子类型")),
                       title_fontsize=7)
        if title:
            ax.set_title(label(title), fontsize=10)
        return _png(fig)


__all__ = ["cjk_font", "label", "pictures", "channels", "step_times", "callback_timeline", "throughput",
           "trace_timeline"]
