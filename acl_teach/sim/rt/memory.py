"""Host and device memory: ``acl.rt.malloc`` … ``memcpy`` and the pointer checks behind them.

Device memory is a separate address space (addresses from 0x1000_0000_0000_0000, which no
process address can ever be), so a device pointer cannot be read by accident. Host memory is
real process memory: ``malloc_host`` buffers, the insides of ``bytes``/``ndarray`` objects
handed out by ``acl.util.bytes_to_ptr`` / ``numpy_to_ptr``, and any other address of this process
(``ndarray.ctypes.data``, a ctypes buffer, an mmap): pyACL passes the integer straight to the
runtime, so the simulator accepts a raw host pointer once the process's memory map (``procmem``)
shows the whole range readable (a source) or writable (a destination) — a bad one is 107000, never
a segfault. ``acl.rt.malloc`` allocations carry aclrtMalloc's hidden padding (``PAD_FILL``).
A ``bytes_to_ptr``/``numpy_to_ptr`` pointer whose object died reads what the object held (the
simulator keeps the newest dead objects, ``DEAD_KEEP``), with a warning once per object.

Faithful, not strict: what real pyACL accepts goes through, and where the hardware would then
silently misbehave the simulator makes the consequence visible and warns (``state.warn``):

* a copy that reads past the end of a Python host object (``bytes_to_ptr``/``numpy_to_ptr``) gets
  the object's bytes and then ``GARBAGE`` bytes for the rest — on a board those bytes are whatever
  the process holds next to the object (the official resnet50_imagenet_dynamic_hw sample does this);
* a memcpy ``kind`` that does not match where the pointers live is ignored: the copy follows the
  pointers, as the runtime does (``kind`` is a reserved parameter in the aclrtMemcpy docs; the
  driver's ``drvMemcpy(dst, destMax, src, size)`` takes no kind, and ``MemcpyKindAutoCorrect`` in
  hicann/runtime ``src/runtime/api/impl/api_error.cc`` rewrites the kind from the pointer locations);
* a write into a ``bytes`` object (``bytes_to_ptr`` used as a D2H destination, as the official
  acllite does) happens, with a warning that Python's immutable object was changed. Writes into a
  bytes object of length 0 or 1 are refused (107000, UNCONFIRMED): CPython shares those objects
  across the whole interpreter (``b"a"``), so the write would corrupt the simulator's own process.

``configure(strict=True)`` turns each warning back into the 107000 the simulator used to return.
Rejected as the runtime rejects them: NULL pointers and kinds outside 0..5 (100000, ``MemcpyKindTranslate``
in ``src/acl/aclrt_impl/memory.cpp``), ``count > dst_max`` (107000), device allocations overrun
(107000, UNCONFIRMED).
"""
from __future__ import annotations

import bisect
from collections import OrderedDict
import ctypes
import sys
import threading
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np

from .. import constants as C
from ..core import procmem
from ..core.args import CONTEXT, INIT, binding
from .runtime import current_context, current_device_id, is_board
from ..core.state import HANDLE_BASE, SimulatorFault, fail, require_init, state, warn
from ..core.timeline import clock, copy_cost, fill_cost

DEVICE_BASE = 0x1000_0000_0000_0000
DEVICE_END = HANDLE_BASE  # device addresses stop where handles start, so neither is ever taken for the other
ALIGN = 0x200
POISON = 0xA5  # written over freed memory so use-after-free shows
UNINITIALISED = 0xCD  # fresh device memory is not zeroed on a real NPU either
# aclrtMalloc's hidden padding (ALIGN_UP(size, 32) + 32) holds zeros: the simulator's choice (on a board it
# holds whatever the memory held). Programs read it unknowingly — the BERT sample's 1192-byte buffer for a
# 1200-byte input — and zeros keep them working as they do on a board, where it is rarely NaN garbage.
PAD_FILL = 0x00
MAX_FREED = 4096  # freed ranges remembered for 'already freed by …' (oldest forgotten first)
GRAVEYARD_BYTES = 64 << 20  # freed blocks kept (poisoned) for use-after-free, oldest dropped first
# regions whose bytes belong to something else (host memory, a physical handle, an exporter's allocation):
# releasing the address must not poison what the owner still holds
BORROWED = ("mapped", "vmm", "ipc")
PATTERN_LIMIT = 16 << 20  # larger buffers skip the fill patterns: touching GBs of RAM could kill a kernel
# What the simulator puts where real hardware reads bytes it has no data for (past the end of a host
# object, a model input's alignment padding). The simulator's choice, not hardware fact: on a board
# those bytes are whatever memory holds there. 0xFF reads as NaN in fp16/fp32 and -1 as a signed int.
GARBAGE = 0xFF
_KIND_NAMES = {kind: name[len("ACL_MEMCPY_"):] for kind, name in C.MEMCPY_KIND_NAMES.items()}
# the direction each kind claims (DEFAULT claims none); HOST_TO_BUF_TO_DEVICE is a host -> device copy
_KIND_DIRECTION = {C.ACL_MEMCPY_HOST_TO_HOST: ("host", "host"), C.ACL_MEMCPY_HOST_TO_DEVICE: ("host", "device"),
                   C.ACL_MEMCPY_DEVICE_TO_HOST: ("device", "host"),
                   C.ACL_MEMCPY_DEVICE_TO_DEVICE: ("device", "device"),
                   C.ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE: ("host", "device")}
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
    requested: int = -1  # bytes asked for, when ``size`` includes aclrtMalloc's hidden padding
    charged: int = 0  # device memory this allocation counts against the device's total
    note: str = ""  # for a raw pointer: what the process map says backs it
    warned: bool = False  # a dead object's pointer: the warning was given (once per object)

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


