"""Host and device memory: ``acl.rt.malloc`` … ``memcpy`` and the pointer checks behind them.

Device memory is a separate address space (addresses from 0x1000_0000_0000_0000, which no
process address can ever be), so a device pointer cannot be read by accident. Host memory is
real process memory: ``malloc_host`` buffers, and the insides of ``bytes``/``ndarray`` objects
handed out by ``acl.util.bytes_to_ptr`` / ``numpy_to_ptr``. Every copy checks both byte ranges
against live allocations and the copy kind against where the memory lives; nothing is read or
written that the simulator cannot vouch for.
"""
from __future__ import annotations

import bisect
import ctypes
import sys
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from . import constants as C
from ._args import CONTEXT, INIT, binding
from .runtime import current_context, current_device_id, is_board
from .state import SimulatorFault, fail, require_init, state

DEVICE_BASE = 0x1000_0000_0000_0000
ALIGN = 0x200
POISON = 0xA5  # written over freed memory so use-after-free shows
UNINITIALISED = 0xCD  # fresh device memory is not zeroed on a real NPU either
PATTERN_LIMIT = 16 << 20  # larger buffers skip the fill patterns: touching GBs of RAM could kill a kernel
_KIND_NAMES = {kind: name[len("ACL_MEMCPY_"):] for kind, name in C.MEMCPY_KIND_NAMES.items()}
_MEM_FLAGS = C.ACL_MEM_TYPE_LOW_BAND_WIDTH | C.ACL_MEM_TYPE_HIGH_BAND_WIDTH | \
    C.ACL_MEM_ACCESS_USER_SPACE_READONLY


@dataclass
class Region:
    """A span of memory the simulator knows: an allocation or a Python object's buffer."""

    base: int
    size: int
    kind: str  # "device", "host" (malloc_host), "bytes", "numpy"
    on_device: bool
    array: Optional[np.ndarray] = None  # uint8 view of the bytes
    obj: Any = None  # the bytes/ndarray whose buffer this is (user regions only)
    device_id: int = 0

    def view(self, offset: int, count: int) -> np.ndarray:
        """uint8 view of ``count`` bytes at ``offset``."""
        return self.array[offset:offset + count]


def _refs(region: Region) -> int:
    return sys.getrefcount(region.obj)


def _baseline_refs() -> int:
    probe = Region(0, 0, "bytes", False, obj=bytes(bytearray(16)))
    return _refs(probe)


_BASELINE = _baseline_refs()


def _user_alive(region: Region) -> bool:
    """A bytes/ndarray region is valid only while something besides the simulator holds the object."""
    return _refs(region) > _BASELINE


def _raw_view(address: int, size: int) -> np.ndarray:
    """A writable uint8 view of process memory the caller has vouched for."""
    if size == 0:
        return np.empty(0, np.uint8)
    return np.ctypeslib.as_array((ctypes.c_ubyte * size).from_address(address))


