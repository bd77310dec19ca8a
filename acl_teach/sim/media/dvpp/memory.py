"""``acl.media``: DVPP memory — ``dvpp_malloc`` / ``dvpp_free``, the first piece of media data processing.

DVPP memory is device memory (``acl.rt.memcpy`` and model datasets take it, as the samples do)
from DVPP's own allocator. The documented rule (acldvppMalloc, pyACL dvpp_malloc page): the size is
rounded up to a multiple of 32 and 32 bytes are added, invisibly to the caller, and the start is
128-byte aligned; the simulator allocates exactly that, so a DVPP write that runs into the padding
is as harmless here as on a board.
"""
from __future__ import annotations

from ...core.args import CONTEXT, INIT, binding
from ...rt.memory import _device_alloc_checks, _free, _out_of_memory, space
from ...core.state import state

DVPP_ALIGN = 32  # size granule
DVPP_PAD = 32    # bytes added after the rounded size


def padded_size(size: int) -> int:
    """What acldvppMalloc really reserves for ``size`` bytes: ALIGN_UP(size, 32) + 32."""
    return (size + DVPP_ALIGN - 1) // DVPP_ALIGN * DVPP_ALIGN + DVPP_PAD


@binding("acl.media.dvpp_malloc", "k", needs=CONTEXT, outs=1)
def dvpp_malloc(api, size):
    """(device pointer, ret): DVPP memory of ``size`` bytes (plus DVPP's hidden padding), 128-byte aligned.

    UNCONFIRMED: size 0 returns 100000 like acl.rt.malloc; exhaustion returns 207001.
    """
    with state().lock:
        device_id, ret = _device_alloc_checks(api, size)
        if ret:
            return 0, ret
        region = space().allocate(padded_size(size), True, "dvpp", device_id)
        if region is None:
            return 0, _out_of_memory(api, padded_size(size))
        state().ledger.add("dvpp memory", region.base, f"{size} bytes (+{padded_size(size) - size} DVPP "
                           f"padding) on device {device_id}", size=size)
        return region.base, 0


@binding("acl.media.dvpp_free", "k", needs=INIT)
def dvpp_free(api, dev_ptr):
    """Free memory from dvpp_malloc (UNCONFIRMED: other memory is refused with 107000, as acl.rt.free does)."""
    return _free(api, dev_ptr, "dvpp", "acl.rt.free")