DEAD_KEEP = 256  # dead bytes_to_ptr/numpy_to_ptr objects kept (oldest dropped) so their pointers read the old bytes
DEAD_BYTES = 8 << 20  # small: a dead pointer is used at once (acllite), and a long session must stay flat


def _raw_view(address: int, size: int) -> np.ndarray:
    """A writable uint8 view of process memory the caller has vouched for."""
    if size == 0:
        return np.empty(0, np.uint8)
    return np.ctypeslib.as_array((ctypes.c_ubyte * size).from_address(address))


class FreedRanges:
    """The most recent MAX_FREED freed ranges (for 'already freed by …' messages): bounded, looked up by bisect.

    A list of every free grew forever (+146 MB per 200,000 malloc/free pairs) and each unknown
    pointer scanned it; the oldest ranges are forgotten (an address in one is then just unknown).
    """

    def __init__(self) -> None:
        self.ranges: "OrderedDict[int, Tuple[int, str]]" = OrderedDict()  # base -> (size, by), oldest first
        self.bases: List[int] = []  # sorted

    def add(self, base: int, size: int, by: str) -> None:
        if base in self.ranges:
            self.ranges.pop(base)
        else:
            bisect.insort(self.bases, base)
        self.ranges[base] = (size, by)
        if len(self.ranges) > MAX_FREED:
            old, _ = self.ranges.popitem(last=False)
            del self.bases[bisect.bisect_left(self.bases, old)]

    def find(self, address: int) -> Optional[str]:
        """Who freed the range holding ``address`` (the nearest base at or below it), or None."""
        i = bisect.bisect_right(self.bases, address) - 1
        if i < 0:
            return None
        size, by = self.ranges[self.bases[i]]
        return by if address < self.bases[i] + max(size, 1) else None

    def __len__(self) -> int:
        return len(self.ranges)


