"""Video classification with pyACL: H.264/H.265 file -> VDEC -> VPC resize -> a model with AIPP -> top-5 per frame.

Usage: python3 video_classify.py VIDEO.h264|VIDEO.h265 MODEL.om [MAX_FRAMES] [--prof DIR]
Runs on an Ascend device, or on the simulator: python -m acl_teach.sim video_classify.py ...
--prof DIR profiles the run with acl.prof (ACL API and task time) into DIR: on a board msprof's
PROF_* folder, on the simulator PROF_*_sim/trace_view.json, a Chrome trace with the VDEC frames,
the VPC resizes and the model runs (open it in https://ui.perfetto.dev).
MODEL.om takes a 224 x 224 YUV420SP (NV12) picture and converts it with static AIPP, as
acl-teach's ``at.models.aipp_om()`` does (the vdec_resnet50_classification sample's model works too).
The file is split into frames with PyAV, as acllite's VideoCapture does; each frame goes to VDEC
from DVPP memory and comes back through the callback, run by a thread looping on process_report.
"""
import argparse
import glob
import os
import sys
import threading
import time

import acl
import av
import numpy as np

DEVICE_ID = 0
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
PIXEL_FORMAT_YUV_SEMIPLANAR_420 = 1
H265_MAIN_LEVEL, H264_MAIN_LEVEL = 0, 2
ACL_PROF_ACL_API, ACL_PROF_TASK_TIME, ACL_AICORE_NONE = 0x0001, 0x0002, 0xFF
MODEL_W, MODEL_H = 224, 224


def check_ret(message, ret):
    if ret != 0:
        raise Exception("{} failed ret={}".format(message, ret))


def align_up(value, align):
    return (value + align - 1) // align * align


def pic_desc(data, size, width, height, width_stride, height_stride):
    desc = acl.media.dvpp_create_pic_desc()
    acl.media.dvpp_set_pic_desc_data(desc, data)
    acl.media.dvpp_set_pic_desc_size(desc, size)
    acl.media.dvpp_set_pic_desc_format(desc, PIXEL_FORMAT_YUV_SEMIPLANAR_420)
    acl.media.dvpp_set_pic_desc_width(desc, width)
    acl.media.dvpp_set_pic_desc_height(desc, height)
    acl.media.dvpp_set_pic_desc_width_stride(desc, width_stride)
    acl.media.dvpp_set_pic_desc_height_stride(desc, height_stride)
    return desc


