"""``DescExplorer`` (pick an input or output, see every acl.mdl.get_* value) and ``DimsView`` (all at once)."""
from __future__ import annotations

import html
from typing import Any, Dict, List, Tuple

import ipywidgets as w

from ..model import Desc, Model, query_desc, query_tensor
from ..spec import dtypes


def _desc_of(model_or_desc: Any) -> Desc:
    if isinstance(model_or_desc, Desc):
        return model_or_desc
    if isinstance(model_or_desc, Model):
        return query_desc(model_or_desc)
    raise TypeError("DescExplorer takes a Model (from load_model) or a Desc (from query_desc)")


def fields_for(desc: Desc, kind: str, index: int) -> Dict[str, Any]:
    """Every acl.mdl.get_* value for one input/output, from a recorded query step."""
    return query_tensor(desc, kind, index).values


def _table(rows: List[Tuple[str, Any]]) -> str:
    cells = "".join(f"<tr><th style='text-align:left'>{html.escape(k)}</th><td><code>{html.escape(str(v))}</code>"
                    f"</td></tr>" for k, v in rows)
    return f"<table>{cells}</table>"


class DescExplorer(w.VBox):
    """Choose an input or output; every desc value for it is shown (works on dynamic models too)."""

    def __init__(self, model_or_desc: Any) -> None:
        self.desc = _desc_of(model_or_desc)
        options = [(f"input {t.index}: {t.name}", ("input", t.index)) for t in self.desc.inputs]
        options += [(f"output {t.index}: {t.name}", ("output", t.index)) for t in self.desc.outputs]
        self.choice = w.Dropdown(options=options, description="tensor", layout=w.Layout(width="480px"))
        self.table = w.HTML()
        self.table.add_class("acl-teach-desc")
        self.choice.observe(lambda _: self.refresh(), names="value")
        super().__init__([self.choice, self.table])
        self.refresh()

    def refresh(self) -> "DescExplorer":
        """Query the values for the current choice again."""
        kind, index = self.choice.value
        self.fields = fields_for(self.desc, kind, index)
        self.table.value = _table(list(self.fields.items()))
        return self

    def __repr__(self) -> str:
        kind, index = self.choice.value
        lines = [f"DescExplorer: {kind} {index} of {len(self.desc.inputs)} inputs / {len(self.desc.outputs)} outputs"]
        lines += [f"  {k}: {v}" for k, v in self.fields.items()]
        return "\n".join(lines)


class DimsView(w.HTML):
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
