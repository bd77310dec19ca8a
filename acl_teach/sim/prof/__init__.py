"""``acl.prof``: the profiling namespace — sessions, model subscription, stamps, marks and ranges (profiler.py)."""
from .profiler import (create_config, create_stamp, create_step_info, create_subscribe_config, destroy_config,
                       destroy_stamp, destroy_step_info, destroy_subscribe_config, finalize, get_model_id,
                       get_op_desc_size, get_op_duration, get_op_end, get_op_name, get_op_name_len, get_op_name_v2,
                       get_op_num, get_op_start, get_op_type, get_op_type_len, get_op_type_v2, get_step_timestamp,
                       init, mark, mark_ex, model_subscribe, model_un_subscribe, model_unsubscribe, pop, push,
                       range_start, range_stop, set_config, set_stamp_trace_message, start, stop)

from ..core.names import functions_of as _functions_of  # noqa: E402

__all__ = _functions_of(globals())  # the functions only: a submodule (``model`` …) is not pyACL's
