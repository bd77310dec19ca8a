"""``LedgerView``: the simulator's live resources with the cell that made each; leaks stand out."""
from __future__ import annotations

import html
from typing import List, Tuple

import ipywidgets as w

from .. import backend
from .text import FullText


def _row(e) -> Tuple[str, str, str, str]:
    return (e.kind, e.detail, e.created_at, "alive" if e.alive else f"released by {e.released_by}")


def ledger_rows() -> List[Tuple[str, str, str, str]]:
    """(kind, detail, created at, state) for each live resource (empty where there is no ledger)."""
    return [_row(e) for e in backend.inspector().live() or []]


def leak_rows() -> List[Tuple[str, str, str, str]]:
    """Resources never released by their own call: still alive, or reclaimed implicitly by reset/finalize."""
    return [_row(e) for e in backend.inspector().leaks() or []]


class LedgerView(FullText, w.VBox):
    """Live resources (device/host memory, contexts, streams, buffers, datasets, descs, models)."""

    def __init__(self, after_release: bool = False) -> None:
        self.after_release = after_release
        self.table = w.HTML()
        button = w.Button(description="refresh")
        button.on_click(lambda _: self.refresh())
        super().__init__([button, self.table])
        self.refresh()

    def refresh(self, after_release: bool = None) -> "LedgerView":
        """Read the ledger again; with ``after_release`` everything still alive is a leak."""
        if after_release is not None:
            self.after_release = after_release
        self.rows = ledger_rows()
        self.leaks = leak_rows() if self.after_release else []
        if not backend.inspector().AVAILABLE:
            self.table.value = "<i>the ledger exists only on the simulator</i>"
            return self
        shown = self.leaks if self.after_release else self.rows
        style = "background:#ffd7d7" if self.after_release else ""
        body = "".join(f"<tr style='{style}'>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>"
                       for r in shown)
        title = f"{len(self.leaks)} leak(s)" if self.after_release else f"{len(self.rows)} live resource(s)"
        self.table.value = (f"<b>{title}</b><table><tr><th>kind</th><th>detail</th><th>created at</th>"
                            f"<th>state</th></tr>{body}</table>")
        return self

    def __repr__(self) -> str:
        if self.after_release:
            head = f"LedgerView: {len(self.leaks)} leak(s) — never released by their own call"
            return "\n".join([head] + [f"  {k:<15} {d:<36} {c}  [{s}]" for k, d, c, s in self.leaks])
        head = f"LedgerView: {len(self.rows)} live resource(s)"
        return "\n".join([head] + [f"  {k:<15} {d:<36} {c}" for k, d, c, _ in self.rows])
