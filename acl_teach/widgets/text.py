"""Every widget's plain-text view in full: ipywidgets cuts ``text/plain`` at 110 characters, which is what a
terminal, nbval and a notebook opened before running (no widget state yet) show instead of the widget."""
from __future__ import annotations

from typing import Any, Dict


class FullText:
    """Mixin for our widgets: the text/plain fallback is the whole ``repr``, never cut off mid-line."""

    def _repr_mimebundle_(self, **kwargs: Any) -> Dict[str, Any]:
        bundle = super()._repr_mimebundle_(**kwargs)  # type: ignore[misc]
        if bundle:
            bundle["text/plain"] = repr(self)
        return bundle
