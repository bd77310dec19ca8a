"""What every step returns: a small inspectable record with the pyACL calls it made.

``record.calls`` lists the calls; ``record.code()`` prints them as Python; in Jupyter the
record shows as a table. Handles print as the variable names the code uses, never as raw
addresses, so notebook outputs are the same on every machine.
"""
from __future__ import annotations

import html
from dataclasses import dataclass, field, fields
from typing import Any, List

from . import trace
from .spec.errors import AclError


@dataclass(frozen=True)
class Payload:
    """What a record keeps of a ``bytes`` argument: its length, so a long run does not keep every tensor."""

    nbytes: int

    def __repr__(self) -> str:
        return f"<{self.nbytes} bytes>"


@dataclass
class Step:
    """Base of all step records."""

    calls: List[trace.Call] = field(default_factory=list, repr=False, compare=False)
    notes: List[str] = field(default_factory=list, repr=False, compare=False)

    def code(self) -> str:
        """The pyACL calls this step made, as runnable-looking Python."""
        return trace.as_python(self.calls)

    def call(self, api: str, *args: Any) -> Any:
        """Make one documented pyACL call and record it (payload bytes as their length, never the bytes)."""
        before = len(self.calls)
        result = trace.call(self.calls, api, *args)
        for record in self.calls[before:]:  # its line of Python is already rendered: `bytes_to_ptr(data)`
            record.args = tuple(Payload(len(a)) if isinstance(a, (bytes, bytearray)) else a for a in record.args)
        return result

    def check(self, api: str, *args: Any, ok=(0,)) -> Any:
        """Call and raise AclError unless the ret (last item) is in ``ok``."""
        result = self.call(api, *args)
        ret = result[-1] if isinstance(result, tuple) else result
        if ret not in ok:
            detail = None
            try:
                detail = trace.resolve("acl.get_recent_err_msg")()
            except AttributeError:
                pass
            raise AclError(api, ret, detail)
        return result

    def shown(self) -> List[tuple]:
        """(field, readable value) pairs for display."""
        out = []
        for f in fields(self):
            if f.name in ("calls", "notes") or not f.repr:
                continue
            out.append((f.name, _readable(getattr(self, f.name))))
        return out

    def __repr__(self) -> str:
        body = ", ".join(f"{k}={v}" for k, v in self.shown())
        text = f"{type(self).__name__}({body})"
        for note in self.notes:
            text += f"\n  note: {note}"
        return text

    def _repr_html_(self) -> str:
        rows = "".join(f"<tr><th style='text-align:left'>{html.escape(k)}</th><td>{html.escape(str(v))}</td></tr>"
                       for k, v in self.shown())
        notes = "".join(f"<p><b>note:</b> {html.escape(n)}</p>" for n in self.notes)
        code = html.escape(self.code())
        return (f"<b>{type(self).__name__}</b><table>{rows}</table>{notes}"
                f"<details><summary>pyACL calls ({len(self.calls)})</summary><pre>{code}</pre></details>")


def _readable(value: Any) -> Any:
    if trace.is_address(value):
        return trace.name_of(value)
    if isinstance(value, Step):
        return type(value).__name__
    if isinstance(value, list) and value and isinstance(value[0], Step):
        return f"[{len(value)} × {type(value[0]).__name__}]"
    return value
