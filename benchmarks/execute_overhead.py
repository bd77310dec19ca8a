"""Simulator acl.mdl.execute per image vs bare ONNX Runtime on the same ONNX (batch 1 and batch 8).

Aim: ratio <= 1.05. Runs alternate between the two so machine noise hits both alike; medians.
"""
from __future__ import annotations

import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from acl_teach.toolchain import assets as models  # noqa: E402
from acl_teach import sim as acl  # noqa: E402
from acl_teach.sim.mdl.model import new_session  # noqa: E402

ROUNDS = {1: 30, 8: 8}


def setup(om_path: str, batch: int):
    """Load the OM, fill input buffers with one batch of fp16 data, return a run() closure."""
    model_id, ret = acl.mdl.load_from_file(om_path)
    assert ret == 0
    desc = acl.mdl.create_desc()
    acl.mdl.get_desc(desc, model_id)
    x = np.random.default_rng(0).standard_normal((batch, 3, 224, 224)).astype(np.float16)
    in_ds, out_ds = acl.mdl.create_dataset(), acl.mdl.create_dataset()
    keep = []
    for i in range(acl.mdl.get_num_inputs(desc)):
        size = acl.mdl.get_input_size_by_index(desc, i)
        ptr, _ = acl.rt.malloc(size, 0)
        acl.mdl.add_dataset_buffer(in_ds, acl.create_data_buffer(ptr, size))
        if i == 0:
            data = x.tobytes()
            keep.append(data)
            acl.rt.memcpy(ptr, size, acl.util.bytes_to_ptr(data), len(data), 1)
    for i in range(acl.mdl.get_num_outputs(desc)):
        size = acl.mdl.get_output_size_by_index(desc, i)
        ptr, _ = acl.rt.malloc(size, 0)
        acl.mdl.add_dataset_buffer(out_ds, acl.create_data_buffer(ptr, size))
    if acl.mdl.get_num_inputs(desc) > 1:
        assert acl.mdl.set_dynamic_batch_size(model_id, in_ds, 1, batch) == 0
    return x.astype(np.float32), lambda: acl.mdl.execute(model_id, in_ds, out_ds)


def measure(batch: int, om_path: str) -> float:
    """Median simulator time / median bare-ORT time, per image."""
    x32, sim_run = setup(om_path, batch)
    session = new_session(open(models.default_onnx(), "rb").read()) if batch == 1 else None
    if session is None:
        import onnx
        m = onnx.load(models.default_onnx())
        m.graph.input[0].type.tensor_type.shape.dim[0].dim_param = "N"
        for out in m.graph.output:
            out.type.tensor_type.ClearField("shape")
        del m.graph.value_info[:]
        session = new_session(m.SerializeToString())
    bare = lambda: session.run(None, {"data": x32})  # noqa: E731
    for fn in (sim_run, bare):
        fn()
    sim_t, bare_t = [], []
    for _ in range(ROUNDS[batch]):
        t0 = time.perf_counter(); assert sim_run() == 0; sim_t.append(time.perf_counter() - t0)
        t0 = time.perf_counter(); bare(); bare_t.append(time.perf_counter() - t0)
    s, b = statistics.median(sim_t), statistics.median(bare_t)
    print(f"  batch {batch}: simulator {1000 * s / batch:7.2f} ms/image, bare ONNX Runtime "
          f"{1000 * b / batch:7.2f} ms/image, ratio {s / b:4.2f} {'ok' if s / b <= 1.05 else 'ABOVE AIM'}")
    return s / b


def main() -> None:
    acl.reset(acl.Config(explain=False))
    acl.init()
    acl.rt.set_device(0)
    print("acl.mdl.execute vs bare ONNX Runtime, same ONNX (EfficientNet-Lite0), ratio <= 1.05 is the aim")
    measure(1, models.default_om())
    measure(8, models.dynamic_batch_om())
    acl.rt.reset_device(0)
    acl.finalize()


if __name__ == "__main__":
    main()