class MemorySpace:
    """All allocations, user buffers and freed ranges of one simulated process."""

    def __init__(self) -> None:
        self.allocs: Dict[int, Region] = {}
        self._bases: List[int] = []
        self.user: Dict[Tuple[int, int], Region] = {}
        self.freed: List[Tuple[int, int, str]] = []
        self.device_used = 0
        self._next_device = DEVICE_BASE

    # -- allocation -------------------------------------------------------------------------
    def allocate(self, size: int, on_device: bool, kind: str, device_id: int) -> Optional[Region]:
        """A new allocation, or None when device memory (or the host RAM behind it) is exhausted."""
        charged = self.charge(size)
        if on_device and self.device_used + charged > state().config.device_memory:
            return None
        try:
            array = np.empty(size, np.uint8)  # the OS maps pages lazily: untouched memory costs no RAM
        except (MemoryError, ValueError):
            return None
        if on_device:
            if size <= PATTERN_LIMIT:
                array.fill(UNINITIALISED)
            base = self._next_device
            self._next_device += (charged + ALIGN - 1) // ALIGN * ALIGN
            self.device_used += charged
        else:
            base = array.ctypes.data
        region = Region(base, size, kind, on_device, array, device_id=device_id)
        self.allocs[base] = region
        bisect.insort(self._bases, base)
        return region

    @staticmethod
    def charge(size: int) -> int:
        """What aclrtMalloc really reserves: size rounded up to 32 bytes, plus 32."""
        return (size + 31) // 32 * 32 + 32

    def release(self, region: Region, by: str) -> None:
        """Free an allocation: poison it, forget it, remember the range for error messages."""
        if region.size <= PATTERN_LIMIT:
            region.array.fill(POISON)
        self.allocs.pop(region.base, None)
        self._bases.remove(region.base)
        if region.on_device and region.base >= DEVICE_BASE:
            self.device_used -= self.charge(region.size)
        self.freed.append((region.base, region.size, by))
        state().ledger.release(region.base, by)

    def release_device_memory(self, device_id: int, by: str) -> None:
        """Free every device allocation of a device (reset_device at refcount zero)."""
        for region in list(self.allocs.values()):
            if region.base >= DEVICE_BASE and region.device_id == device_id:
                self.release(region, by)

    # -- user buffers -----------------------------------------------------------------------
    def register_user(self, obj: Any, address: int, size: int, kind: str) -> int:
        """Remember a bytes/ndarray buffer so copies may touch it while the object lives."""
        self.prune()
        key = (address, size)
        if key not in self.user or self.user[key].obj is not obj:
            self.user[key] = Region(address, size, kind, False, _raw_view(address, size), obj)
        return address

    def prune(self) -> None:
        """Drop user buffers whose objects are gone (their pointers now dangle)."""
        for key, region in list(self.user.items()):
            if not _user_alive(region):
                del self.user[key]

    # -- lookup -----------------------------------------------------------------------------
    def find(self, address: int) -> Optional[Tuple[Region, int]]:
        """(region, offset) containing ``address``, or None."""
        i = bisect.bisect_right(self._bases, address) - 1
        if i >= 0:
            region = self.allocs[self._bases[i]]
            if address < region.base + max(region.size, 1):
                return region, address - region.base
        for region in list(self.user.values()):
            if region.base <= address < region.base + max(region.size, 1):
                if _user_alive(region):
                    return region, address - region.base
        return None

    def why_unknown(self, address: int) -> str:
        """Explain an address that resolves to nothing."""
        for base, size, by in reversed(self.freed):
            if base <= address < base + max(size, 1):
                return f"{address:#x} points into memory already freed by {by}"
        if address >= DEVICE_BASE:
            return f"{address:#x} is not inside any live device allocation"
        return (f"{address:#x} is not memory the simulator knows: not from acl.rt.malloc/malloc_host, "
                f"and not from acl.util.bytes_to_ptr/numpy_to_ptr of an object that is still alive "
                f"(keep the bytes object in a variable for as long as you use its pointer)")

    def resolve(self, address: int, count: int) -> Tuple[Optional[Region], int, str]:
        """(region, offset, '') when ``count`` bytes at ``address`` are valid, else (None, 0, reason)."""
        found = self.find(address)
        if found is None:
            return None, 0, self.why_unknown(address)
        region, offset = found
        if offset + count > region.size:
            return None, 0, (f"{count} bytes at {address:#x} run past the end of its {region.size}-byte "
                             f"{describe(region)} (only {region.size - offset} bytes from there)")
        return region, offset, ""


def describe(region: Region) -> str:
    """Human name of a region's kind."""
    return {"device": "device allocation (acl.rt.malloc)", "host": "host allocation (acl.rt.malloc_host)",
            "bytes": "bytes object (acl.util.bytes_to_ptr)",
            "numpy": "ndarray (acl.util.numpy_to_ptr)", "model": "loaded model's weight/work memory"}[region.kind]


def space() -> MemorySpace:
    """The memory space of the current simulated process."""
    st = state()
    if st.memory is None:
        st.memory = MemorySpace()
    return st.memory


def host_view(api: str, address: int, size: int) -> np.ndarray:
    """uint8 view the *host CPU* may read/write, or SimulatorFault where real hardware would crash."""
    region, offset, why = space().resolve(address, size)
    if region is None:
        raise SimulatorFault(f"{api}: {why}. On real hardware this reads invalid memory and can crash "
                             f"the process.")
    if region.on_device and region.base >= DEVICE_BASE and not is_board():
        raise SimulatorFault(f"{api}: {address:#x} is device memory; in ACL_HOST run mode the host CPU "
                             f"cannot read it (a real process would crash). Copy it to host memory first "
                             f"with acl.rt.memcpy(..., ACL_MEMCPY_DEVICE_TO_HOST).")
    return region.view(offset, size)


