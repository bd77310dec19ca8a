"""``acl.op``: the single-operator namespace — op models, attributes, execute, cast and handles.

Only pyACL's own functions live here (``dir(acl.op)`` is what real code may call); the machinery is
in ``models`` (set_model_dir, matching), ``attr`` (aclopAttr), ``execution`` (running ops),
``graph`` (ONNX Runtime sessions), ``infer`` (load, infer_shape) and ``base.tensor_desc`` (aclTensorDesc,
top-level ``acl.*``).
"""
from .attr import (create_attr, destroy_attr, set_attr_bool, set_attr_data_type, set_attr_float, set_attr_int,
                   set_attr_list_bool, set_attr_list_data_type, set_attr_list_float, set_attr_list_int,
                   set_attr_list_list_int, set_attr_list_string, set_attr_string)
from .execution import (cast, create_handle, create_handle_for_cast, destroy_handle, execute, execute_v2,
                        execute_with_handle)
from .infer import infer_shape, load, update_params
from .models import set_model_dir

__all__ = ["set_model_dir", "create_attr", "destroy_attr", "set_attr_bool", "set_attr_int", "set_attr_float",
           "set_attr_string", "set_attr_list_bool", "set_attr_list_int", "set_attr_list_float",
           "set_attr_list_string", "set_attr_list_list_int", "set_attr_data_type", "set_attr_list_data_type",
           "execute", "execute_v2", "cast", "create_handle", "create_handle_for_cast", "destroy_handle",
           "execute_with_handle", "load", "infer_shape", "update_params"]
