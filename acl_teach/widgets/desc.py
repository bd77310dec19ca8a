"""``DescExplorer`` (pick an input or output, see every acl.mdl.get_* value) and ``DimsView`` (all at once)."""
from __future__ import annotations

import html
from typing import Any, Dict, List, Tuple

import ipywidgets as w

from ..model import Desc, Model, query_desc, query_tensor
from ..spec import dtypes
from .text import FullText


def _desc_of(model_or_desc: Any) -> Desc:
    if isinstance(model_or_desc, Desc):
        return model_or_desc
    if isinstance(model_or_desc, Model):
        return query_desc(model_or_desc)
    raise TypeError("DescExplorer takes a Model (from load_model), a Desc (from query_desc), or a dict of them "
                    "by name to switch between models")


def fields_for(desc: Desc, kind: str, index: int) -> Dict[str, Any]:
    """Every acl.mdl.get_* value for one input/output, from a recorded query step."""
    return query_tensor(desc, kind, index).values


def _table(rows: List[Tuple[str, Any, str]]) -> str:
    cells = "".join(f"<tr><th style='text-align:left'>{html.escape(k)}</th><td><code>{html.escape(str(v))}</code>"
                    f"</td><td style='color:#666'><code>{html.escape(src)}</code></td></tr>" for k, v, src in rows)
    return f"<table><tr><th></th><th>value</th><th>from the call</th></tr>{cells}</table>"


RELEASED = "this model desc was destroyed — showing the values it held when last read"


class DescExplorer(FullText, w.VBox):
    """Choose a model and one of its inputs or outputs; every desc value is shown with the call that gave it.

    Snapshot semantics: every tensor's values are read when the explorer is built, so switching
    after the desc is destroyed still shows them (under a notice); ``refresh`` re-reads while it lives.
    """

    def __init__(self, model_or_desc: Any) -> None:
        named = model_or_desc if isinstance(model_or_desc, dict) else {"model": model_or_desc}
        self.descs = {name: _desc_of(m) for name, m in named.items()}
        self.snapshots = {(name, kind, t.index): query_tensor(d, kind, t.index)
                          for name, d in self.descs.items()
                          for kind, ts in (("input", d.inputs), ("output", d.outputs)) for t in ts}
        self.released = False
        self.model = w.Dropdown(options=list(self.descs), description="model", layout=w.Layout(width="480px"))
        self.choice = w.Dropdown(description="tensor", layout=w.Layout(width="480px"))
        self.notice = w.HTML()
        self.table = w.HTML()
        self.table.add_class("acl-teach-desc")
        self._fill_choices()
        self.model.observe(lambda _: self._fill_choices(), names="value")
        self.choice.observe(lambda _: self.render(), names="value")
        super().__init__(([self.model] if len(self.descs) > 1 else []) + [self.choice, self.notice, self.table])

    @property
    def desc(self) -> Desc:
        """The desc of the chosen model."""
        return self.descs[self.model.value]

    def _fill_choices(self) -> None:
        d = self.desc
        options = [(f"input {t.index}: {t.name}", ("input", t.index)) for t in d.inputs]
        options += [(f"output {t.index}: {t.name}", ("output", t.index)) for t in d.outputs]
        self.choice.options = options
        self.choice.value = options[0][1]
        self.render()  # the first choice of another model may equal the last one's: no change event

    def refresh(self) -> "DescExplorer":
        """Ask the desc again for the current choice (while it lives), then redraw."""
        kind, index = self.choice.value
        self.released = self.desc.destroyed
        if not self.released:
            try:
                self.snapshots[(self.model.value, kind, index)] = query_tensor(self.desc, kind, index)
            except Exception:  # a desc destroyed behind the step API's back: keep the snapshot
                self.released = True
        return self.render()

    def render(self) -> "DescExplorer":
        """Show the snapshot of the current choice."""
        if self.choice.value is None:
            return self
        kind, index = self.choice.value
        snap = self.snapshots[(self.model.value, kind, index)]
        self.fields = snap.values
        self.sources = snap.sources
        self.released = self.released or self.desc.destroyed
        self.notice.value = f"<i style='color:#a00'>{RELEASED}</i>" if self.released else ""
        self.table.value = _table([(k, v, self.sources.get(k, "")) for k, v in self.fields.items()])
        return self

    def __repr__(self) -> str:
        kind, index = self.choice.value
        d = self.desc
        lines = [f"DescExplorer: {kind} {index} of {len(d.inputs)} inputs / {len(d.outputs)} outputs"]
        if len(self.descs) > 1:
            lines[0] += f" of model {self.model.value!r}"
        if self.released:
            lines.append(f"  [{RELEASED}]")
        lines += [f"  {k}: {v}" for k, v in self.fields.items()]
        return "\n".join(lines)


class DimsView(FullText, w.HTML):
    """All inputs and outputs in one table: name, dims, type, format, size."""

    def __init__(self, desc: Desc) -> None:
        self.desc = desc
        self.rows = [(kind, t.index, t.name, t.dims, t.type_name, dtypes.format_name(t.format), t.size)
                     for kind, ts in (("input", desc.inputs), ("output", desc.outputs)) for t in ts]
        head = "".join(f"<th>{h}</th>" for h in ("", "#", "name", "dims", "data type", "format", "bytes"))
        body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in r) + "</tr>" for r in self.rows)
        super().__init__(f"<table><tr>{head}</tr>{body}</table>")

    def __repr__(self) -> str:
        return "DimsView\n" + self.desc.table()
