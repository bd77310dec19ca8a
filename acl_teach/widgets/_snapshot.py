"""What every widget shares: a snapshot that outlives its resource, a notice saying where it went, and callbacks
that show a failure inside the widget instead of throwing a traceback into JupyterLab's log console.

The ledger entry of a resource is looked up once, while it lives, through ``backend.inspector().live()``; the
simulator later marks that same entry released with the cell that did it, so a widget can say
'released in cell [7]' without asking the simulator anything else. On a board there is no ledger: the
widgets then learn of a release only when a read fails, and say so without a cell.
"""
from __future__ import annotations

import functools
import html
import re
from typing import Any, Callable, Iterable, List, Optional

from .. import backend

HELD = "showing what it held then"
MEMORY_KINDS = ("device memory", "host memory", "dvpp memory")


def where_released(released_at: Optional[str]) -> str:
    """' in cell [5]' from the ledger's 'cell In[5], line 3', ' at file.py:12' from a script, ' from a widget click'
    for what a widget's button did, '' if unknown."""
    if not released_at:
        return ""
    cell = re.match(r"cell In\[(\d+)\]", released_at)
    if cell:
        return f" in cell [{cell.group(1)}]"
    return f" at {released_at}" if re.search(r":\d+$", released_at) else f" from {released_at}"


def released_notice(released_at: Optional[str] = None, what: str = "released", by: Optional[str] = None) -> str:
    """The one wording every widget uses: 'released in cell [N] (by api) — showing what it held then'."""
    how = f" (by {by})" if by else ""
    return f"{what}{where_released(released_at)}{how} — {HELD}"


def notice_html(text: Optional[str]) -> str:
    """The notice as a red italic line (empty while the resource lives)."""
    return f"<i class='acl-teach-released' style='color:#a00'>{html.escape(text)}</i>" if text else ""


def failure_html(text: str) -> str:
    """A callback's failure, shown where the learner looks instead of in the log console."""
    return f"<b class='acl-teach-failure' style='color:#a00'>{html.escape(text)}</b>"


def live_entries(include_init: bool = False) -> Optional[List[Any]]:
    """The ledger's live entries, or None where there is no ledger (a board) or it cannot be read."""
    try:
        return backend.inspector().live(include_init)
    except Exception:  # a backend switched or torn down: no ledger to consult
        return None


def find_entry(address: int, kinds: Iterable[str]) -> Optional[Any]:
    """The live ledger entry of ``kinds`` whose handle is ``address`` or whose memory contains it."""
    kinds = tuple(kinds)
    for e in live_entries(True) or []:
        if e.kind not in kinds:
            continue
        size = int(e.extra.get("size", 0) or 0) if isinstance(e.extra, dict) else 0
        if e.handle == address or (size and e.handle <= address < e.handle + size):
            return e
    return None


class Owner:
    """Follows the ledger entry of one resource, so a widget knows whether to re-read it and where it went."""

    def __init__(self, address: int, kinds: Iterable[str], what: str = "released") -> None:
        self.what = what
        self.entry = find_entry(address, kinds)

    def gone(self) -> Optional[str]:
        """None while the resource lives (or cannot be told); else the notice to show."""
        e = self.entry
        if e is None:
            return None
        if not e.alive:
            return released_notice(e.released_at, self.what, e.released_by)
        live = live_entries(True)
        if live is not None and not any(x is e for x in live):  # the whole simulated process was replaced
            return f"{self.what} with the whole simulated process (acl_teach.reset) — {HELD}"
        return None


def report_failure(widget: Any, what: str, exc: BaseException) -> None:
    """Put ``what failed: why`` into the widget (its ``_show_failure`` or ``notice``) and its text view."""
    text = f"{what} failed: {type(exc).__name__}: {exc}"
    try:
        widget.failure = text
        shower = getattr(widget, "_show_failure", None)
        if shower is not None:
            shower(text)
        elif getattr(widget, "notice", None) is not None:
            widget.notice.value = failure_html(text)
    except Exception:  # reporting must never raise either
        pass


_SELF = object()


def guarded(method: Optional[Callable] = None, *, failed: Any = _SELF) -> Callable:
    """Decorate a widget method run by a click or a change: an exception is shown in the widget, never raised."""
    def wrap(fn: Callable) -> Callable:
        @functools.wraps(fn)
        def run(self: Any, *args: Any, **kwargs: Any) -> Any:
            try:
                return fn(self, *args, **kwargs)
            except Exception as exc:  # shown in the widget: ipywidgets would log it where nobody looks
                report_failure(self, fn.__name__.strip("_").replace("_", " "), exc)
                return self if failed is _SELF else failed
        return run
    return wrap(method) if method is not None else wrap


def safe_callback(widget: Any, fn: Callable, what: str = "update") -> Callable:
    """An on_click/observe handler that shows its exception in ``widget`` instead of the log console."""
    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> None:
        try:
            fn(*args, **kwargs)
        except Exception as exc:  # see guarded
            report_failure(widget, what, exc)
    return run
