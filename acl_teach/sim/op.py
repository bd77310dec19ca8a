"""``acl.op``: the single-operator namespace — op models, attributes, execute, cast and handles.

Only pyACL's own functions live here (``dir(acl.op)`` is what real code may call); the machinery is
in ``opmodels`` (set_model_dir, matching), ``opattr`` (aclopAttr), ``opexec`` (running ops),
``opgraph`` (ONNX Runtime sessions) and ``opdesc`` (aclTensorDesc, top-level ``acl.*``).
"""
from .opattr import (create_attr, destroy_attr, set_attr_bool, set_attr_data_type, set_attr_float,
                     set_attr_int, set_attr_list_bool, set_attr_list_data_type, set_attr_list_float,
                     set_attr_list_int, set_attr_list_list_int, set_attr_list_string, set_attr_string)
from .opexec import (cast, create_handle, create_handle_for_cast, destroy_handle, execute, execute_v2,
                     execute_with_handle)
from .opinfer import infer_shape, load, update_params
from .opmodels import set_model_dir

__all__ = ["set_model_dir", "create_attr", "destroy_attr", "set_attr_bool", "set_attr_int", "set_attr_float",
           "set_attr_string", "set_attr_list_bool", "set_attr_list_int", "set_attr_list_float",
           "set_attr_list_string", "set_attr_list_list_int", "set_attr_data_type", "set_attr_list_data_type",
           "execute", "execute_v2", "cast", "create_handle", "create_handle_for_cast", "destroy_handle",
           "execute_with_handle", "load", "infer_shape", "update_params"]
