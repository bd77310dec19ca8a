# %% [markdown]
# # 09 · `execute_async`, streams and callbacks (异步推理与回调)
# **You will be able to:** queue work on a stream, know when its results are valid (after
# `synchronize_stream`), and run the official callback-thread pattern.

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
at.copy_to_device(at.preprocess("../data/images/chelsea.png"), inputs, 0, res, d)
ret = acl.rt.memset(outputs.buffers[0].ptr, 4000, 0, 4000)

# %%
ret = acl.mdl.execute_async(model.model_id, inputs.dataset, outputs.dataset, res.stream)
print("execute_async ->", ret)
print("before synchronize, top class:", int(at.unpack_outputs(d, outputs, res).arrays[0].argmax()), "(zeros)")
print("synchronize_stream ->", acl.rt.synchronize_stream(res.stream))
print("after synchronize, top class:", int(at.unpack_outputs(d, outputs, res).arrays[0].argmax()))

# %% [markdown]
# ## Callbacks
# A callback runs in a thread that subscribed to the stream and loops on `process_report`:
# `start_thread` → `subscribe_report` → `launch_callback` … → `synchronize_stream` → `unsubscribe_report` → `stop_thread`.

# %%
print(acl.rt.launch_callback(print, ["hello"], 1, res.stream), "<- 107015: no thread subscribed")
cb = at.run_callbacks(res, lambda launch: [launch(name) for name in ("first", "second", "third")])
print(cb.delivered)
print(cb.code())

# %% [markdown]
# ## Exercise
# The callbacks must arrive in the order they were queued.

# %%
print(lab.check_callback_results(["second", "first", "third"], ["first", "second", "third"]))
lab.check_callback_results(cb.delivered, ["first", "second", "third"])

# %%
at.release_dataset(inputs); at.release_dataset(outputs); at.unload_model(model, d)
at.release_resources(res); at.finalize()
print(lab.ledger_summary())