class VideoClassifier(object):
    def __init__(self, model_path):
        check_ret("acl.init", acl.init())
        check_ret("acl.rt.set_device", acl.rt.set_device(DEVICE_ID))
        self.context, ret = acl.rt.create_context(DEVICE_ID)
        check_ret("acl.rt.create_context", ret)
        self.stream, ret = acl.rt.create_stream()
        check_ret("acl.rt.create_stream", ret)
        self.model_id, ret = acl.mdl.load_from_file(model_path)
        check_ret("acl.mdl.load_from_file", ret)
        self.model_desc = acl.mdl.create_desc()
        check_ret("acl.mdl.get_desc", acl.mdl.get_desc(self.model_desc, self.model_id))
        self.output_size = acl.mdl.get_output_size_by_index(self.model_desc, 0)
        self.output_ptr, ret = acl.rt.malloc(self.output_size, ACL_MEM_MALLOC_HUGE_FIRST)
        check_ret("acl.rt.malloc", ret)
        self.dvpp_channel = acl.media.dvpp_create_channel_desc()
        check_ret("acl.media.dvpp_create_channel", acl.media.dvpp_create_channel(self.dvpp_channel))
        self.resize_config = acl.media.dvpp_create_resize_config()
        self.frames = []  # (frame index, DVPP picture, its size, ret_code), filled by the VDEC callback
        self.lock = threading.Lock()
        self.running = True

    # -- VDEC --------------------------------------------------------------------------------
    def _callback_thread(self, args):
        acl.rt.set_context(self.context)
        while self.running:
            acl.rt.process_report(args[0])

    def _vdec_callback(self, input_stream_desc, output_pic_desc, user_data):
        if input_stream_desc:
            acl.media.dvpp_destroy_stream_desc(input_stream_desc)
        if output_pic_desc:
            data = acl.media.dvpp_get_pic_desc_data(output_pic_desc)
            size = acl.media.dvpp_get_pic_desc_size(output_pic_desc)
            ret_code = acl.media.dvpp_get_pic_desc_ret_code(output_pic_desc)
            with self.lock:
                self.frames.append((user_data, data, size, ret_code))
            acl.media.dvpp_destroy_pic_desc(output_pic_desc)

    def decode(self, video_path, max_frames):
        container = av.open(video_path)
        codec = container.streams.video[0].codec_context
        self.width, self.height = codec.width, codec.height
        en_type = H265_MAIN_LEVEL if codec.name in ("hevc", "h265") else H264_MAIN_LEVEL
        tid, ret = acl.util.start_thread(self._callback_thread, [100])
        check_ret("acl.util.start_thread", ret)
        channel = acl.media.vdec_create_channel_desc()
        acl.media.vdec_set_channel_desc_channel_id(channel, 0)
        acl.media.vdec_set_channel_desc_thread_id(channel, tid)
        acl.media.vdec_set_channel_desc_callback(channel, self._vdec_callback)
        acl.media.vdec_set_channel_desc_entype(channel, en_type)
        acl.media.vdec_set_channel_desc_out_pic_format(channel, PIXEL_FORMAT_YUV_SEMIPLANAR_420)
        check_ret("acl.media.vdec_create_channel", acl.media.vdec_create_channel(channel))
        frame_config = acl.media.vdec_create_frame_config()
        self.width_stride, self.height_stride = align_up(self.width, 16), align_up(self.height, 2)
        out_size = self.width_stride * self.height_stride * 3 // 2
        inputs, sent = [], 0
        for packet in container.demux(container.streams.video[0]):
            data = bytes(packet)
            if not data or sent == max_frames:
                continue
            in_ptr, ret = acl.media.dvpp_malloc(len(data))
            check_ret("acl.media.dvpp_malloc", ret)
            check_ret("acl.rt.memcpy", acl.rt.memcpy(in_ptr, len(data), acl.util.bytes_to_ptr(data), len(data),
                                                     ACL_MEMCPY_HOST_TO_DEVICE))
            inputs.append(in_ptr)
            stream_desc = acl.media.dvpp_create_stream_desc()
            acl.media.dvpp_set_stream_desc_data(stream_desc, in_ptr)
            acl.media.dvpp_set_stream_desc_size(stream_desc, len(data))
            out_ptr, ret = acl.media.dvpp_malloc(out_size)
            check_ret("acl.media.dvpp_malloc", ret)
            out_desc = acl.media.dvpp_create_pic_desc()
            acl.media.dvpp_set_pic_desc_data(out_desc, out_ptr)
            acl.media.dvpp_set_pic_desc_size(out_desc, out_size)
            acl.media.dvpp_set_pic_desc_format(out_desc, PIXEL_FORMAT_YUV_SEMIPLANAR_420)
            check_ret("acl.media.vdec_send_frame",
                      acl.media.vdec_send_frame(channel, stream_desc, out_desc, frame_config, sent))
            sent += 1
        container.close()
        eos = acl.media.dvpp_create_stream_desc()
        acl.media.dvpp_set_stream_desc_eos(eos, 1)
        check_ret("acl.media.vdec_send_frame", acl.media.vdec_send_frame(channel, eos, 0, frame_config, None))
        check_ret("acl.media.vdec_destroy_channel", acl.media.vdec_destroy_channel(channel))  # waits for callbacks
        self.running = False
        check_ret("acl.util.stop_thread", acl.util.stop_thread(tid))
        acl.media.vdec_destroy_frame_config(frame_config)
        acl.media.vdec_destroy_channel_desc(channel)
        for ptr in inputs:
            acl.media.dvpp_free(ptr)
        return sent

    # -- VPC + model ----------------------------------------------------------------------
    def classify(self, data, size):
        in_desc = pic_desc(data, size, self.width, self.height, self.width_stride, self.height_stride)
        small_size = MODEL_W * MODEL_H * 3 // 2
        small, ret = acl.media.dvpp_malloc(small_size)
        check_ret("acl.media.dvpp_malloc", ret)
        out_desc = pic_desc(small, small_size, MODEL_W, MODEL_H, MODEL_W, MODEL_H)
        check_ret("acl.media.dvpp_vpc_resize_async", acl.media.dvpp_vpc_resize_async(
            self.dvpp_channel, in_desc, out_desc, self.resize_config, self.stream))
        check_ret("acl.rt.synchronize_stream", acl.rt.synchronize_stream(self.stream))
        acl.media.dvpp_destroy_pic_desc(in_desc)
        acl.media.dvpp_destroy_pic_desc(out_desc)
        inputs, outputs = acl.mdl.create_dataset(), acl.mdl.create_dataset()
        in_buffer = acl.create_data_buffer(small, small_size)
        out_buffer = acl.create_data_buffer(self.output_ptr, self.output_size)
        acl.mdl.add_dataset_buffer(inputs, in_buffer)
        acl.mdl.add_dataset_buffer(outputs, out_buffer)
        check_ret("acl.mdl.execute", acl.mdl.execute(self.model_id, inputs, outputs))
        host, ret = acl.rt.malloc_host(self.output_size)
        check_ret("acl.rt.malloc_host", ret)
        check_ret("acl.rt.memcpy", acl.rt.memcpy(host, self.output_size, self.output_ptr, self.output_size,
                                                 ACL_MEMCPY_DEVICE_TO_HOST))
        scores = np.frombuffer(acl.util.ptr_to_bytes(host, self.output_size), np.float32).copy()
        acl.rt.free_host(host)
        for dataset, buffer in ((inputs, in_buffer), (outputs, out_buffer)):
            acl.destroy_data_buffer(buffer)
            acl.mdl.destroy_dataset(dataset)
        acl.media.dvpp_free(small)
        return scores

    def release(self):
        acl.media.dvpp_destroy_resize_config(self.resize_config)
        acl.media.dvpp_destroy_channel(self.dvpp_channel)
        acl.media.dvpp_destroy_channel_desc(self.dvpp_channel)
        acl.rt.free(self.output_ptr)
        acl.mdl.destroy_desc(self.model_desc)
        acl.mdl.unload(self.model_id)
        acl.rt.destroy_stream(self.stream)
        acl.rt.destroy_context(self.context)
        acl.rt.reset_device(DEVICE_ID)
        acl.finalize()