class MemorySpace:
    """All allocations, user buffers and freed ranges of one simulated process."""

    def __init__(self) -> None:
        self.allocs: Dict[int, Region] = {}
        self._bases: List[int] = []
        self.user: Dict[Tuple[int, int], Region] = {}
        self.freed = FreedRanges()
        self.graveyard: "OrderedDict[int, Tuple[Region, str]]" = OrderedDict()
        self._grave_bytes = 0
        self.device_used = 0
        self._next_device = DEVICE_BASE
        self.lock = threading.RLock()  # bytes_to_ptr and copies may run in several threads at once

    # -- allocation -------------------------------------------------------------------------
    def allocate(self, size: int, on_device: bool, kind: str, device_id: int,
                 pad: bool = False) -> Optional[Region]:
        """A new allocation, or None when device memory (or the host RAM behind it) is exhausted.

        ``pad``: the allocation really is ``charge(size)`` bytes, as aclrtMalloc's is, so reads and
        writes into the padding stay inside it.
        """
        with self.lock:
            return self._allocate(size, on_device, kind, device_id, pad)

    def _allocate(self, size: int, on_device: bool, kind: str, device_id: int, pad: bool) -> Optional[Region]:
        charged = self.charge(size)
        if on_device and self.device_used + charged > state().config.device_memory:
            return None
        try:  # the OS maps pages lazily: untouched memory costs no RAM
            array = np.empty(charged if pad else size, np.uint8)
        except (MemoryError, ValueError):
            return None
        if on_device:
            if size <= PATTERN_LIMIT:
                array[:size].fill(UNINITIALISED)
                array[size:].fill(PAD_FILL)
            base = self._next_device
            self._next_device += (charged + ALIGN - 1) // ALIGN * ALIGN
            self.device_used += charged
        else:
            base = array.ctypes.data
        region = Region(base, array.size, kind, on_device, array, device_id=device_id,
                        requested=size if pad else -1, charged=charged if on_device else 0)
        self.allocs[base] = region
        bisect.insort(self._bases, base)
        return region

    @staticmethod
    def charge(size: int) -> int:
        """What aclrtMalloc really reserves: size rounded up to 32 bytes, plus 32."""
        return (size + 31) // 32 * 32 + 32

    def release(self, region: Region, by: str) -> None:
        """Free an allocation: poison it, forget it, remember the range for error messages."""
        with self.lock:
            if self.allocs.get(region.base) is not region:
                return  # already released (reset_device, finalize, or twice through a model)
            if region.size <= PATTERN_LIMIT and region.kind not in BORROWED:
                region.array.fill(POISON)
                self._bury(region, by)
            del self.allocs[region.base]
            self._bases.remove(region.base)
            self.device_used -= region.charged
            self.freed.add(region.base, region.size, by)
        state().ledger.release(region.base, by)

    def _bury(self, region: Region, by: str) -> None:
        """Keep a freed block (poisoned, bounded in total) so a use after free lands where nothing else looks."""
        self.graveyard[region.base] = (region, by)
        self._grave_bytes += region.size
        while self._grave_bytes > GRAVEYARD_BYTES:
            _, (old, _) = self.graveyard.popitem(last=False)
            self._grave_bytes -= old.size

    def find_freed(self, address: int, count: int) -> Optional[Tuple[Region, int, str]]:
        """(dead block, offset, who freed it) when ``count`` bytes at ``address`` lie in one freed block."""
        with self.lock:
            for base, (region, by) in reversed(self.graveyard.items()):
                if base <= address and address + count <= base + region.size:
                    return region, address - base, by
        return None

    def release_device_memory(self, device_id: int, by: str) -> None:
        """Free every device allocation of a device (reset_device at refcount zero).

        vmm mappings and ipc imports are left to their subsystems' on_device_reset, which also forget them in
        their own tables (a mapping dropped here stayed in Reservation.maps and blocked free_physical).
        """
        for region in list(self.allocs.values()):
            if region.base >= DEVICE_BASE and region.device_id == device_id and region.kind not in ("vmm", "ipc"):
                self.release(region, by)

    def release_all(self, by: str) -> None:
        """Free every allocation, host and device (acl.finalize tears the process's runtime down)."""
        for region in list(self.allocs.values()):
            self.release(region, by)

    # -- user buffers -----------------------------------------------------------------------
    def register_user(self, obj: Any, address: int, size: int, kind: str) -> int:
        """Remember a bytes/ndarray buffer so copies may touch it while the object lives (thread-safe)."""
        with self.lock:
            self.prune()
            key = (address, size)
            known = self.user.get(key)
            if known is None or known.obj is not obj:
                self.user[key] = Region(address, size, kind, False, _raw_view(address, size), obj)
        return address

    def prune(self) -> None:
        """Forget the oldest user buffers whose objects are gone, beyond DEAD_KEEP of them or DEAD_BYTES.

        The newest dead ones stay (the simulator still holds their objects, so nothing else can
        reuse those addresses): a pointer from ``bytes_to_ptr(x.tobytes())`` reads the old bytes,
        with a warning, as it usually does on a board.
        """
        with self.lock:
            dead = [(key, region) for key, region in self.user.items() if not _user_alive(region)]
            total = sum(region.size for _, region in dead)
            for key, region in dead[:max(0, len(dead) - DEAD_KEEP)]:
                self.user.pop(key, None)
                total -= region.size
            for key, region in dead[max(0, len(dead) - DEAD_KEEP):]:
                if total <= DEAD_BYTES:
                    break
                self.user.pop(key, None)
                total -= region.size

    # -- lookup -----------------------------------------------------------------------------
    def find(self, address: int) -> Optional[Tuple[Region, int]]:
        """(region, offset) containing ``address``, or None."""
        with self.lock:
            return self._find(address)

    def _find(self, address: int) -> Optional[Tuple[Region, int]]:
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

    def find_dead_user(self, address: int) -> Optional[Tuple[Region, int]]:
        """(region, offset) of a bytes/ndarray buffer whose object has died but is still kept, or None."""
        with self.lock:
            for region in reversed(list(self.user.values())):
                if region.base <= address < region.base + max(region.size, 1) and not _user_alive(region):
                    return region, address - region.base
        return None

    def _fallback(self, api: str, address: int, count: int, write: bool,
                  quiet: bool = False) -> Tuple[Optional[Region], int, str]:
        """An address no live allocation or object holds: a dead object's kept bytes (warned), a raw host
        pointer the process map vouches for, or (None, 0, why)."""
        dead = self.find_dead_user(address)
        if dead is not None:
            region, offset = dead
            ret = 0
            if not quiet and (not region.warned or state().config.strict):
                region.warned = True
                ret = warn(107000, api or "a copy", _dead_object_note(region, address))
            if ret:
                return None, 0, "the pointer's object has died (strict mode refuses it)"
            return region, offset, ""
        if address >= DEVICE_BASE or self.find_freed(address, max(count, 1)) is not None:
            return None, 0, self.why_unknown(address)
        why = procmem.check_range(address, count, write)
        if why is not None:
            return None, 0, f"{self.why_unknown(address)}, and as a raw host pointer: {why}"
        view = _raw_view(address, count)
        readonly = procmem.check_range(address, count, True) is not None
        if readonly:
            view.flags.writeable = False
        return Region(address, count, "raw", False, view, note=procmem.describe(address)), 0, ""

    def why_unknown(self, address: int) -> str:
        """Explain an address that resolves to nothing."""
        by = self.freed.find(address)
        if by is not None:
            return f"{address:#x} points into memory already freed by {by}"
        if address >= DEVICE_BASE:
            return f"{address:#x} is not inside any live device allocation"
        return (f"{address:#x} is not memory the simulator handed out (acl.rt.malloc/malloc_host, "
                f"acl.util.bytes_to_ptr/numpy_to_ptr)")

    def resolve(self, address: int, count: int, api: str = "", write: bool = False, quiet: bool = False
                ) -> Tuple[Optional[Region], int, str]:
        """(region, offset, '') when ``count`` bytes at ``address`` are valid, else (None, 0, reason).

        Beyond what the simulator handed out, any host range the process map shows readable (and
        writable when ``write``) is valid: a raw pointer, as pyACL passes it to the runtime.
        """
        found = self.find(address)
        if found is None:
            return self._fallback(api, address, count, write, quiet)
        region, offset = found
        if offset + count > region.size:
            return None, 0, (f"{count} bytes at {address:#x} run past the end of its {region.size}-byte "
                             f"{describe(region)} (only {region.size - offset} bytes from there)")
        return region, offset, ""

    def resolve_read(self, address: int, count: int, api: str = "") -> Tuple[Optional[Region], int, int, str]:
        """(region, offset, readable, '') for a read of ``count`` bytes; ``readable < count`` only when the
        read runs past the end of a Python host object (bytes/ndarray), else (None, 0, 0, reason)."""
        found = self.find(address)
        if found is None:
            region, offset, why = self._fallback(api, address, count, False)
            if region is None:
                return None, 0, 0, why
            found = region, offset
        region, offset = found
        available = max(region.size - offset, 0)
        if count <= available or region.kind in ("bytes", "numpy"):
            return region, offset, min(count, available), ""
        return None, 0, 0, (f"{count} bytes at {address:#x} run past the end of its {region.size}-byte "
                            f"{describe(region)} (only {available} bytes from there)")


