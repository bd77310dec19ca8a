"""``DescExplorer`` (pick an input or output, see every acl.mdl.get_* value) and ``DimsView`` (all at once)."""
from __future__ import annotations

import html
from typing import Any, Dict, List, Optional, Tuple

import ipywidgets as w

from .. import trace
from ..model import Desc, Model, TensorInfo, query_desc, query_tensor
from ..spec import dtypes
from ._snapshot import HELD, Owner, failure_html, guarded, notice_html, safe_callback
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


DESTROYED = "this model desc was destroyed"


def _owner(desc: Desc) -> Owner:
    """The ledger entry of the desc's handle: it says in which cell the desc was destroyed."""
    return Owner(desc.model_desc, ("model desc",), DESTROYED)


def _gone(desc: Desc, owner: Owner) -> Optional[str]:
    """The notice once the desc is destroyed (by the step API, or behind its back), else None."""
    return owner.gone() or (f"{DESTROYED} — {HELD}" if desc.destroyed else None)


def _title(desc: Desc) -> str:
    """The desc by the name its handle has in printed code; the raw handle only in a details row."""
    name = html.escape(trace.name_of(desc.model_desc, "model_desc"))
    return (f"<b>{name}</b> of model id {desc.model_id} <details style='display:inline'><summary>handle"
            f"</summary><code>{desc.model_desc:#x}</code></details>")


class DescExplorer(FullText, w.VBox):
    """Choose a model and one of its inputs or outputs; every desc value is shown with the call that gave it.

    Snapshot semantics: every tensor's values are read when the explorer is built, so switching
    after the desc is destroyed still shows them (under 'destroyed in cell [N] — showing what it held
    then'); ``refresh`` re-reads while it lives.
    """

    def __init__(self, model_or_desc: Any) -> None:
        named = model_or_desc if isinstance(model_or_desc, dict) else {"model": model_or_desc}
        if not named:
            raise TypeError("DescExplorer got an empty dict: give it a Model, a Desc, or a dict of them by name")
        self.descs = {name: _desc_of(m) for name, m in named.items()}
        empty = [name for name, d in self.descs.items() if not (d.inputs or d.outputs)]
        if empty:
            raise ValueError(f"the desc of {empty[0]!r} has no inputs or outputs: there is nothing to explore")
        self.snapshots = {(name, kind, t.index): query_tensor(d, kind, t.index)
                          for name, d in self.descs.items()
                          for kind, ts in (("input", d.inputs), ("output", d.outputs)) for t in ts}
        self.owners = {name: _owner(d) for name, d in self.descs.items()}
        self.released: Optional[str] = None
        self.read_failed: Optional[str] = None
        self.failure: Optional[str] = None
        self.model = w.Dropdown(options=list(self.descs), description="model", layout=w.Layout(width="480px"))
        self.choice = w.Dropdown(description="tensor", layout=w.Layout(width="480px"))
        self.title = w.HTML()
        self.notice = w.HTML()
        self.table = w.HTML()
        self.table.add_class("acl-teach-desc")
        self._fill_choices()
        self.model.observe(safe_callback(self, lambda _: self._fill_choices(), "switching model"), names="value")
        self.choice.observe(safe_callback(self, lambda _: self.render(), "switching tensor"), names="value")
        super().__init__(([self.model] if len(self.descs) > 1 else []) +
                         [self.title, self.choice, self.notice, self.table])
        self.add_class("acl-teach-desc-explorer")

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

    def _released_now(self) -> Optional[str]:
        """The notice for the chosen model's desc, or None while it lives."""
        return _gone(self.desc, self.owners[self.model.value])

    @guarded
    def refresh(self) -> "DescExplorer":
        """Ask the desc again for the current choice (while it lives), then redraw."""
        kind, index = self.choice.value
        if not self._released_now():
            try:
                self.snapshots[(self.model.value, kind, index)] = query_tensor(self.desc, kind, index)
            except Exception as exc:  # gone where no ledger tells (a board): keep the snapshot
                self.read_failed = f"reading this model desc failed ({exc}) — {HELD}"
        return self.render()

    def render(self) -> "DescExplorer":
        """Show the snapshot of the current choice."""
        if self.choice.value is None:
            return self
        kind, index = self.choice.value
        snap = self.snapshots[(self.model.value, kind, index)]
        self.fields = snap.values
        self.sources = snap.sources
        self.released = self._released_now() or self.read_failed
        self.failure = None
        self.title.value = _title(self.desc)
        self.notice.value = notice_html(self.released)
        self.table.value = _table([(k, v, self.sources.get(k, "")) for k, v in self.fields.items()])
        return self

    def __repr__(self) -> str:
        kind, index = self.choice.value
        d = self.desc
        lines = [f"DescExplorer: {kind} {index} of {len(d.inputs)} inputs / {len(d.outputs)} outputs"]
        if len(self.descs) > 1:
            lines[0] += f" of model {self.model.value!r}"
        if self.released:
            lines.append(f"  [{self.released}]")
        lines += [f"  {k}: {v}" for k, v in self.fields.items()]
        return "\n".join(lines)


