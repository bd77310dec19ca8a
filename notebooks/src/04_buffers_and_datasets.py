# %% [markdown]
# # 04 · Device memory, aclDataBuffer (数据缓冲) and aclmdlDataset (数据集)
# **You will be able to:** build the input and output datasets a model executes on, and say what each
# layer owns. This is the concept the official quick start introduces too late:
# ```
# aclmdlDataset  (ordered list: index i = model input i)
#  ├─ aclDataBuffer #0  = (pointer, size) label — owns nothing
#  │    └─ device memory from acl.rt.malloc — the bytes
#  └─ aclDataBuffer #1 …
# ```

# %%
from acl_teach import lab
acl = lab.setup()          # real pyACL on an Ascend machine, else the simulator registered as `acl`
import acl_teach as at     # the step API: one function per documented step
import numpy as np

# %%
acl.init(); acl.rt.set_device(0)
context, _ = acl.rt.create_context(0)
model_id, _ = acl.mdl.load_from_file(at.models.default_om())
desc = acl.mdl.create_desc(); acl.mdl.get_desc(desc, model_id)

# %% [markdown]
# ## Raw pyACL: create the dataset first, then fill it

# %%
input_dataset = acl.mdl.create_dataset()
size = acl.mdl.get_input_size_by_index(desc, 0)
dev_ptr, ret = acl.rt.malloc(size, 0)                 # 0 = ACL_MEM_MALLOC_HUGE_FIRST
data_buffer = acl.create_data_buffer(dev_ptr, size)   # a label on the memory
_, ret = acl.mdl.add_dataset_buffer(input_dataset, data_buffer)   # note: returns (dataset, ret)
print("buffers in dataset:", acl.mdl.get_dataset_num_buffers(input_dataset))
print("buffer size:", acl.get_data_buffer_size_v2(acl.mdl.get_dataset_buffer(input_dataset, 0)))

# %% [markdown]
# The device memory is not zeroed — the buffer view shows the fresh bytes (`cd` here):

# %%
from acl_teach.widgets import BufferView
view = BufferView(data_buffer, dtype="float16")
print(view.hex_lines[0])

# %% [markdown]
# ## Release: each layer has its own call — destroying the dataset frees neither buffers nor memory

# %%
print(acl.destroy_data_buffer(data_buffer), acl.mdl.destroy_dataset(input_dataset), acl.rt.free(dev_ptr))

# %% [markdown]
# ## The step API builds the whole thing per the desc

# %%
d = at.query_desc(at.Model(model_id=model_id))
inputs = at.build_dataset(d, "input")
outputs = at.build_dataset(d, "output")
print(inputs)
print(outputs.code())

# %% [markdown]
# ## Exercise
# Check the output dataset the step API built (and see what a wrong one says).

# %%
print(lab.check_dataset(acl.mdl.create_dataset(), d, "output"))
lab.check_dataset(outputs, d, "output")

# %%
at.release_dataset(inputs); at.release_dataset(outputs)
acl.mdl.destroy_desc(desc); acl.mdl.destroy_desc(d.model_desc); acl.mdl.unload(model_id)
acl.rt.destroy_context(context); acl.rt.reset_device(0); acl.finalize()
print(lab.ledger_summary())