def _dead_object_note(region: Region, address: int) -> str:
    """The warning for a pointer whose bytes/ndarray object has been garbage-collected."""
    what = "bytes object" if region.kind == "bytes" else "ndarray"
    return (f"{address:#x} came from acl.util.{'bytes_to_ptr' if region.kind == 'bytes' else 'numpy_to_ptr'} of "
            f"a {region.size}-byte {what} that no longer exists (nothing kept a reference to it, as with "
            f"bytes_to_ptr(x.tobytes())). On a board the pointer reads freed memory: undefined, usually still "
            f"the old bytes; the simulator kept the object and used what it held. Keep the object in a "
            f"variable for as long as you use its pointer.")


def describe(region: Region) -> str:
    """Human name of a region's kind."""
    if region.kind == "raw":
        return region.note or procmem.describe(region.base)
    return {"device": "device allocation (acl.rt.malloc)", "host": "host allocation (acl.rt.malloc_host)",
            "bytes": "bytes object (acl.util.bytes_to_ptr)",
            "numpy": "ndarray (acl.util.numpy_to_ptr)", "model": "loaded model's weight/work memory",
            "dvpp": "DVPP allocation (acl.media.dvpp_malloc)",
            "mapped": "registered host memory (acl.rt.host_register)",
            "vmm": "mapped physical memory (acl.rt.map_mem; release with unmap_mem)"}.get(region.kind, region.kind)


_SPACE_LOCK = threading.Lock()


