"""``acl.rt`` external allocators: a descriptor of user callbacks, registered per stream.

Follows the runtime (src/acl/aclrt_impl/allocator.cpp) and the binding (python/pyACL/rt/rt_allocator.cpp @134e2edb):
* every setter needs a non-NULL descriptor (100000) and stores its function; register needs a stream and a
  descriptor whose object, alloc, free and get-addr-from-block functions are all set (advise is optional),
  else 100000; it keeps a copy, so destroying the descriptor later does not unregister it; unregister of any
  non-NULL stream is 0, registered or not.
* the binding passes ``&allocator`` (the address of its local variable) to aclrtAllocatorSetObjToDesc, so any
  ``allocator`` value, 0 included, sets the object; and it keeps *one* Python function per kind for the whole
  process (the last set wins for every descriptor). Its C trampolines call that function and ignore what it
  returns (they return NULL), so on a board memory from a Python allocator is never usable — see
  ``python_functions()``.
simulator: the runtime calls the allocator from work the simulator does not model (graph workspaces), so
registered callbacks are recorded, not called. UNCONFIRMED: 100000 for a descriptor handle the simulator did not
create (a board would use whatever that address holds).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, Optional, Tuple

from ..core.args import INIT, binding
from ..core.state import create_handle, fail, state
from .stream import Stream

__all__ = ["allocator_create_desc", "allocator_destroy_desc", "allocator_set_obj_to_desc",
           "allocator_set_alloc_func_to_desc", "allocator_set_free_func_to_desc",
           "allocator_set_alloc_advise_func_to_desc", "allocator_set_get_addr_from_block_func_to_desc",
           "allocator_register", "allocator_unregister"]

_KINDS = ("alloc", "free", "alloc_advise", "get_addr_from_block")


@dataclass
class AllocatorDesc:
    """aclrtAllocatorDesc: which of the object and the four functions have been set."""

    obj: bool = False
    alloc: bool = False
    free: bool = False
    alloc_advise: bool = False
    get_addr_from_block: bool = False


def _registry() -> Dict[str, Any]:
    subs = state().subsystems
    if "allocators" not in subs:
        subs["allocators"] = {"python": {}, "streams": {}}
    return subs["allocators"]


def python_functions() -> Dict[str, Any]:
    """The binding's process-wide Python callbacks by kind (last set wins), for inspection."""
    return dict(_registry()["python"])


def registered(stream: int) -> Optional[AllocatorDesc]:
    """The copy of the descriptor registered on ``stream``, or None."""
    return _registry()["streams"].get(stream)


@binding("acl.rt.allocator_create_desc")
def allocator_create_desc(api):
    """A new, empty allocator descriptor (a bare handle, as aclrtAllocatorCreateDesc returns it)."""
    return create_handle(AllocatorDesc(), "allocator desc", "aclrtAllocatorDesc")


def _desc(api: str, handle: int) -> Tuple[Optional[AllocatorDesc], int]:
    if handle == 0:
        return None, fail(100000, api, "allocator desc is 0 (NULL); create one with acl.rt.allocator_create_desc().")
    obj = state().lookup(handle, AllocatorDesc)
    if obj is None:
        return None, fail(100000, api, f"{state().describe_handle(handle)} is not a live allocator desc.")
    return obj, 0


@binding("acl.rt.allocator_destroy_desc", "k")
def allocator_destroy_desc(api, allocator_desc):
    """Delete the descriptor (a registration made with it keeps its own copy)."""
    obj, ret = _desc(api, allocator_desc)
    if ret:
        return ret
    state().handles.pop(allocator_desc, None)
    state().ledger.release(allocator_desc, api)
    return 0


@binding("acl.rt.allocator_set_obj_to_desc", "kk")
def allocator_set_obj_to_desc(api, allocator_desc, allocator):
    """Set the allocator object (any value works: the binding passes the address of its copy of it)."""
    obj, ret = _desc(api, allocator_desc)
    if ret:
        return ret
    obj.obj = True
    return 0


def _set_func(api: str, handle: int, kind: str, func: Any) -> int:
    obj, ret = _desc(api, handle)
    if ret:
        return ret
    setattr(obj, kind, True)
    _registry()["python"][kind] = func  # the binding's one global per kind
    return 0


@binding("acl.rt.allocator_set_alloc_func_to_desc", "kO")
def allocator_set_alloc_func_to_desc(api, allocator_desc, func):
    """Set the alloc callback ``func(allocator, size)``."""
    return _set_func(api, allocator_desc, "alloc", func)


@binding("acl.rt.allocator_set_free_func_to_desc", "kO")
def allocator_set_free_func_to_desc(api, allocator_desc, func):
    """Set the free callback ``func(allocator, block)``."""
    return _set_func(api, allocator_desc, "free", func)


@binding("acl.rt.allocator_set_alloc_advise_func_to_desc", "kO")
def allocator_set_alloc_advise_func_to_desc(api, allocator_desc, func):
    """Set the optional alloc-advise callback ``func(allocator, size, addr)``."""
    return _set_func(api, allocator_desc, "alloc_advise", func)


@binding("acl.rt.allocator_set_get_addr_from_block_func_to_desc", "kO")
def allocator_set_get_addr_from_block_func_to_desc(api, allocator_desc, func):
    """Set the callback ``func(block)`` that turns a block into a device address."""
    return _set_func(api, allocator_desc, "get_addr_from_block", func)


def _stream(api: str, stream: int) -> int:
    if stream == 0:
        return fail(100000, api, "stream is 0 (NULL): an external allocator is registered on a created stream.")
    found = state().lookup(stream, Stream)
    if found is None or found.destroyed:
        return fail(107000, api, f"{state().describe_handle(stream)} is not a live stream (UNCONFIRMED code).")
    return 0


@binding("acl.rt.allocator_register", "kk", needs=INIT)
def allocator_register(api, stream, allocator_desc):
    """Use the descriptor's allocator for ``stream``'s memory (object, alloc, free, get-addr must be set)."""
    ret = _stream(api, stream)
    if ret:
        return ret
    obj, ret = _desc(api, allocator_desc)
    if ret:
        return ret
    missing = [name for name in ("obj", "alloc", "free", "get_addr_from_block") if not getattr(obj, name)]
    if missing:
        return fail(100000, api, f"allocatorDesc->{missing[0]} is not set; set the object and the alloc, free and "
                    f"get_addr_from_block functions first.")
    _registry()["streams"][stream] = AllocatorDesc(**vars(obj))
    return 0


@binding("acl.rt.allocator_unregister", "k", needs=INIT)
def allocator_unregister(api, stream):
    """Stop using an external allocator for ``stream`` (0 whether or not one was registered)."""
    if stream == 0:
        return fail(100000, api, "stream is 0 (NULL).")
    _registry()["streams"].pop(stream, None)
    return 0
