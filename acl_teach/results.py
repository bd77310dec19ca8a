"""Top-k out: softmax only when the model gives logits, ImageNet names, and the official print format."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from .step import Step


@dataclass
class Prediction:
    """One class: index, name, probability."""

    index: int
    label: str
    prob: float


@dataclass(repr=False)
class TopK(Step):
    """The k most likely classes, best first."""

    top: List[Prediction] = field(default_factory=list)
    softmax_applied: bool = False

    def shown(self):
        return [("top", [f"{p.index} {p.label.split(',')[0]} {p.prob:.4f}" for p in self.top]),
                ("softmax_applied", self.softmax_applied)]

    def sample_format(self) -> str:
        """The official ResNet-50 sample's print-out."""
        lines = ["======== top5 inference results: ============="]
        lines += ["[%d]: %f" % (p.index, p.prob) for p in self.top]
        return "\n".join(lines)

    def as_json(self) -> List[Dict[str, Any]]:
        return [{"index": p.index, "label": p.label, "prob": round(p.prob, 6)} for p in self.top]


def softmax(x: np.ndarray) -> np.ndarray:
    """Numerically stable softmax over the last axis."""
    z = x.astype(np.float64) - np.max(x, axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


def looks_like_probabilities(x: np.ndarray) -> bool:
    """Non-negative and summing to 1 per row (a model that already ends in softmax)."""
    x = x.astype(np.float64)
    return bool(x.min() >= 0 and np.allclose(x.sum(axis=-1), 1.0, atol=1e-2))


def top_k(scores: Any, k: int = 5, labels: Optional[Sequence[str]] = None, output: Optional[str] = None,
          row: int = 0) -> TopK:
    """Top-k of one image's scores; ``output`` 'logits'/'probabilities' from the recipe, else guessed."""
    x = np.asarray(scores, dtype=np.float64)
    x = x.reshape(x.shape[0], -1)[row] if x.ndim > 1 else x
    rec = TopK()
    if output == "logits" or (output is None and not looks_like_probabilities(x)):
        x = softmax(x)
        rec.softmax_applied = True
    order = np.argsort(-x, kind="stable")[:k]
    rec.top = [Prediction(int(i), labels[i] if labels is not None and i < len(labels) else str(int(i)), float(x[i]))
               for i in order]
    return rec
