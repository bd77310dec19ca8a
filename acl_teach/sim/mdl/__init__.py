"""``acl.mdl``: the model namespace — load, desc, datasets, execute, dynamic gears, AIPP."""
from .dataset import (add_dataset_buffer, create_dataset, destroy_dataset, get_dataset_buffer,
                      get_dataset_num_buffers, get_dataset_tensor_desc, set_dataset_tensor_desc)
from .desc import (create_desc, destroy_desc, get_cur_output_dims, get_desc, get_dynamic_batch, get_dynamic_hw,
                   get_input_data_type, get_input_dims, get_input_dims_v2, get_input_dynamic_dims,
                   get_input_dynamic_gear_count, get_input_format, get_input_index_by_name,
                   get_input_name_by_index, get_input_size_by_index, get_num_inputs, get_num_outputs,
                   get_output_data_type, get_output_dims, get_output_format, get_output_index_by_name,
                   get_output_name_by_index, get_output_size_by_index)
from .execution import execute, execute_async, set_dynamic_batch_size, set_dynamic_hw_size
from .model import (load_from_file, load_from_file_with_mem, load_from_mem, load_from_mem_with_mem, query_size,
                    query_size_from_mem, unload)
from .desc_file import get_desc_from_file, get_desc_from_mem, get_tensor_real_name  # noqa: F401
from .dump import dump_reg_callback, dump_unreg_callback, finalize_dump, init_dump, set_dump  # noqa: F401
from .config import *  # noqa: F401,F403  (load_with_config, config handles, execute_v2)
from .dynamic_dims import get_input_dims_range, set_input_dynamic_dims  # noqa: F401  (atc --dynamic_dims)
from .aipp import get_aipp_type, get_first_aipp_info  # noqa: F401  (static AIPP queries)
from .aipp_dynamic import (create_aipp, destroy_aipp, get_aipp_data_size, set_aipp_ax_swap_switch,
                           set_aipp_by_input_index, set_aipp_crop_params, set_aipp_csc_params,
                           set_aipp_dtc_pixel_mean, set_aipp_dtc_pixel_min, set_aipp_input_format,
                           set_aipp_padding_params, set_aipp_pixel_var_reci, set_aipp_rbuv_swap_switch,
                           set_aipp_src_image_size, set_input_aipp)

from ..core.names import functions_of as _functions_of  # noqa: E402

__all__ = _functions_of(globals())  # the functions only: a submodule (``model`` …) is not pyACL's
