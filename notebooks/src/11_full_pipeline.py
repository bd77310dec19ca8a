# %% [markdown]
# # 11 · The full pipeline: stepper, Session, CLI
# **You will be able to:** run the whole flow step by step with the pipeline stepper, as one `Session`,
# and from the command line — and run this notebook on an Atlas board unchanged.

# %%
from acl_teach import lab
acl = lab.setup()          # real pyACL on an Ascend machine, else the simulator registered as `acl`
import acl_teach as at     # the step API: one function per documented step
import numpy as np

# %%
from acl_teach.widgets import PipelineStepper
stepper = PipelineStepper(image="../data/images/coffee.png")
print(stepper.click(6))          # refused: too early
print(stepper.message)

# %%
for i in range(14):
    stepper.click(i)
print(stepper.records["topk"].sample_format())
stepper

# %%
with at.Session() as s:
    for photo in at.models.sample_images():
        r = s.classify(photo)
        print(photo.split("/")[-1], [(p.index, p.label.split(",")[0]) for p in r.topk.top[:3]])

# %% [markdown]
# ## On the command line
# ```
# acl-teach classify data/images --top 5 [--async] [--trace] [--json]
# ```

# %%
import subprocess, sys, json
out = subprocess.run([sys.executable, "-m", "acl_teach", "classify", "../data/images/coffee.png", "--json",
                      "--backend", "sim"], capture_output=True, text=True).stdout
row = json.loads(out)
print(row["image"].split("/")[-1], row["top"][0])

# %% [markdown]
# ## On an Atlas board
# Install acl-teach on the board (`pip install -e .`), source CANN's `set_env.sh`, and open the same
# notebook: `lab.setup()` finds the real `acl` and every cell runs on the NPU.

# %% [markdown]
# ## Exercise
# What did the session predict for the espresso photo? Check the top-5.

# %%
with at.Session() as s:
    r = s.classify("../data/images/coffee.png")
scores = np.zeros(1000); scores[[p.index for p in r.topk.top]] = [p.prob for p in r.topk.top]
lab.check_top5([p.index for p in r.topk.top], scores)

# %%
print(lab.ledger_summary())
