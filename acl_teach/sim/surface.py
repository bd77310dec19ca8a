"""The modules that stand in for ``acl``, ``acl.rt`` … on the simulator: the binding's names and nothing else.

Built from pyACL's method table (``acl_teach.spec.binding``): each real name is the simulator's function of that
name (``acl_teach.sim`` for ``acl``, ``acl_teach.sim.<module>`` for ``acl.<module>``) when one exists, else a
function that raises :class:`NotSimulatedError` naming it. The simulator's extras (``configure``, ``ledger``,
``reset`` …) and pyACL's constants are not here, as on a board: they live in ``acl_teach.sim`` and
``acl_teach.spec.constants``.
"""
from __future__ import annotations

import importlib
import importlib.machinery
import sys
from types import ModuleType
from typing import Any, Callable, Dict, List, Optional

from ..spec.binding import TABLE

SUBMODULES = tuple(m.split(".", 1)[1] for m in TABLE if m != "acl")  # rt, mdl, media, op, blas, util, prof, himpi, fv
_built: Optional[ModuleType] = None


class NotSimulatedError(NotImplementedError):
    """A real pyACL function that acl-teach does not simulate (it runs on a board with CANN)."""


def _not_simulated(api: str) -> Callable[..., Any]:
    """A stand-in for ``api`` that says it is real pyACL and not simulated (never a silent success)."""
    def not_simulated(*args: Any, **kwargs: Any) -> Any:
        raise NotSimulatedError(f"{api} is a real pyACL function that acl-teach does not simulate "
                                f"(docs/not_simulated.md lists them); run this code on a board with CANN.")
    not_simulated.__name__ = not_simulated.__qualname__ = api.rsplit(".", 1)[-1]
    not_simulated.__doc__ = f"Not simulated by acl-teach: {api} exists only on a board."
    not_simulated.__acl_api__ = api  # type: ignore[attr-defined]
    not_simulated.__acl_not_simulated__ = True  # type: ignore[attr-defined]
    return not_simulated


def implementation(module: str) -> Optional[ModuleType]:
    """Where the simulator keeps ``module``'s functions: acl_teach.sim or acl_teach.sim.<sub>, None if absent."""
    if module == "acl":
        return importlib.import_module("acl_teach.sim")
    try:
        return importlib.import_module(f"acl_teach.sim.{module.split('.', 1)[1]}")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("acl_teach.sim."):
            return None
        raise


def simulated(module: str, name: str, impl: Optional[ModuleType]) -> Optional[Callable[..., Any]]:
    """The simulator's function for ``acl.<module>.<name>`` (a callable of that name, not a module), or None."""
    func = getattr(impl, name, None) if impl is not None else None
    return func if callable(func) and not isinstance(func, (ModuleType, type)) else None


def _populate(target: ModuleType, module: str) -> None:
    """Give ``target`` exactly the binding's names of ``module``."""
    impl = implementation(module)
    for name in TABLE[module]:
        func = simulated(module, name, impl)
        setattr(target, name, func if func is not None else _not_simulated(f"{module}.{name}"))


def _module(name: str) -> ModuleType:
    """An empty module with a spec (so importlib.util.find_spec works once it is installed)."""
    module = ModuleType(name, None)
    module.__spec__ = importlib.machinery.ModuleSpec(name, None, origin=__file__)
    return module


def build() -> ModuleType:
    """``acl`` with its nine submodules (built once; later calls return the same module objects)."""
    global _built
    if _built is None:
        root = _module("acl")
        root.__file__ = __file__
        _populate(root, "acl")
        for sub in SUBMODULES:
            child = _module(f"acl.{sub}")
            _populate(child, f"acl.{sub}")
            setattr(root, sub, child)
        _built = root
    return _built


def modules() -> Dict[str, ModuleType]:
    """``{"acl": …, "acl.rt": …, …}``: what ``install()`` puts in sys.modules."""
    root = build()
    return {"acl": root, **{f"acl.{sub}": getattr(root, sub) for sub in SUBMODULES}}


def not_simulated() -> Dict[str, List[str]]:
    """Per module, the real names the simulator answers with NotSimulatedError."""
    out: Dict[str, List[str]] = {}
    for module, mod in modules().items():
        out[module] = [n for n in TABLE[module] if getattr(getattr(mod, n), "__acl_not_simulated__", False)]
    return out


def is_surface(module: Any) -> bool:
    """Whether ``module`` is one of the simulator's stand-ins (so never real pyACL)."""
    return _built is not None and any(module is m for m in modules().values())


def installed() -> bool:
    """Whether ``acl`` in sys.modules is the simulator's."""
    return is_surface(sys.modules.get("acl"))
