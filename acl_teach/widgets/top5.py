"""``Top5View``: horizontal bars of the top-k classes with names and probabilities, beside the image.

The bars are HTML (crisp at any zoom, and readable by a browser test); ``figure()`` gives the same
chart as a matplotlib Figure for saving.
"""
from __future__ import annotations

import html
import io
from typing import Any, List, Optional, Sequence

import ipywidgets as w

from ..results import TopK
from ._snapshot import guarded
from .text import FullText


def bars_html(bars: Sequence[tuple]) -> str:
    """One labelled bar per class, best first."""
    rows = []
    for label, prob in bars:
        rows.append(f"<div class='acl-teach-bar' style='display:flex;align-items:center;margin:2px 0'>"
                    f"<span class='acl-teach-bar-label' style='width:190px'>{html.escape(label)}</span>"
                    f"<span style='display:inline-block;height:14px;width:{max(1, int(prob * 240))}px;"
                    f"background:#c7000b'></span>"
                    f"<span class='acl-teach-bar-prob' style='margin-left:6px'>{prob:.4f}</span></div>")
    return "<div class='acl-teach-top5'>" + "".join(rows) + "</div>"


def top5_bars(result: TopK, labels: Optional[List[str]] = None) -> List[tuple]:
    """("index name", probability) per class, copied out of the result: the bars every view draws."""
    names = [labels[p.index] if labels and p.index < len(labels) else p.label for p in result.top]
    return [(f"{p.index} {name.split(',')[0]}", round(p.prob, 4)) for p, name in zip(result.top, names)]


def figure(labels: Sequence[str], probs: Sequence[float]):
    """The bar chart as a matplotlib Figure, best class on top."""
    from matplotlib.figure import Figure
    fig = Figure(figsize=(5, 0.45 * len(labels) + 0.6), dpi=80)
    ax = fig.add_subplot()
    ax.barh(range(len(labels))[::-1], probs, color="#c7000b")
    ax.set_yticks(range(len(labels))[::-1], labels)
    ax.set_xlim(0, 1)
    ax.set_xlabel("probability")
    fig.tight_layout()
    return fig


class Top5View(FullText, w.HBox):
    """The top-k bars; with ``image`` (a path), the photo beside them.

    Snapshot semantics: the bars are copied out of the result when the view is built (plain Python
    numbers on the host), so releasing the output buffers, the model or the whole process later never
    changes or breaks them, and ``refresh`` redraws the snapshot without reading any memory.
    """

    def __init__(self, result: TopK, labels: Optional[List[str]] = None, image: Optional[str] = None) -> None:
        if not isinstance(result, TopK):
            raise TypeError(f"Top5View takes a TopK (from at.top_k(scores, 5)), not {type(result).__name__}")
        if labels is not None and not isinstance(labels, (list, tuple)):
            raise TypeError(f"labels must be a list of class names, not {type(labels).__name__}")
        self.result = result
        self.failure: Optional[str] = None
        self.bars = top5_bars(result, labels)
        self.chart = w.HTML()
        children: List[Any] = []
        if image:
            from .. import load_image
            img = load_image(image)
            img.thumbnail((224, 224))
            buf = io.BytesIO()
            img.save(buf, "PNG")
            children.append(w.Image(value=buf.getvalue(), format="png"))
        children.append(self.chart)
        super().__init__(children)
        self.refresh()

    @guarded
    def refresh(self) -> "Top5View":
        """Redraw the bars from the snapshot (a result is host data: there is nothing to re-read)."""
        self.failure = None
        self.chart.value = bars_html(self.bars)
        return self

    def _show_failure(self, text: str) -> None:
        """A failed redraw is said where the bars are."""
        self.chart.value = f"<b style='color:#a00'>{html.escape(text)}</b>"

    def figure(self):
        """The bars as a matplotlib Figure (e.g. to save as PNG)."""
        return figure([b[0] for b in self.bars], [b[1] for b in self.bars])

    def __repr__(self) -> str:
        return "Top5View\n" + "\n".join(f"  {label:<32} {'#' * int(round(p * 30)):<30} {p:.4f}"
                                        for label, p in self.bars)