# -- acl.rt memory API ------------------------------------------------------------------------
def _device_alloc_checks(api: str, size: int) -> Tuple[int, int]:
    """(device id, 0) when a device allocation may proceed, else (0, code)."""
    ret = require_init(api)
    if ret:
        return 0, ret
    _, ret = current_context(api)
    if ret:
        return 0, ret
    if size == 0:
        return 0, fail(100000, api, "size is 0.")
    return current_device_id() or 0, 0


def _out_of_memory(api: str, size: int) -> int:
    sp, total = space(), state().config.device_memory
    return fail(207001, api, f"cannot allocate {size} bytes: {total - sp.device_used} of {total} bytes "
                f"of device memory are free (see the ledger for what is still allocated).")


@binding("acl.rt.malloc", "ki")
def malloc(api, size, policy):
    """(device pointer, ret): ``size`` bytes of device memory, not zeroed."""
    with state().lock:
        device_id, ret = _device_alloc_checks(api, size)
        if ret:
            return 0, ret
        if policy < 0 or (policy & 0xFF) > C.ACL_MEM_MALLOC_HUGE1G_ONLY_P2P or policy & ~0xFF & ~_MEM_FLAGS:
            return 0, fail(100000, api, f"policy {policy} is not an aclrtMemMallocPolicy "
                           f"(use ACL_MEM_MALLOC_HUGE_FIRST = 0).")
        region = space().allocate(size, True, "device", device_id)
        if region is None:
            return 0, _out_of_memory(api, size)
        state().ledger.add("device memory", region.base, f"{size} bytes on device {device_id}", size=size)
        return region.base, 0


@binding("acl.rt.malloc_host", "k", needs=INIT, outs=1)
def malloc_host(api, size):
    """(host pointer, ret): page-locked host memory; on a board (ACL_DEVICE) it is device memory."""
    with state().lock:
        if is_board():
            device_id, ret = _device_alloc_checks(api, size)
            if ret:
                return 0, ret
            region = space().allocate(size, True, "device", device_id)
            if region is None:
                return 0, _out_of_memory(api, size)
            state().ledger.add("host memory", region.base, f"{size} bytes (device memory on a board)",
                               size=size)
            region.kind = "host"
            return region.base, 0
        if size == 0:
            return 0, fail(100000, api, "size is 0.")
        region = space().allocate(size, False, "host", 0)
        if region is None:
            return 0, fail(207001, api, f"cannot allocate {size} bytes of host memory.")
        state().ledger.add("host memory", region.base, f"{size} bytes", size=size)
        return region.base, 0


def _free(api: str, ptr: int, kind: str, other: str) -> int:
    ret = require_init(api)
    if ret:
        return ret
    if ptr == 0:
        return fail(100000, api, "pointer is 0 (NULL).")
    with state().lock:
        sp = space()
        region = sp.allocs.get(ptr)
        if region is None:
            found = sp.find(ptr)
            why = (f"{ptr:#x} is inside an allocation but not its start ({found[1]} bytes in); free the "
                   f"pointer malloc returned" if found else sp.why_unknown(ptr))
            return fail(107000, api, why + ".")
        if region.kind != kind:
            return fail(107000, api, f"{ptr:#x} came from {describe(region)}; release it with {other}.")
        sp.release(region, api)
        return 0


@binding("acl.rt.free", "k")
def free(api, dev_ptr):
    """Free device memory from acl.rt.malloc."""
    return _free(api, dev_ptr, "device", "acl.rt.free_host")


@binding("acl.rt.free_host", "k")
def free_host(api, host_ptr):
    """Free host memory from acl.rt.malloc_host."""
    return _free(api, host_ptr, "host", "acl.rt.free")


def _location(region: Region) -> str:
    return "device" if region.on_device else "host"


