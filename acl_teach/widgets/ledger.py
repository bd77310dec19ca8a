"""``LedgerView``: the simulator's live resources with the cell that made each; leaks stand out."""
from __future__ import annotations

import html
from typing import Any, List, Optional, Tuple

import ipywidgets as w

from .. import backend, trace
from ._snapshot import guarded, live_entries, notice_html, safe_callback, where_released
from .text import FullText


def _row(e) -> Tuple[str, str, str, str]:
    return (e.kind, e.detail, e.created_at, "alive" if e.alive else f"released by {e.released_by}")


def ledger_rows() -> List[Tuple[str, str, str, str]]:
    """(kind, detail, created at, state) for each live resource (empty where there is no ledger)."""
    return [_row(e) for e in backend.inspector().live() or []]


def leak_rows() -> List[Tuple[str, str, str, str]]:
    """Resources never released by their own call: still alive, or reclaimed implicitly by reset/finalize."""
    return [_row(e) for e in backend.inspector().leaks() or []]


def _acl_entry(entries: Optional[List[Any]]) -> Optional[Any]:
    """acl.init's own ledger record, if the process is initialised."""
    return next((e for e in entries or [] if e.kind == "acl"), None)


def what_happened(seen: List[Any], acl_entry: Optional[Any], now: Optional[List[Any]]) -> str:
    """Why rows shown before are gone: acl.finalize ran (and where), or the whole process was reset."""
    if now is None:
        return ""
    if any(e.alive and not any(x is e for x in now) for e in seen + ([acl_entry] if acl_entry else [])):
        return "the simulated process was reset (acl_teach.reset): the resources listed before vanished " \
               "without a release call, and the ledger starts afresh"
    if acl_entry is not None and not acl_entry.alive:
        reclaimed = len(backend.inspector().leaks() or [])  # after finalize every leak is one it reclaimed
        return (f"acl.finalize ran{where_released(acl_entry.released_at)}: it reclaimed {reclaimed} resource(s) "
                f"never released by their own call" if reclaimed else
                f"acl.finalize ran{where_released(acl_entry.released_at)}: nothing was left alive to reclaim")
    return ""


class LedgerView(FullText, w.VBox):
    """Live resources (device/host memory, contexts, streams, buffers, datasets, descs, models).

    A live view by design: ``refresh`` (or the button) reads the ledger again. After acl.finalize or
    acl_teach.reset it still renders, and a notice says which of the two emptied it.
    """

    def __init__(self, after_release: bool = False) -> None:
        self.after_release = after_release
        self.failure: Optional[str] = None
        self.seen: List[Any] = []
        self.acl_entry: Optional[Any] = None
        self.happened = ""
        self.rows: List[Tuple[str, str, str, str]] = []
        self.names: List[str] = []
        self.leaks: List[Tuple[str, str, str, str]] = []
        self.notice = w.HTML()
        self.table = w.HTML()
        self.button = w.Button(description="refresh")
        self.button.on_click(safe_callback(self, lambda _: self.refresh(), "refresh"))
        super().__init__([self.button, self.notice, self.table])
        self.add_class("acl-teach-ledger")
        self.button.add_class("acl-teach-ledger-refresh")
        self.refresh()

    def _read(self) -> List[Any]:
        """The live entries now, noting what emptied the ledger since they were last seen."""
        now = live_entries(True)
        self.acl_entry = _acl_entry(now) or self.acl_entry
        self.happened = what_happened(self.seen, self.acl_entry, now)
        self.seen = [e for e in now or [] if e.kind != "acl"]
        return self.seen

    @guarded
    def refresh(self, after_release: bool = None) -> "LedgerView":
        """Read the ledger again; with ``after_release`` everything still alive is a leak."""
        if after_release is not None:
            self.after_release = after_release
        self.failure = None
        entries = self._read()
        self.rows = [_row(e) for e in entries]
        self.names = [trace.name_of(e.handle, "") for e in entries]
        self.leaks = leak_rows() if self.after_release else []
        self.notice.value = notice_html(self.happened)
        if not backend.inspector().AVAILABLE:
            self.table.value = "<i>the ledger exists only on the simulator</i>"
            return self
        self.table.value = self._table()
        return self

    def _table(self) -> str:
        """The rows (or the leaks) as HTML, with the variable name printed code gives each handle."""
        if self.after_release:
            shown, names, style = self.leaks, [""] * len(self.leaks), "background:#ffd7d7"
        else:
            shown, names, style = self.rows, self.names, ""
        body = "".join(f"<tr style='{style}'>" + "".join(f"<td>{html.escape(c)}</td>" for c in r[:2]) +
                       f"<td><code>{html.escape(n)}</code></td>" +
                       "".join(f"<td>{html.escape(c)}</td>" for c in r[2:]) + "</tr>" for r, n in zip(shown, names))
        title = f"{len(self.leaks)} leak(s)" if self.after_release else f"{len(self.rows)} live resource(s)"
        return (f"<b>{title}</b><table><tr><th>kind</th><th>detail</th><th>name</th><th>created at</th>"
                f"<th>state</th></tr>{body}</table>")

    def _show_failure(self, text: str) -> None:
        """A failed refresh is said above the table it leaves as it was."""
        self.notice.value = f"<b style='color:#a00'>{html.escape(text)}</b>"

    def __repr__(self) -> str:
        notice = [f"  [{self.happened}]"] if self.happened else []
        if self.after_release:
            head = f"LedgerView: {len(self.leaks)} leak(s) — never released by their own call"
            return "\n".join([head] + notice + [f"  {k:<15} {d:<36} {c}  [{s}]" for k, d, c, s in self.leaks])
        head = f"LedgerView: {len(self.rows)} live resource(s)"
        return "\n".join([head] + notice + [f"  {k:<15} {d:<36} {c}" for k, d, c, _ in self.rows])
