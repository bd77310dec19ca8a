"""Recording the pyACL calls each step makes, and printing them back as Python ("show me the code").

Every call goes through ``call(calls, "acl.rt.malloc", size, policy)``: it runs the documented
function on the active backend, remembers arguments and result, and names the handles it
returns (``dev_ptr``, ``context`` …) so later calls print with those names instead of numbers.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, List, Tuple

from . import backend
from .state import current

# result variable names of the calls that create things
RESULT_NAMES = {
    "acl.rt.create_context": ("context", "ret"), "acl.rt.create_stream": ("stream", "ret"),
    "acl.rt.malloc": ("dev_ptr", "ret"), "acl.rt.malloc_host": ("host_ptr", "ret"),
    "acl.rt.get_run_mode": ("run_mode", "ret"), "acl.rt.get_context": ("context", "ret"),
    "acl.mdl.load_from_file": ("model_id", "ret"), "acl.mdl.load_from_mem": ("model_id", "ret"),
    "acl.mdl.load_from_file_with_mem": ("model_id", "ret"), "acl.mdl.load_from_mem_with_mem": ("model_id", "ret"),
    "acl.mdl.query_size": ("work_size", "weight_size", "ret"), "acl.mdl.create_desc": ("model_desc",),
    "acl.mdl.create_dataset": ("dataset",), "acl.create_data_buffer": ("data_buffer",),
    "acl.mdl.add_dataset_buffer": ("_", "ret"), "acl.util.bytes_to_ptr": ("ptr",),
    "acl.mdl.get_cur_output_dims": ("dims", "ret"), "acl.mdl.get_input_dims": ("dims", "ret"),
    "acl.mdl.get_output_dims": ("dims", "ret"), "acl.util.ptr_to_bytes": ("data",),
    "acl.util.start_thread": ("thread_id", "ret"), "acl.mdl.get_dynamic_batch": ("batch_info", "ret"),
    "acl.mdl.get_dynamic_hw": ("hw_info", "ret"), "acl.mdl.get_input_index_by_name": ("index", "ret"),
    "acl.media.dvpp_malloc": ("dvpp_ptr", "ret"), "acl.media.dvpp_create_channel_desc": ("channel_desc",),
    "acl.media.dvpp_create_pic_desc": ("pic_desc",), "acl.media.dvpp_create_resize_config": ("resize_config",),
    "acl.media.dvpp_create_roi_config": ("roi_config",),
    "acl.media.dvpp_jpeg_get_image_info": ("width", "height", "components", "ret"),
    "acl.media.dvpp_jpeg_predict_dec_size": ("dec_size", "ret"),
}
HANDLE_RESULTS = {"context", "stream", "dev_ptr", "host_ptr", "model_desc", "dataset", "data_buffer", "ptr",
                  "thread_id", "dvpp_ptr", "channel_desc", "pic_desc", "resize_config", "roi_config"}


@dataclass
class Call:
    """One pyACL call: the API, its arguments, what it returned, and its line of Python."""

    api: str
    args: Tuple[Any, ...]
    result: Any
    names: Tuple[str, ...] = ()
    text: str = ""

    expression: str = ""

    def python(self) -> str:
        """The call as a line of Python, handles replaced by the variable names they had then."""
        return self.text or _render(self)


def _expression(c: Call) -> str:
    return f"{c.api}({', '.join(_literal(a) for a in c.args)})"


def _render(c: Call, expression: str = "") -> str:
    text = expression or _expression(c)
    short = c.api.rsplit(".", 1)[-1]
    if c.names:
        text = f"{', '.join(c.names)} = {text}"
    elif short.startswith("get_") and c.result is not None:
        text = f"{short[4:]} = {text}"  # getters return the value itself, not a ret
    elif isinstance(c.result, int) and not isinstance(c.result, bool):
        text = f"ret = {text}"
    return f"{text}  # -> {_shown(c.result)}"


def is_address(value: Any) -> bool:
    """Handles and pointers are 64-bit addresses; sizes and ids are far smaller."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1 << 32


def _literal(value: Any) -> str:
    names = current().names
    if isinstance(value, int) and value in names:
        return names[value]
    if isinstance(value, bytes):
        return "data"
    if isinstance(value, (list, tuple)):
        inner = ", ".join(_literal(v) for v in value)
        return f"[{inner}]" if isinstance(value, list) else f"({inner}{',' if len(value) == 1 else ''})"
    if is_address(value):
        return hex(value)
    if callable(value):
        return getattr(value, "__name__", "callback")
    return repr(value)


def _shown(result: Any) -> str:
    if isinstance(result, bytes):
        return f"<{len(result)} bytes>"
    if isinstance(result, tuple):
        return "(" + ", ".join(_shown(r) for r in result) + ")"
    if is_address(result):
        return current().names.get(result, hex(result))
    text = repr(result)
    return text if len(text) < 80 else text[:77] + "..."


def _name_results(api: str, result: Any) -> Tuple[str, ...]:
    names = RESULT_NAMES.get(api)
    if not names:
        return ()
    values = result if isinstance(result, tuple) else (result,)
    out, st = [], current()
    for name, value in zip(names, values):
        if name in HANDLE_RESULTS and isinstance(value, int) and value:
            if value not in st.names:
                n = st.counts.get(name, 0)
                st.counts[name] = n + 1
                st.names[value] = name if n == 0 else f"{name}_{n}"
            out.append(st.names[value])
        else:
            out.append(name)
    return tuple(out)


def resolve(api: str):
    """The function behind 'acl.rt.malloc' on the active backend."""
    obj = backend.acl()
    for part in api.split(".")[1:]:
        obj = getattr(obj, part)
    return obj


def call(calls: List[Call], api: str, *args: Any) -> Any:
    """Run one documented pyACL call on the active backend and record it."""
    result = resolve(api)(*args)
    record = Call(api, args, result, _name_results(api, result))
    record.expression = _expression(record)
    record.text = _render(record, record.expression)  # rendered now: names are forgotten after finalize
    calls.append(record)
    return result


def forget_names() -> None:
    """Start naming handles afresh (after finalize)."""
    current().forget_names()


def name_of(handle: int, default: str = "0x…") -> str:
    """The variable name printed code uses for ``handle``."""
    return current().names.get(handle, default)


def as_python(calls: List[Call]) -> str:
    """The calls as Python lines."""
    return "\n".join(c.python() for c in calls)