def space() -> MemorySpace:
    """The memory space of the current simulated process (made once, under a lock: two threads' first
    allocations must land in the same space)."""
    st = state()
    memory = st.memory
    if memory is None:
        with _SPACE_LOCK:
            if st.memory is None:
                st.memory = MemorySpace()
            memory = st.memory
    return memory


def host_view(api: str, address: int, size: int) -> np.ndarray:
    """uint8 view the *host CPU* may read/write, or SimulatorFault where real hardware would crash."""
    region, offset, why = space().resolve(address, size, api)
    if region is None:
        raise SimulatorFault(f"{api}: {why}. On real hardware this reads invalid memory and can crash "
                             f"the process.")
    if region.on_device and region.base >= DEVICE_BASE and not is_board():
        raise SimulatorFault(f"{api}: {address:#x} is device memory; in ACL_HOST run mode the host CPU "
                             f"cannot read it (a real process would crash). Copy it to host memory first "
                             f"with acl.rt.memcpy(..., ACL_MEMCPY_DEVICE_TO_HOST).")
    return region.view(offset, size)


# -- what may be written ------------------------------------------------------------------------
def _bytes_owner(region: Region) -> Optional[bytes]:
    """The bytes object whose buffer ``region`` is (directly, or under a read-only ndarray), or None."""
    obj = region.obj
    while isinstance(obj, np.ndarray):
        if obj.flags.writeable:
            return None
        obj = obj.base
    return obj if isinstance(obj, bytes) else None


_WRITABLE_FIX = ("for writable host memory use acl.util.numpy_to_ptr(np.empty(n, np.uint8)) (keep the array) "
                 "or acl.rt.malloc_host")


def write_problem(region: Region, what: str) -> Tuple[Optional[str], Optional[str]]:
    """(refusal, warning) for writing into ``region``: both None unless it is a bytes object's buffer.

    pyACL writes wherever the pointer says, and the official acllite uses ``bytes_to_ptr`` as a
    copy destination, so a write into an ordinary bytes object goes through with a warning. A
    bytes object of length 0 or 1 is one of CPython's interpreter-wide singletons (every ``b"a"``
    in the process is that object): writing into it would change that value everywhere, so the
    simulator refuses (107000, UNCONFIRMED: real pyACL would corrupt the interpreter instead).
    """
    owner = _bytes_owner(region)
    if owner is None:
        return None, None
    if len(owner) <= 1:
        return (f"{what} is the buffer of the {len(owner)}-byte bytes object {owner!r}. CPython shares bytes "
                f"objects of length 0 and 1 across the whole interpreter, so this write would change {owner!r} "
                f"everywhere in the program (real pyACL silently does); the simulator refuses it: "
                f"{_WRITABLE_FIX}."), None
    return None, (f"{what} is the buffer of a bytes object (acl.util.bytes_to_ptr). pyACL writes into it, but "
                  f"Python bytes are immutable: every other reference to this object (and any equal constant "
                  f"that shares it) sees the new bytes too. {_WRITABLE_FIX[0].upper() + _WRITABLE_FIX[1:]}. "
                  f"(Said once per API.)")


def warn_once(api: str, why: str) -> int:
    """warn() the first time ``api`` writes into a bytes object in this process (every time in strict mode)."""
    seen = state().subsystems.setdefault("bytes_write_warned", set())
    if api in seen and not state().config.strict:
        return 0
    seen.add(api)
    return warn(107000, api, why)


def check_writable(api: str, region: Region, what: str) -> int:
    """0 when ``api`` may write into ``region`` (a bytes object: after a warning); 107000 when refused."""
    refusal, warning = write_problem(region, what)
    if refusal:
        return fail(107000, api, refusal)
    return warn_once(api, warning) if warning else 0


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
    """(device pointer, ret): ``size`` bytes of device memory, not zeroed, plus aclrtMalloc's hidden padding.

    The aclrtMallocAlign32 page: aclrtMalloc rounds the size up to a multiple of 32 and adds 32 bytes
    (aclrtMallocAlign32 only rounds). The allocation is that long, so a read or write into the padding
    stays inside it; the padding holds zeros (``PAD_FILL``, the simulator's choice).
    """
    with state().lock:
        device_id, ret = _device_alloc_checks(api, size)
        if ret:
            return 0, ret
        if policy < 0 or (policy & 0xFF) > C.ACL_MEM_MALLOC_HUGE1G_ONLY_P2P or policy & ~0xFF & ~_MEM_FLAGS:
            return 0, fail(100000, api, f"policy {policy} is not an aclrtMemMallocPolicy "
                           f"(use ACL_MEM_MALLOC_HUGE_FIRST = 0).")
        region = space().allocate(size, True, "device", device_id, pad=True)
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
            return fail(107000, api, why + ".", fix="free each allocation once, with the call that matches its "
                        "malloc, before reset_device/finalize reclaim it (after that the pointer is dead).")
        if kind == "device" and region.kind == "dvpp":  # UNCONFIRMED: DVPP memory is device memory to the runtime
            ret = warn(107000, api, f"{ptr:#x} came from acl.media.dvpp_malloc; acl.media.dvpp_free is its "
                       f"release call. The simulator freed it (the vpc samples free DVPP buffers this way).")
            if ret:
                return ret
        elif region.kind != kind:
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


