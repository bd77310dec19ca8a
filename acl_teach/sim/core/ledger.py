"""The resource ledger: every live simulator resource with the line (or notebook cell) that made it.

A real NPU cannot tell a learner what they forgot to release; the ledger can.
"""
from __future__ import annotations

import functools
import os
import sys
import threading
from dataclasses import dataclass, field
from typing import Dict, Hashable, List, Optional, Tuple

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # acl_teach/
_SKIP_PREFIXES = (_PACKAGE_DIR, os.path.dirname(threading.__file__))


def _notebook_cell(filename: str) -> Optional[int]:
    """The In[N] number of the cell compiled as ``filename`` (IPython's own map, as its tracebacks use)."""
    ip = sys.modules.get("IPython")
    shell = ip.get_ipython() if ip is not None and hasattr(ip, "get_ipython") else None
    if shell is None:
        return None
    mapped = getattr(getattr(shell, "compile", None), "_filename_map", {}).get(filename)
    if mapped is not None:
        return mapped
    count = getattr(shell, "execution_count", None)  # already N+1 while cell N runs
    return count - 1 if count else None


def _library(path: str) -> bool:
    """Installed packages (ipywidgets, ipykernel …) are not where a learner's call came from."""
    return f"{os.sep}site-packages{os.sep}" in path or f"{os.sep}dist-packages{os.sep}" in path


@functools.lru_cache(maxsize=4096)
def _classify_absolute(path: str) -> Tuple[bool, bool]:
    """(skipped: ours, the standard threading module or a library; an ipywidgets file) for an absolute path."""
    skipped = path.startswith(_SKIP_PREFIXES) or path.startswith("<frozen") or _library(path)
    return skipped, f"{os.sep}ipywidgets{os.sep}" in path


def _classify(filename: str) -> Tuple[bool, bool]:
    """_classify_absolute of a code object's file (cached: origin() runs on every allocation)."""
    if os.path.isabs(filename):
        return _classify_absolute(filename)
    return _classify_absolute.__wrapped__(os.path.abspath(filename))  # relative to the cwd, which may change


def origin() -> str:
    """Where user code called into the simulator: 'file.py:12', 'cell In[5], line 3' or 'a widget click'."""
    frame = sys._getframe(1)
    via_widget = False
    while frame is not None:
        skipped, widget = _classify(frame.f_code.co_filename)
        via_widget = via_widget or widget
        if not skipped:
            break
        frame = frame.f_back
    if frame is None:
        return "a widget click" if via_widget else "<unknown>"
    name = frame.f_code.co_filename
    if "ipykernel_" in name or name.startswith("<ipython-input"):
        cell = _notebook_cell(name)
        return f"cell In[{cell}], line {frame.f_lineno}" if cell else f"notebook line {frame.f_lineno}"
    return f"{os.path.basename(name)}:{frame.f_lineno}"


@dataclass
class Entry:
    """One resource: what it is, its handle or address, details, and its history."""

    kind: str
    handle: int
    detail: str
    created_at: str
    released_at: Optional[str] = None
    released_by: Optional[str] = None
    extra: Dict[str, object] = field(default_factory=dict)
    key: Hashable = None

    @property
    def alive(self) -> bool:
        """True until the matching release call ran (or finalize/reset_device reclaimed it)."""
        return self.released_at is None

    def line(self) -> str:
        """One readable row."""
        state = "alive" if self.alive else f"released by {self.released_by} at {self.released_at}"
        return f"{self.kind:<14} {self.handle:#x}  {self.detail:<34} created at {self.created_at}  [{state}]"


class Ledger:
    """All resources ever created in this simulator session, live or released."""

    def __init__(self) -> None:
        self._entries: List[Entry] = []
        self._live: Dict[Hashable, Entry] = {}
        self._lock = threading.Lock()

    def add(self, kind: str, handle: int, detail: str, key: Hashable = None, **extra: object) -> Entry:
        """Record a new live resource (``key`` defaults to the handle)."""
        key = handle if key is None else key
        entry = Entry(kind, handle, detail, origin(), extra=dict(extra), key=key)
        with self._lock:
            self._entries.append(entry)
            self._live[key] = entry
        return entry

    def release(self, key: Hashable, by: str) -> Optional[Entry]:
        """Mark the resource with this key (usually its handle) released by the API ``by``."""
        with self._lock:
            entry = self._live.pop(key, None)
        if entry is not None:
            entry.released_at = origin()
            entry.released_by = by
        return entry

    def get(self, key: Hashable) -> Optional[Entry]:
        """The live entry for a key (usually a handle), if any."""
        return self._live.get(key)

    def live(self) -> List[Entry]:
        """Live resources in creation order."""
        with self._lock:
            return [e for e in self._entries if e.alive]

    def all(self) -> List[Entry]:
        """Every resource ever recorded, in creation order."""
        with self._lock:
            return list(self._entries)
