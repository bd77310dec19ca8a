# %% [markdown]
# # 03 · The model desc (模型描述, aclmdlDesc)
# **You will be able to:** read every `acl.mdl.get_*` value and compute each buffer size from dims × data type.

# %%
from acl_teach import lab
acl = lab.setup()          # real pyACL on an Ascend machine, else the simulator registered as `acl`
import acl_teach as at     # the step API: one function per documented step
import numpy as np

# %%
acl.init(); acl.rt.set_device(0)
context, _ = acl.rt.create_context(0)
model_id, _ = acl.mdl.load_from_file(at.models.default_om())

# %%
desc = acl.mdl.create_desc()
print("get_desc ->", acl.mdl.get_desc(desc, model_id))    # note the order: desc, model_id
n_in, n_out = acl.mdl.get_num_inputs(desc), acl.mdl.get_num_outputs(desc)
print("inputs:", n_in, "outputs:", n_out)
for i in range(n_in):
    dims, ret = acl.mdl.get_input_dims(desc, i)
    print("input", i, acl.mdl.get_input_name_by_index(desc, i), dims["dims"],
          "type", acl.mdl.get_input_data_type(desc, i), "format", acl.mdl.get_input_format(desc, i),
          "size", acl.mdl.get_input_size_by_index(desc, i))
for i in range(n_out):
    dims, ret = acl.mdl.get_output_dims(desc, i)
    print("output", i, acl.mdl.get_output_name_by_index(desc, i), dims["dims"],
          "type", acl.mdl.get_output_data_type(desc, i), "size", acl.mdl.get_output_size_by_index(desc, i))

# %% [markdown]
# ## Sizes come from dims × bytes per element
# Data type 1 is ACL_FLOAT16 (2 bytes), 0 is ACL_FLOAT (4 bytes):

# %%
print(1 * 3 * 224 * 224 * 2, "= input size")
print(1 * 1000 * 4, "= output size")
print(acl.mdl.get_input_index_by_name(desc, "data"), acl.mdl.get_input_index_by_name(desc, "nope"))

# %% [markdown]
# ## The same with the step API, and the desc explorer widget

# %%
m = at.Model(model_id=model_id)
d = at.query_desc(m)
print(d.table())
for t in d.inputs + d.outputs:
    print(t.size_arithmetic)

# %%
from acl_teach.widgets import DescExplorer
explorer = DescExplorer(d)
explorer

# %% [markdown]
# ## Exercise
# How big must an output buffer be? The checker explains a wrong answer.

# %%
print(lab.check_buffer_size(2000, d, "output"))      # a typical mistake
lab.check_buffer_size(1000 * 4, d, "output")

# %%
acl.mdl.destroy_desc(desc); acl.mdl.destroy_desc(d.model_desc); acl.mdl.unload(model_id)
acl.rt.destroy_context(context); acl.rt.reset_device(0); acl.finalize()
print(lab.ledger_summary())