def location(region: Region) -> str:
    """'device' or 'host': where the memory of ``region`` lives (on a card)."""
    return "device" if region.on_device and region.base >= DEVICE_BASE else "host"


@dataclass
class CopyPlan:
    """A validated copy: where to write, where to read, and how many source bytes really exist."""

    dst: Region
    d_off: int
    src: Region
    s_off: int
    count: int
    readable: int
    writable: int = -1  # < count only for a write that runs past the end of a device allocation

    @property
    def landing(self) -> int:
        """How many of the ``count`` bytes land in the destination allocation."""
        return self.count if self.writable < 0 else self.writable


def _device_overrun(api: str, dst: int, count: int) -> Tuple[int, Optional[Tuple[Region, int, int]]]:
    """A write past the end of a device allocation: warn, keep what fits (strict: 107000); else (-1, None).

    The runtime checks only ``count <= dst_max``; on a board the excess lands in whatever device memory
    lies next to the allocation (UNCONFIRMED whether the driver notices). Python host objects are never
    written past: that would corrupt the learner's process, so those stay refused.
    """
    found = space().find(dst)
    if found is None or not found[0].on_device or found[0].kind not in ("device", "dvpp"):
        return -1, None
    region, offset = found
    fits = region.size - offset
    ret = warn(107000, api, f"dst: {count} bytes at {dst:#x} run {count - fits} bytes past the end of its "
               f"{region.size}-byte {describe(region)}. On a board the excess overwrites whatever device memory "
               f"lies next to it; the simulator wrote the {fits} bytes that fit and dropped the rest. Allocate "
               f"as many bytes as you copy.")
    return (ret, None) if ret else (0, (region, offset, fits))


def _check_kind(api: str, kind: int, src: Region, dst: Region) -> int:
    """Warn (strict: 107000) when ``kind`` names a direction the pointers do not have; the copy follows the pointers."""
    claimed = _KIND_DIRECTION.get(kind)
    actual = (location(src), location(dst))
    if is_board() or claimed is None or claimed == actual:
        return 0
    return warn(107000, api, f"kind ACL_MEMCPY_{_KIND_NAMES[kind]} says {claimed[0]} -> {claimed[1]}, but src is "
                f"{actual[0]} memory ({describe(src)}) and dst is {actual[1]} memory ({describe(dst)}). The "
                f"runtime copies by where the pointers are (kind is a reserved parameter), so the bytes went "
                f"{actual[0]} -> {actual[1]}; say ACL_MEMCPY_{actual[0].upper()}_TO_{actual[1].upper()} (or "
                f"ACL_MEMCPY_DEFAULT) so the code reads true.")


def _is_dead(region: Region) -> bool:
    """Whether ``region`` is a freed block kept in the graveyard (a use after free)."""
    return space().graveyard.get(region.base, (None,))[0] is region


def _keep(region: Region) -> bool:
    """Whether an async task uses ``region`` as checked at enqueue (a dead block or a dead object, warned about
    then) instead of looking the address up again when it runs."""
    return _is_dead(region) or (region.kind in ("bytes", "numpy") and not _user_alive(region))


def _use_after_free(api: str, role: str, address: int, count: int, why: str) -> Tuple[int, Optional[Tuple[Region, int]]]:
    """A pointer into freed memory: warn and use the dead block (strict: 107000); else fail with ``why``.

    The ACL layer checks only for NULL (aclrtMemcpyImpl/aclrtMemsetImpl); whether the driver notices
    a freed host or device block is UNCONFIRMED. On a board it is undefined behaviour.
    """
    found = space().find_freed(address, count)
    if found is None:
        return fail(107000, api, f"{role}{why}."), None
    region, offset, by = found
    ret = warn(107000, api, f"{role}{address:#x} points into memory already freed by {by}: a use after free. "
               f"On a board the result is undefined (it may seem to work, overwrite memory that now belongs "
               f"to something else, or crash); the simulator used the dead block, which nothing else reads. "
               f"Stop using a pointer once it is freed.")
    return (ret, None) if ret else (0, (region, offset))


