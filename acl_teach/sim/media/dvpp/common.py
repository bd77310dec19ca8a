"""What every acl.media module shares: creating/looking up DVPP handles and failing a DVPP task on the device."""
from __future__ import annotations

from typing import Any, Optional, Tuple, Type, TypeVar

from ...rt.memory import Region, describe, space
from ...core.state import create_handle, destroy_handle, fail, state

T = TypeVar("T")
DEVICE_FAULT = 507018  # UNCONFIRMED (reference §6.1): what synchronize_stream returns for a DVPP task the device rejects


def create(api: str, obj: Any, kind: str, detail: str) -> int:
    """A handle for a new DVPP object, or 0 (creators return 0 on failure) before acl.init."""
    if not state().initialized:
        fail(100001, api, "acl.init() has not been called in this process; the creator returns 0 (NULL).")
        return 0
    return create_handle(obj, kind, detail)


def lookup(handle: int, cls: Type[T]) -> Optional[T]:
    """The live object behind ``handle`` or None."""
    return state().lookup(handle, cls)


def bad_handle(api: str, handle: int, what: str) -> int:
    """100000 with the reason ``handle`` is not a live ``what``."""
    return fail(100000, api, f"{state().describe_handle(handle)} is not a live {what}.")


def destroy(api: str, handle: int, cls: type, what: str) -> int:
    """Destroy a DVPP object: NULL is accepted (0), as the ACL destroyers do; a dead handle is 100000."""
    if handle == 0:
        return 0
    return destroy_handle(api, handle, cls, what)


def dvpp_region(address: int, count: int, role: str) -> Tuple[Optional[Region], int, str]:
    """(region, offset, '') when ``count`` bytes at ``address`` are live dvpp_malloc memory, else a reason."""
    if address == 0:
        return None, 0, f"the {role} pointer is 0 (NULL)"
    region, offset, why = space().resolve(address, count)
    if region is None:
        return None, 0, f"the {role}: {why}"
    if region.kind != "dvpp":
        return None, 0, (f"the {role} {address:#x} is a {describe(region)}, but DVPP reads and writes only "
                         f"memory from acl.media.dvpp_malloc (acldvppSetPicDescData: 'must be the memory "
                         f"requested using acldvppMalloc')")
    return region, offset, ""


def device_fault(pic: Any, why: str) -> Tuple[int, str]:
    """What a DVPP task returns when the device rejects it: the output desc's ret_code is set too."""
    if pic is not None:
        pic.ret_code = DEVICE_FAULT
    return DEVICE_FAULT, f"{why} (the device checks this, not the *_async call; simulated code, UNCONFIRMED)"
