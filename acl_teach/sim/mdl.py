"""``acl.mdl``: the model namespace — load, desc, datasets, execute, dynamic gears."""
from .dataset import add_dataset_buffer, create_dataset, destroy_dataset, get_dataset_buffer, \
    get_dataset_num_buffers
from .desc import (create_desc, destroy_desc, get_cur_output_dims, get_desc, get_dynamic_batch, get_dynamic_hw,
                   get_input_data_type, get_input_dims, get_input_dims_v2, get_input_dynamic_dims,
                   get_input_dynamic_gear_count, get_input_format, get_input_index_by_name,
                   get_input_name_by_index, get_input_size_by_index, get_num_inputs, get_num_outputs,
                   get_output_data_type, get_output_dims, get_output_format, get_output_index_by_name,
                   get_output_name_by_index, get_output_size_by_index)
from .execute import execute, execute_async, set_dynamic_batch_size, set_dynamic_hw_size
from .model import (load_from_file, load_from_file_with_mem, load_from_mem, load_from_mem_with_mem, query_size,
                    query_size_from_mem, unload)

__all__ = [name for name in dir() if not name.startswith("_")]
