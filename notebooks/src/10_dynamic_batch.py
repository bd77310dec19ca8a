# %% [markdown]
# # 10 · Dynamic batch (动态 Batch)
# **You will be able to:** convert with batch gears, find the hidden `ascend_mbatch_shape_data` input,
# choose a gear, and classify 1, 2, 4 or 8 photos in one execute.

# %%
from acl_teach import lab
acl = lab.setup()          # real pyACL on an Ascend machine, else the simulator registered as `acl`
import acl_teach as at     # the step API: one function per documented step
import numpy as np

# %%
om = at.models.dynamic_batch_om()     # atc ... --input_shape=data:-1,3,224,224 --dynamic_batch_size=1,2,4,8
at.init(); res = at.request_resources(0)
model = at.load_model(om)
d = at.query_desc(model)
print(d.table())

# %% [markdown]
# `get_input_dims` shows -1 for the batch; the sizes are the largest gear's; the extra input is where
# `set_dynamic_batch_size` writes the chosen gear.

# %%
inputs, outputs = at.build_dataset(d, "input"), at.build_dataset(d, "output")
photos = at.models.sample_images()
for batch in (1, 2, 4, 8):
    x = np.concatenate([at.preprocess(photos[i % len(photos)]) for i in range(batch)])
    at.copy_to_device(x, inputs, 0, res, d)
    at.set_batch(model, d, inputs, batch)
    at.execute(model, inputs, outputs)
    out = at.unpack_outputs(d, outputs, res).arrays[0]
    print(batch, "->", out.shape, "top-1 per image:", out.argmax(axis=1).tolist())

# %%
index, _ = acl.mdl.get_input_index_by_name(d.model_desc, "ascend_mbatch_shape_data")
print("gear 3 ->", acl.mdl.set_dynamic_batch_size(model.model_id, inputs.dataset, index, 3))

# %% [markdown]
# ## Exercise
# Which batch sizes can this model run?

# %%
print(lab.check_gear(3, d))
lab.check_gear(4, d)

# %%
at.release_dataset(inputs); at.release_dataset(outputs); at.unload_model(model, d)
at.release_resources(res); at.finalize()
print(lab.ledger_summary())