def _tensor(kind: str, values: Dict[str, Any]) -> TensorInfo:
    """A TensorInfo from one query_tensor reading ('1 (ACL_FLOAT16)' -> 1)."""
    code = lambda text: int(str(text).split()[0])  # noqa: E731
    return TensorInfo(values["index"], values["name"], list(values["dims"]), code(values["data_type"]),
                      code(values["format"]), values["size"])


class DimsView(FullText, w.HTML):
    """All inputs and outputs in one table: name, dims, type, format, size.

    Snapshot semantics: the table is what the desc said when built (or last refreshed); once the desc
    is destroyed, ``refresh`` keeps it under 'destroyed in cell [N] — showing what it held then'.
    """

    def __init__(self, desc: Desc) -> None:
        if not isinstance(desc, Desc):
            raise TypeError(f"DimsView takes a Desc (from at.query_desc(model)), not {type(desc).__name__}")
        self.desc = desc
        self.owner = _owner(desc)
        self.released: Optional[str] = None
        self.failure: Optional[str] = None
        self.tensors = [(kind, t) for kind, ts in (("input", desc.inputs), ("output", desc.outputs)) for t in ts]
        super().__init__()
        self.add_class("acl-teach-dims")
        self.render()

    @property
    def rows(self) -> List[Tuple[Any, ...]]:
        """(kind, index, name, dims, data type, format, bytes) per tensor."""
        return [(kind, t.index, t.name, t.dims, t.type_name, dtypes.format_name(t.format), t.size)
                for kind, t in self.tensors]

    @guarded
    def refresh(self) -> "DimsView":
        """Ask the desc again for every tensor while it lives; after it is destroyed keep the snapshot."""
        self.released = _gone(self.desc, self.owner)
        if not self.released:
            self.tensors = [(kind, _tensor(kind, query_tensor(self.desc, kind, t.index).values))
                            for kind, t in self.tensors]
        return self.render()

    def render(self) -> "DimsView":
        """Draw the snapshot: the notice, the desc's name, the table."""
        self.failure = None
        head = "".join(f"<th>{h}</th>" for h in ("", "#", "name", "dims", "data type", "format", "bytes"))
        body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in r) + "</tr>" for r in self.rows)
        self.drawn = f"{notice_html(self.released)}<div>{_title(self.desc)}</div><table><tr>{head}</tr>{body}</table>"
        self.value = self.drawn
        return self

    def _show_failure(self, text: str) -> None:
        """A failed refresh is said above the table it leaves as it was."""
        self.value = failure_html(text) + getattr(self, "drawn", "")

    def text_table(self) -> str:
        """The table as Desc.table() prints it, from this view's snapshot."""
        lines = ["inputs:"] + ["  " + t.row() for kind, t in self.tensors if kind == "input"]
        lines += ["outputs:"] + ["  " + t.row() for kind, t in self.tensors if kind == "output"]
        if self.desc.dynamic_batch:
            lines.append(f"dynamic batch gears: {self.desc.dynamic_batch}")
        if self.desc.dynamic_hw:
            lines.append(f"dynamic image-size gears: {self.desc.dynamic_hw}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        notice = f"\n  [{self.released}]" if self.released else ""
        return "DimsView" + notice + "\n" + self.text_table()
