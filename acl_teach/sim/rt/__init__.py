"""``acl.rt``: the runtime namespace — devices, contexts, streams, memory and callbacks."""
from .memory import free, free_host, get_mem_info, malloc, malloc_host, memcpy, memcpy_async, memset, memset_async
from .runtime import (create_context, destroy_context, get_context, get_device, get_device_count, get_run_mode,
                      reset_device, set_context, set_device)
from .memory_extra import (malloc_align32, malloc_cached, mem_flush, mem_invalidate, memcpy2d, memcpy2d_async,
                           pointer_get_attributes, host_register, host_register_v2, host_get_device_pointer,
                           host_unregister, malloc_with_cfg, malloc_host_with_cfg, malloc_for_task_scheduler)
from .device_info import *  # noqa: F401,F403  (device queries, peer access, id maps, limits)
from .device_info import __all__ as _device_info
from .sysparams import *  # noqa: F401,F403  (system options, op timeouts, overflow, last error)
from .sysparams import __all__ as _sysparams
from .context_opts import *  # noqa: F401,F403  (primary context state)
from .context_opts import __all__ as _context_opts
from .event import *  # noqa: F401,F403  (events, stream waits, exception-info callbacks)
from .event import __all__ as _events
from .group import *  # noqa: F401,F403  (device groups)
from .group import __all__ as _groups
from .notify import *  # noqa: F401,F403  (notifies: cross-stream flags)
from .notify import __all__ as _notify
from .stream_config import *  # noqa: F401,F403  (stream config, failure modes, aborts)
from .stream_config import __all__ as _stream_config
from .value import *  # noqa: F401,F403  (value_write / value_wait)
from .value import __all__ as _values
from .stream_res import *  # noqa: F401,F403  (per-stream core limits)
from .stream_res import __all__ as _stream_res
from .stream_sync import *  # noqa: F401,F403  (stream_query, timed synchronisation, last task id)
from .stream_sync import __all__ as _stream_sync
from .vmm import *  # noqa: F401,F403  (reserve/map/physical memory, shareable handles)
from .vmm import __all__ as _vmm
from .ipc import *  # noqa: F401,F403  (memory and notify sharing by key)
from .ipc import __all__ as _ipc
from .memcpy_more import *  # noqa: F401,F403  (conditional / descriptor copies, reduce, cmo)
from .memcpy_more import __all__ as _memcpy_more
from .device_topo import *  # noqa: F401,F403  (topology, ts device, UCE info)
from .device_topo import __all__ as _device_topo
from .allocator import *  # noqa: F401,F403  (external allocator descriptors per stream)
from .allocator import __all__ as _allocator
from .stream import (create_stream, destroy_stream, launch_callback, process_report, subscribe_report,
                     synchronize_device, synchronize_stream, unsubscribe_report)

__all__ = ["set_device", "reset_device", "get_device", "get_device_count", "get_run_mode",
           "create_context", "destroy_context", "set_context", "get_context", "create_stream",
           "destroy_stream", "synchronize_stream", "synchronize_device", "malloc", "malloc_host", "free", "free_host", "memcpy",
           "memcpy_async", "memset", "memset_async", "get_mem_info", "subscribe_report", "unsubscribe_report",
           "launch_callback", "process_report", "malloc_align32", "malloc_cached", "mem_flush", "mem_invalidate",
           "memcpy2d", "memcpy2d_async", "pointer_get_attributes", "host_register", "host_register_v2",
           "host_get_device_pointer", "host_unregister", "malloc_with_cfg", "malloc_host_with_cfg", "malloc_for_task_scheduler"] + _events + _stream_sync + _device_info + _sysparams + _notify + _stream_config + _groups + _values + _context_opts + _stream_res + _vmm + _ipc + _memcpy_more + _device_topo + _allocator