def start_profiling(folder):
    """acl.prof.init + a config for device 0 with ACL API and task times, started: the config handle."""
    os.makedirs(folder, exist_ok=True)
    check_ret("acl.prof.init", acl.prof.init(folder))
    config = acl.prof.create_config([DEVICE_ID], ACL_AICORE_NONE, 0, ACL_PROF_ACL_API | ACL_PROF_TASK_TIME)
    if not config:
        raise Exception("acl.prof.create_config failed")
    check_ret("acl.prof.start", acl.prof.start(config))
    return config


def stop_profiling(config, folder):
    """Stop, write the profiling data, finalize; print where it went."""
    check_ret("acl.prof.stop", acl.prof.stop(config))
    check_ret("acl.prof.destroy_config", acl.prof.destroy_config(config))
    check_ret("acl.prof.finalize", acl.prof.finalize())
    runs = sorted(glob.glob(os.path.join(folder, "PROF_*")), key=os.path.getmtime)
    if not runs:
        print("profiling: nothing written into {}".format(folder))
        return
    traces = glob.glob(os.path.join(runs[-1], "**", "trace_view.json"), recursive=True)
    print("profiling: {}".format(traces[0] if traces else runs[-1]))


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="video_classify.py", description="VDEC -> VPC -> model, top-5 per frame")
    parser.add_argument("video", help="an H.264 or H.265 file (.h264, .h265, .mp4 ...)")
    parser.add_argument("model", help="an .om taking a 224 x 224 YUV420SP picture (static AIPP)")
    parser.add_argument("max_frames", nargs="?", type=int, default=-1, help="decode at most this many frames")
    parser.add_argument("--prof", metavar="DIR", help="profile the run with acl.prof into DIR")
    return parser.parse_args(argv[1:])


def main(argv):
    args = parse_args(argv)
    net = VideoClassifier(args.model)
    prof_config = start_profiling(args.prof) if args.prof else None
    start = time.perf_counter()
    sent = net.decode(args.video, args.max_frames)
    decoded = time.perf_counter()
    net.frames.sort()
    classify_time = 0.0
    for index, data, size, ret_code in net.frames:
        if ret_code != 0:
            print("frame {}: decode failed, ret_code {}".format(index, ret_code))
        else:
            begin = time.perf_counter()
            scores = net.classify(data, size)
            classify_time += time.perf_counter() - begin
            top5 = scores.argsort()[::-1][:5]
            print("frame {}: top5 {}".format(index, ", ".join("{}:{:.3f}".format(i, scores[i]) for i in top5)))
        acl.media.dvpp_free(data)
    good = sum(1 for frame in net.frames if frame[3] == 0)
    print("frames: {} sent, {} decoded ({}x{})".format(sent, good, net.width, net.height))
    print("time: vdec {:.1f} ms/frame, vpc + execute {:.1f} ms/frame".format(
        (decoded - start) * 1000 / max(sent, 1), classify_time * 1000 / max(good, 1)))
    if prof_config:
        stop_profiling(prof_config, args.prof)
    net.release()
    return 0 if good == sent else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
