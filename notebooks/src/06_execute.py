# %% [markdown]
# # 06 · Synchronous execute (同步推理)
# **You will be able to:** run `acl.mdl.execute`, and read the codes it returns when the datasets do not fit.

# %%
from acl_teach import lab
acl = lab.setup()          # real pyACL on an Ascend machine, else the simulator registered as `acl`
import acl_teach as at     # the step API: one function per documented step
import numpy as np

# %%
at.init(); res = at.request_resources(0)
model = at.load_model(at.models.default_om())
d = at.query_desc(model)
inputs, outputs = at.build_dataset(d, "input"), at.build_dataset(d, "output")
_ = at.copy_to_device(at.preprocess("../data/images/coffee.png"), inputs, 0, res, d)

# %%
ret = acl.mdl.execute(model.model_id, inputs.dataset, outputs.dataset)
print("execute ->", ret)

# %% [markdown]
# ## What execute checks
# One buffer per input and output, each big enough, in memory the device can reach.

# %%
one_too_few = acl.mdl.create_dataset()
print(acl.mdl.execute(model.model_id, one_too_few, outputs.dataset), "<- empty input dataset")
print(acl.get_recent_err_msg().split(":")[1])
small = acl.mdl.create_dataset()
ptr, _ = acl.rt.malloc(1000, 0)
buf = acl.create_data_buffer(ptr, 1000)
acl.mdl.add_dataset_buffer(small, buf)
print(acl.mdl.execute(model.model_id, small, outputs.dataset), "<- input buffer too small")
print(acl.mdl.execute(99, inputs.dataset, outputs.dataset), "<- no such model")
acl.destroy_data_buffer(buf); acl.rt.free(ptr); acl.mdl.destroy_dataset(small); acl.mdl.destroy_dataset(one_too_few)

# %% [markdown]
# Timings vary from machine to machine (this cell's output is not compared):

# %% tags=["nbval-ignore-output"]
run = at.execute(model, inputs, outputs)
print(f"execute took {run.elapsed_ms:.1f} ms")

# %% [markdown]
# ## Exercise
# Pass the return code of an execute to the checker.

# %%
print(lab.check_execute_ret(100017))
lab.check_execute_ret(acl.mdl.execute(model.model_id, inputs.dataset, outputs.dataset))

# %%
at.release_dataset(inputs); at.release_dataset(outputs); at.unload_model(model, d)
at.release_resources(res); at.finalize()
print(lab.ledger_summary())
