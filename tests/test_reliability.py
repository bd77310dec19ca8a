"""Issue 19: nothing a file, a learner or a server sends can kill a stream, eat the machine, hang, or write
outside its folder. One regression test per bug the fuzzing campaign found (each failed before its fix).

Codes: a task the device rejects is 507018 (UNCONFIRMED, reference §6.1, sim/dvpp_common.py); a task whose
body raises is reported once with its task's fault code (sim/streams.run_task) and the stream keeps working.
"""
import io

import numpy as np
import pytest
from PIL import Image
from test_dvpp_accuracy import blocky_jpeg
from test_dvpp_bad_input import FAULT, NV12, Kit, good_jpeg, info

from acl_teach.sim import inspect as sim_inspect


@pytest.fixture
def kit(ready):
    return Kit(ready)


def zero_chroma_factors(raw):
    """The JPEG with both chroma components' sampling factors set to 0 (byte 0x00 in the SOF0 record)."""
    raw = bytearray(raw)
    sof = raw.index(b"\xff\xc0")
    for comp in (1, 2):
        raw[sof + 2 + 2 + 6 + 3 * comp + 1] = 0x00
    return bytes(raw)


# --- a task that raises never poisons its stream ---------------------------------------------------------
def test_a_raising_task_fails_once_with_its_code_and_the_stream_keeps_working(ready):
    """Whatever is queued (VDEC/VENC included, later): its exception is one failed sync, not a dead stream."""
    from acl_teach.sim.memory import _queue
    stream, _ = ready.rt.create_stream()
    ran = []
    assert _queue("acl.test", stream, "a kind queued later", lambda: 1 // 0) == 0
    assert _queue("acl.test", stream, "the next task", lambda: ran.append(1)) == 0
    assert ready.rt.synchronize_stream(stream) == 507000
    msg = ready.get_recent_err_msg()
    assert "a kind queued later failed on the device" in msg and "ZeroDivisionError" in msg
    assert ran == [1]  # the task behind it still ran
    assert ready.rt.synchronize_stream(stream) == 0  # reported once
    assert _queue("acl.test", stream, "dvpp-like", lambda: (_ for _ in ()).throw(MemoryError("x" * 10**6)),
                  507018) == 0
    assert ready.rt.synchronize_stream(stream) == 507018
    assert len(ready.get_recent_err_msg()) < 2000  # a huge exception text is bounded
    assert ready.rt.synchronize_stream(stream) == 0
    assert ready.rt.destroy_stream(stream) == 0


def test_jpeg_with_zero_chroma_sampling_factors(ready, kit):
    """High 1: get_image_info_v2 raised ZeroDivisionError and the queued decode raised at every sync."""
    raw = zero_chroma_factors(blocky_jpeg(64, 48, [(2, 2), (1, 1), (1, 1)]))
    w, h, comps, css, ret = info(ready, raw, v2=True)
    assert (w, h, comps, css, ret) == (0, 0, 0, 0, 500001)  # libjpeg: bogus sampling factors
    out = kit.decode_desc(64, 48)
    kit.device_fault(kit.decode(raw, out), out, "JPEGD")
    assert ready.rt.synchronize_stream(kit.stream) == 0  # failed once, not at every sync
    kit.finish()


def nv12_desc(kit, w, h, ws, hs):
    d = kit.desc(w, h, ws, hs)
    data = kit.media.dvpp_get_pic_desc_data(d)
    assert kit.acl.rt.memset(data, ws * hs * 3 // 2, 0x80, ws * hs * 3 // 2) == 0
    return d


def encode(kit, d):
    cfg = kit.media.dvpp_create_jpege_config()
    size, ret = kit.media.dvpp_jpeg_predict_enc_size(d, cfg)
    assert ret == 0
    out = kit.mem(size)
    cap = np.array([size], np.uint32).tobytes()  # as the samples build it; the size lands in this object
    kit.keep.append(cap)
    queued = kit.media.dvpp_jpeg_encode_async(kit.ch, d, out, kit.acl.util.bytes_to_ptr(cap), cfg, kit.stream)
    return queued, cfg, cap


def test_jpege_of_an_odd_height_picture(ready, kit):
    """High 2: heightStride == height == 33 is accepted by predict_enc_size; the device refuses odd sizes
    (JPEGE input: NV12/NV21 with even width and height [DOC-JPEGE]) instead of a ValueError at every sync."""
    d = nv12_desc(kit, 64, 33, 64, 33)
    queued, cfg, _ = encode(kit, d)
    assert queued == 0
    assert ready.rt.synchronize_stream(kit.stream) == FAULT
    assert "even" in ready.get_recent_err_msg()
    assert ready.rt.synchronize_stream(kit.stream) == 0
    good = nv12_desc(kit, 64, 32, 64, 32)
    queued, cfg2, cap = encode(kit, good)
    assert queued == 0 and ready.rt.synchronize_stream(kit.stream) == 0
    assert 0 < int.from_bytes(cap, "little") < 2 ** 21
    for c in (cfg, cfg2):
        assert kit.media.dvpp_destroy_jpege_config(c) == 0
    kit.finish()


def test_batch_pic_desc_of_minus_one_is_refused_at_once(ready):
    """High 5: 'I' wraps -1 to 4294967295; building that many descs hung, then ran out of memory."""
    import time
    start = time.monotonic()
    assert ready.media.dvpp_create_batch_pic_desc(-1) == 0
    assert ready.media.dvpp_create_batch_pic_desc(2 ** 20) == 0
    assert time.monotonic() - start < 1
    assert "batch_size" in ready.get_recent_err_msg()
    batch = ready.media.dvpp_create_batch_pic_desc(256)
    assert batch and ready.media.dvpp_get_pic_desc(batch, 255)
    assert ready.media.dvpp_destroy_batch_pic_desc(batch) == 0


def test_batch_vpc_with_a_negative_roi_count(ready, kit):
    """Low: roi_nums [3, -2] adds up to one ROI; it raised IndexError instead of 100000."""
    media = ready.media
    src, dst = media.dvpp_create_batch_pic_desc(2), media.dvpp_create_batch_pic_desc(2)
    roi = kit.roi(0, 63, 0, 47)
    for nums in ([3, -2], [-1, 2]):
        got = media.dvpp_vpc_batch_crop_async(kit.ch, src, nums, dst, [roi], kit.stream)
        assert got == (dst, 100000)
    assert media.dvpp_destroy_batch_pic_desc(src) == 0 and media.dvpp_destroy_batch_pic_desc(dst) == 0
    kit.finish()


# --- dynamic AIPP: a block not written by set_input_aipp ------------------------------------------------
def aipp_session(acl, tmp_path, n=1):
    from test_aipp_dynamic import Session, convert
    return Session(acl, convert(tmp_path, n=n, max_size=4096))


def write_block(acl, s, block):
    ptr, size = s.ptrs[1]
    assert acl.rt.memcpy(ptr, size, acl.util.bytes_to_ptr(block), len(block), 1) == 0


def hand_block(**fields):
    from acl_teach.spec import aipp as A
    head = np.zeros(1, A.DYNAMIC_HEAD)
    batch = np.zeros(1, A.DYNAMIC_BATCH)
    head["inputFormat"], head["batchNum"], head["srcImageSizeW"], head["srcImageSizeH"] = 1, 1, 8, 8
    batch["varReci"] = A.fp16_bits(1.0)
    for key, value in fields.items():
        (head if key in A.DYNAMIC_HEAD.names else batch)[key] = value
    return head.tobytes() + batch.tobytes()


@pytest.mark.parametrize("fields", [
    {"srcImageSizeW": 2 ** 31 - 1, "srcImageSizeH": 2 ** 31 - 1},  # asked for 8 PiB (MemoryError)
    {"srcImageSizeW": 4096, "srcImageSizeH": 4096},                  # fits the ranges, not the model
    {"cropSwitch": 1, "crop": [0, 0, 2 ** 30, 2 ** 30]},
    {"paddingSwitch": 1, "padding": [2 ** 20, 2 ** 20, 2 ** 20, 2 ** 20]},  # +14.9 GB for a 160-byte block
    {"paddingSwitch": 1, "padding": [-5, 0, 0, 0]},
    {"cscSwitch": 7},
    {"varReci": [0x7E00] * 4},   # NaN
    {"srcImageSizeW": 7},        # odd YUV420SP: reshape ValueError
])
def test_execute_with_a_hand_made_aipp_block_fails_cleanly(ready, tmp_path, fields):
    """High 3: a memset or hand-made ascend_dynamic_aipp_data block is 507011 from execute, bounded memory."""
    import tracemalloc
    s = aipp_session(ready, tmp_path)
    write_block(ready, s, hand_block(**fields))
    tracemalloc.start()
    try:
        assert s.execute()[1] == 507011
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 << 20
    assert "no valid AIPP parameters" in ready.get_recent_err_msg()
    write_block(ready, s, hand_block())  # a good block on the same model still runs
    out, ret = s.execute()
    assert ret == 0 and out.shape == (3 * 8 * 8,)


def test_execute_with_a_memset_aipp_block(ready, tmp_path):
    s = aipp_session(ready, tmp_path)
    ptr, size = s.ptrs[1]
    for value in (0, 0xFF, 0x01):
        assert ready.rt.memset(ptr, size, value, size) == 0
        assert s.execute()[1] == 507011


def test_get_aipp_data_size_of_a_huge_batch(ready):
    """Low: 2**64-1 returned 1.77e21 with ret 0; the block's batchNum is an int8."""
    assert ready.mdl.get_aipp_data_size(2 ** 64 - 1) == (0, 100000)
    assert ready.mdl.get_aipp_data_size(128) == (0, 100000)
    assert ready.mdl.get_aipp_data_size(127) == (64 + 96 * 127, 0)


def test_a_4d_output_of_an_aipp_model_keeps_the_model_format(ready, tmp_path):
    """Low: with AIPP inserted the 4-D output reported NHWC (the AIPP input's format) instead of NCHW."""
    from acl_teach.spec.constants import ACL_FORMAT_NCHW
    s = aipp_session(ready, tmp_path)
    assert ready.mdl.get_output_format(s.desc, 0) == ACL_FORMAT_NCHW
