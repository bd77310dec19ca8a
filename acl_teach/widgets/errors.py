"""``ErrorExplainer``: type or pick an aclError code; see its name, meaning, cause and fix in EN and 中文."""
from __future__ import annotations

import html

import ipywidgets as w

from ..spec import errors
from .text import FullText

COMMON = [100000, 100001, 100002, 100037, 107000, 107001, 107002, 107003, 107015, 100017, 100018, 145003,
          207001, 507011, 507033]


class ErrorExplainer(FullText, w.VBox):
    """An aclError code in, the explanation out."""

    def __init__(self, code: int = 100002) -> None:
        self.code = w.IntText(value=code, description="code")
        self.pick = w.Dropdown(options=[(f"{c} {errors.name_of(c)}", c) for c in COMMON], value=None,
                               description="common")
        self.out = w.HTML()
        self.code.observe(lambda _: self.refresh(), names="value")
        self.pick.observe(lambda ch: ch["new"] is not None and setattr(self.code, "value", ch["new"]), names="value")
        super().__init__([w.HBox([self.code, self.pick]), self.out])
        self.refresh()

    def _sync_pick(self) -> None:
        """The 'common' list shows the typed code when it is one of them, else nothing: never a stale choice."""
        self.pick.value = self.code.value if self.code.value in COMMON else None

    def refresh(self) -> "ErrorExplainer":
        """Explain the code in the box (and keep the dropdown in step with it)."""
        self._sync_pick()
        info = errors.explain(self.code.value)
        self.text = info.text() if info else f"{self.code.value}: not an aclError code acl-teach knows"
        self.out.value = f"<pre>{html.escape(self.text)}</pre>"
        return self

    def __repr__(self) -> str:
        return self.text