def check_copy(api: str, dst: int, dst_max: int, src: int, count: int, kind: int
               ) -> Tuple[int, Optional[Tuple[Region, int, Region, int]]]:
    """Validate a copy like the runtime does: (0, (dst region, offset, src region, offset)) or (code, None)."""
    ret = require_init(api)
    if ret:
        return ret, None
    _, ret = current_context(api)
    if ret:
        return ret, None
    if dst == 0 or src == 0:
        return fail(100000, api, f"{'dst' if dst == 0 else 'src'} is 0 (NULL)."), None
    if kind not in _KIND_NAMES:
        return fail(100000, api, f"kind {kind} is not an aclrtMemcpyKind (0..4)."), None
    if count > dst_max:
        return fail(107000, api, f"count {count} is larger than dst_max {dst_max}."), None
    sp = space()
    d_region, d_off, why = sp.resolve(dst, count)
    if d_region is None:
        return fail(107000, api, f"dst: {why}."), None
    s_region, s_off, why = sp.resolve(src, count)
    if s_region is None:
        return fail(107000, api, f"src: {why}."), None
    if not is_board() and kind != C.ACL_MEMCPY_DEFAULT:
        want_src, want_dst = _KIND_NAMES[kind].lower().split("_to_")
        if (_location(s_region), _location(d_region)) != (want_src, want_dst):
            return fail(107000, api, f"kind ACL_MEMCPY_{_KIND_NAMES[kind]} copies {want_src} -> {want_dst}, "
                        f"but src is {_location(s_region)} memory ({describe(s_region)}) and dst is "
                        f"{_location(d_region)} memory ({describe(d_region)}). Use ACL_MEMCPY_"
                        f"{_location(s_region).upper()}_TO_{_location(d_region).upper()}."), None
    return 0, (d_region, d_off, s_region, s_off)


def do_copy(plan: Tuple[Region, int, Region, int], count: int) -> None:
    """Move the bytes of a validated copy."""
    d_region, d_off, s_region, s_off = plan
    np.copyto(d_region.view(d_off, count), s_region.view(s_off, count))


@binding("acl.rt.memcpy", "kkkki", needs=INIT)
def memcpy(api, dst, dst_max, src, count, kind):
    """Synchronous copy of ``count`` bytes; argument order dst, dst_max, src, count, kind."""
    if count == 0:
        return 0
    ret, plan = check_copy(api, dst, dst_max, src, count, kind)
    if ret:
        return ret
    do_copy(plan, count)
    return 0


@binding("acl.rt.memcpy_async", "kkkkik", needs=INIT)
def memcpy_async(api, dst, dst_max, src, count, kind, stream):
    """Enqueue a copy on ``stream``; the bytes move when the stream runs (synchronize_stream).

    UNCONFIRMED: the real runtime documents 64-byte address alignment for async copies; the
    simulator does not reject unaligned addresses.
    """
    from .streams import enqueue, resolve_stream
    if count == 0:
        return 0
    ret, plan = check_copy(api, dst, dst_max, src, count, kind)
    if ret:
        return ret
    handle, ret = resolve_stream(api, stream)
    if ret:
        return ret

    def task():
        """Run the copy; memory freed since enqueue fails the stream (UNCONFIRMED code 507000)."""
        d_region, d_off, why = space().resolve(dst, count)
        s_region, s_off, why_src = space().resolve(src, count)
        if d_region is None or s_region is None:
            return 507000, f"memcpy_async {'dst' if d_region is None else 'src'}: {why or why_src}"
        do_copy((d_region, d_off, s_region, s_off), count)
        return None

    enqueue(handle, f"memcpy_async {count} bytes {_KIND_NAMES[kind]}", task)
    return 0


@binding("acl.rt.memset", "kkik", needs=INIT)
def memset(api, dev_ptr, max_size, value, count):
    """Fill ``count`` bytes with ``value`` (host or device memory)."""
    if count == 0:
        return 0
    if dev_ptr == 0:
        return fail(100000, api, "pointer is 0 (NULL).")
    if count > max_size:
        return fail(107000, api, f"count {count} is larger than max_size {max_size}.")
    region, offset, why = space().resolve(dev_ptr, count)
    if region is None:
        return fail(107000, api, why + ".")
    region.view(offset, count).fill(value & 0xFF)
    return 0


@binding("acl.rt.get_mem_info", "i", needs=CONTEXT, outs=2)
def get_mem_info(api, attr):
    """(free bytes, total bytes, ret) of the current device's memory."""
    if not 0 <= attr <= C.ACL_MEM_NORMAL:
        return 0, 0, fail(100000, api, f"attr {attr} is not an aclrtMemAttr (0..12).")
    total = state().config.device_memory
    return total - space().device_used, total, 0