def _check_source(api: str, src: int, count: int) -> Tuple[int, Optional[Tuple[Region, int, int]]]:
    """(0, (region, offset, readable)) for the source of a copy; a short Python object warns (strict: 107000)."""
    region, offset, readable, why = space().resolve_read(src, count, api)
    if region is None:
        ret, dead = _use_after_free(api, "src: ", src, count, why)
        return (ret, None) if ret else (0, (dead[0], dead[1], count))
    if readable < count:
        ret = warn(107000, api, f"src: {count} bytes at {src:#x} run past the end of its {region.size}-byte "
                   f"{describe(region)} (only {readable} bytes from there). On hardware the copy reads whatever "
                   f"the process holds after the object; the simulator copied the {readable} real bytes and "
                   f"filled the other {count - readable} with {GARBAGE:#04x} (its garbage pattern). Pass the "
                   f"object's length as count.")
        if ret:
            return ret, None
    return 0, (region, offset, readable)


def check_copy(api: str, dst: int, dst_max: int, src: int, count: int, kind: int) -> Tuple[int, Optional[CopyPlan]]:
    """Validate a copy like the runtime does: (0, plan) or (code, None)."""
    ret = require_init(api)
    if ret:
        return ret, None
    _, ret = current_context(api)
    if ret:
        return ret, None
    if dst == 0 or src == 0:
        return fail(100000, api, f"{'dst' if dst == 0 else 'src'} is 0 (NULL)."), None
    if kind not in _KIND_NAMES:
        return fail(100000, api, f"kind {kind} is not an aclrtMemcpyKind the runtime accepts (0..5: "
                    f"HOST_TO_HOST, HOST_TO_DEVICE, DEVICE_TO_HOST, DEVICE_TO_DEVICE, DEFAULT, "
                    f"HOST_TO_BUF_TO_DEVICE)."), None
    if count > dst_max:
        return fail(107000, api, f"count {count} is larger than dst_max {dst_max}."), None
    d_region, d_off, why = space().resolve(dst, count, api, write=True)
    writable = -1
    if d_region is None:
        ret, over = _device_overrun(api, dst, count)
        if ret > 0:
            return ret, None
        if over is not None:
            d_region, d_off, writable = over
        else:
            ret, dead = _use_after_free(api, "dst: ", dst, count, why)
            if ret:
                return ret, None
            d_region, d_off = dead
    ret = check_writable(api, d_region, f"dst {dst:#x}")
    if ret:
        return ret, None
    ret, source = _check_source(api, src, count)
    if ret:
        return ret, None
    s_region, s_off, readable = source
    ret = _check_kind(api, kind, s_region, d_region)
    if ret:
        return ret, None
    return 0, CopyPlan(d_region, d_off, s_region, s_off, count, readable, writable)


def plan_cost(plan: CopyPlan) -> float:
    """Simulated µs of a copy, by the direction its pointers really have (timeline.py)."""
    kind = (2 if plan.src.on_device else 0) + (1 if plan.dst.on_device else 0)
    kind = {0: C.ACL_MEMCPY_HOST_TO_HOST, 1: C.ACL_MEMCPY_HOST_TO_DEVICE, 2: C.ACL_MEMCPY_DEVICE_TO_HOST,
            3: C.ACL_MEMCPY_DEVICE_TO_DEVICE}[kind]
    return copy_cost(plan.count, kind)


def do_copy(plan: CopyPlan) -> None:
    """Move the bytes of a validated copy; source bytes that do not exist arrive as GARBAGE."""
    target = plan.dst.view(plan.d_off, plan.landing)
    real = min(plan.readable, plan.landing)
    np.copyto(target[:real], plan.src.view(plan.s_off, real))
    target[real:] = GARBAGE


@binding("acl.rt.memcpy", "kkkki", needs=INIT)
def memcpy(api, dst, dst_max, src, count, kind):
    """Synchronous copy of ``count`` bytes; argument order dst, dst_max, src, count, kind."""
    if count == 0:
        return 0
    ret, plan = check_copy(api, dst, dst_max, src, count, kind)
    if ret:
        return ret
    do_copy(plan)
    clock().host_work(f"memcpy {count} bytes {_KIND_NAMES.get(kind, kind)}", "memcpy", plan_cost(plan))
    return 0


