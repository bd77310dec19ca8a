"""``ErrorExplainer``: type or pick an aclError code; see its name, meaning, cause and fix in EN and 中文."""
from __future__ import annotations

import html
import numbers

import ipywidgets as w

from ..spec import errors
from ._snapshot import guarded, safe_callback
from .text import FullText

CLASSES = {1: "caller or environment mistakes (arguments, call order, configuration)",
           2: "resource problems (memory, device, a feature this hardware lacks)",
           3: "a service failed (a queue full or empty, for example)", 5: "internal errors below AscendCL"}
INT32_MAX = 2 ** 31 - 1

COMMON = [100000, 100001, 100002, 100037, 107000, 107001, 107002, 107003, 107015, 100017, 100018, 145003,
          207001, 507011, 507033]


def unknown(code: int) -> str:
    """Why a number is not in the table: negative, wider than 32 bits, or an unlisted code of a known class."""
    head = f"{code}: not an aclError code acl-teach knows"
    if code < 0:
        return (f"{head}. aclError codes are never negative; a negative number is usually a C function's -1 "
                "or a Python value, not a ret from pyACL.")
    if code > INT32_MAX:
        return f"{head}. It does not fit in 32 bits, and aclError is a 32-bit int: check where the number came from."
    kind = CLASSES.get(code // 100000) if 100000 <= code < 600000 else None
    if kind:
        return f"{head}. Codes {code // 100000}xxxxx are {kind}; call acl.get_recent_err_msg() for the detail."
    return f"{head}. aclError codes are 0 (success) or six digits (100000-599999)."


class ErrorExplainer(FullText, w.VBox):
    """An aclError code in, the explanation out; any other int gets a reason, never an exception."""

    def __init__(self, code: int = 100002) -> None:
        if isinstance(code, bool) or not isinstance(code, numbers.Integral):  # not traitlets' TraitError
            raise TypeError(f"ErrorExplainer takes an ACL error code (an int such as 100002 or a ret), "
                            f"not {type(code).__name__}")
        self.failure = None
        self.code = w.IntText(value=int(code), description="code")
        self.pick = w.Dropdown(options=[(f"{c} {errors.name_of(c)}", c) for c in COMMON], value=None,
                               description="common")
        self.out = w.HTML()
        self.notice = w.HTML()
        self.code.observe(safe_callback(self, lambda _: self.refresh(), "explaining the code"), names="value")
        self.pick.observe(safe_callback(self, self._picked, "picking a code"), names="value")
        super().__init__([w.HBox([self.code, self.pick]), self.notice, self.out])
        self.add_class("acl-teach-error-explainer")
        self.code.add_class("acl-teach-error-code")
        self.pick.add_class("acl-teach-error-pick")
        self.out.add_class("acl-teach-error-text")
        self.refresh()

    def _picked(self, change: dict) -> None:
        """A choice in the 'common' list goes into the code box (which then explains it)."""
        if change["new"] is not None:
            self.code.value = change["new"]

    def _sync_pick(self) -> None:
        """The 'common' list shows the typed code when it is one of them, else nothing: never a stale choice."""
        self.pick.value = self.code.value if self.code.value in COMMON else None

    @guarded
    def refresh(self) -> "ErrorExplainer":
        """Explain the code in the box (and keep the dropdown in step with it)."""
        self.failure = None
        self.notice.value = ""
        self._sync_pick()
        info = errors.explain(self.code.value)
        self.text = info.text() if info else unknown(self.code.value)
        self.out.value = f"<pre>{html.escape(self.text)}</pre>"
        return self

    def __repr__(self) -> str:
        return self.text
