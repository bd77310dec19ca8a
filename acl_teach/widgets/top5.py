"""``Top5View``: horizontal bars of the top-k classes with names and probabilities, beside the image."""
from __future__ import annotations

import io
from typing import Any, List, Optional, Sequence

import ipywidgets as w

from ..results import TopK


def bars_png(labels: Sequence[str], probs: Sequence[float]) -> bytes:
    """A small matplotlib bar chart, best class on top."""
    import matplotlib
    matplotlib.use("Agg", force=False)
    from matplotlib.figure import Figure
    fig = Figure(figsize=(5, 0.45 * len(labels) + 0.6), dpi=80)
    ax = fig.add_subplot()
    ax.barh(range(len(labels))[::-1], probs, color="#c7000b")
    ax.set_yticks(range(len(labels))[::-1], labels)
    ax.set_xlim(0, 1)
    ax.set_xlabel("probability")
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()


class Top5View(w.HBox):
    """The top-k bars; with ``image`` (a path), the photo beside them."""

    def __init__(self, result: TopK, labels: Optional[List[str]] = None, image: Optional[str] = None) -> None:
        self.result = result
        names = [labels[p.index] if labels and p.index < len(labels) else p.label for p in result.top]
        self.bars = [(f"{p.index} {name.split(',')[0]}", round(p.prob, 4)) for p, name in zip(result.top, names)]
        children: List[Any] = []
        if image:
            from ..images import load_image
            img = load_image(image)
            img.thumbnail((224, 224))
            buf = io.BytesIO()
            img.save(buf, "PNG")
            children.append(w.Image(value=buf.getvalue(), format="png"))
        children.append(w.Image(value=bars_png([b[0] for b in self.bars], [b[1] for b in self.bars]), format="png"))
        super().__init__(children)

    def __repr__(self) -> str:
        return "Top5View\n" + "\n".join(f"  {label:<32} {'#' * int(round(p * 30)):<30} {p:.4f}"
                                        for label, p in self.bars)