def _queue(api: str, stream: int, label: str, run: Callable[[], Any], cost_us: float = 0.0, cat: str = "task",
           *, fault: int = 507000) -> int:
    """Enqueue ``run`` on ``stream`` (0 = default stream of this thread's context): 0 or the stream's code.

    ``fault``: the code the stream reports if ``run`` raises (streams.run_task).
    """
    handle, ret = _streams.resolve_stream(api, stream)
    if ret:
        return ret
    return _streams.enqueue(handle, label, run, api, cost_us=cost_us, cat=cat, fault=fault)


@binding("acl.rt.memcpy_async", "kkkkik", needs=INIT)
def memcpy_async(api, dst, dst_max, src, count, kind, stream):
    """Enqueue a copy on ``stream``; the bytes move when the stream runs (synchronize_stream).

    UNCONFIRMED: the real runtime documents 64-byte address alignment for async copies; the
    simulator does not reject unaligned addresses.
    """
    if count == 0:
        return 0
    ret, plan = check_copy(api, dst, dst_max, src, count, kind)
    if ret:
        return ret

    dead_dst, dead_src = _keep(plan.dst), _keep(plan.src)  # warned about now, used as they are

    def task():
        """Run the copy; memory freed since enqueue fails the stream (UNCONFIRMED code 507000)."""
        d_region, d_off, why = ((plan.dst, plan.d_off, "") if dead_dst
                                else space().resolve(dst, plan.landing, api, write=True))
        s_region, s_off, readable, why_src = ((plan.src, plan.s_off, count, "") if dead_src
                                              else space().resolve_read(src, count, api))
        if d_region is None or s_region is None:
            return 507000, f"memcpy_async {'dst' if d_region is None else 'src'}: {why or why_src}"
        do_copy(CopyPlan(d_region, d_off, s_region, s_off, count, readable, plan.writable))
        return None

    return _queue(api, stream, f"memcpy_async {count} bytes {_KIND_NAMES[kind]}", task, cost_us=plan_cost(plan),
                  cat="memcpy")


def _check_fill(api: str, dev_ptr: int, max_size: int, count: int) -> Tuple[int, Optional[Tuple[Region, int]]]:
    """(0, (region, offset)) when ``count`` bytes at ``dev_ptr`` may be set, else (code, None)."""
    if dev_ptr == 0:
        return fail(100000, api, "pointer is 0 (NULL)."), None
    if count > max_size:
        return fail(107000, api, f"count {count} is larger than max_size {max_size}."), None
    region, offset, why = space().resolve(dev_ptr, count, api, write=True)
    if region is None:
        ret, dead = _use_after_free(api, "", dev_ptr, count, why)
        if ret:
            return ret, None
        region, offset = dead
    ret = check_writable(api, region, f"{dev_ptr:#x}")
    return (ret, None) if ret else (0, (region, offset))


@binding("acl.rt.memset", "kkik", needs=INIT)
def memset(api, dev_ptr, max_size, value, count):
    """Fill ``count`` bytes with ``value`` (host or device memory)."""
    if count == 0:
        return 0
    ret, target = _check_fill(api, dev_ptr, max_size, count)
    if ret:
        return ret
    target[0].view(target[1], count).fill(value & 0xFF)
    clock().host_work(f"memset {count} bytes", "memset", fill_cost(count))
    return 0


@binding("acl.rt.memset_async", "kkikk", needs=INIT)
def memset_async(api, dev_ptr, max_size, value, count, stream):
    """Enqueue a fill of ``count`` bytes on ``stream``; it happens when the stream runs (synchronize_stream)."""
    if count == 0:
        return 0
    ret, target = _check_fill(api, dev_ptr, max_size, count)
    if ret:
        return ret
    dead = _keep(target[0])  # a use after free warned about now: the dead block, as it is

    def task():
        """Fill now; memory freed since enqueue fails the stream (UNCONFIRMED code 507000)."""
        region, offset, why = (target[0], target[1], "") if dead else space().resolve(dev_ptr, count, api,
                                                                                       write=True)
        if region is None:
            return 507000, f"memset_async: {why}"
        region.view(offset, count).fill(value & 0xFF)
        return None

    return _queue(api, stream, f"memset_async {count} bytes", task, cost_us=fill_cost(count), cat="memset")


@binding("acl.rt.get_mem_info", "i", needs=CONTEXT, outs=2)
def get_mem_info(api, attr):
    """(free bytes, total bytes, ret) of the current device's memory."""
    if not 0 <= attr <= C.ACL_MEM_NORMAL:
        return 0, 0, fail(100000, api, f"attr {attr} is not an aclrtMemAttr (0..12).")
    total = state().config.device_memory
    return total - space().device_used, total, 0


from . import stream as _streams  # noqa: E402  (streams build on contexts, which import this module)
