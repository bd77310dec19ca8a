"""What a namespace package lists in ``__all__``: the pyACL functions it gathered, not the submodules it imported."""
from __future__ import annotations

from types import ModuleType
from typing import Any, Dict, List


def functions_of(namespace: Dict[str, Any]) -> List[str]:
    """The public names of ``namespace`` (a package's globals()) that are not modules, sorted as dir() gives them."""
    return sorted(name for name, value in namespace.items()
                  if not name.startswith("_") and not isinstance(value, ModuleType))
