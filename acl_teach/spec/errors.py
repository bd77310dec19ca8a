"""aclError codes: names, English and Chinese meanings, the usual cause and the fix.

One table serves the simulator (which returns these codes), the step API (which raises
``AclError``) and ``acl-teach explain``. Numbers and names come from CANN's public headers
(acl_base_rt.h, rt_error_codes.h, ge_error_codes.h); the wording is ours.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Optional, Tuple

# code: (name, English meaning, 中文含义)
_TABLE: Dict[int, Tuple[str, str, str]] = {
    0: ("ACL_SUCCESS", "success", "成功"),
    100000: ("ACL_ERROR_INVALID_PARAM", "a parameter failed validation", "参数校验失败"),
    100001: ("ACL_ERROR_UNINITIALIZE", "AscendCL is not initialised", "AscendCL 未初始化"),
    100002: ("ACL_ERROR_REPEAT_INITIALIZE", "AscendCL was initialised twice (or a model loaded twice)",
             "重复初始化或重复加载"),
    100003: ("ACL_ERROR_INVALID_FILE", "the file is invalid", "无效的文件"),
    100004: ("ACL_ERROR_WRITE_FILE", "writing a file failed", "写文件失败"),
    100005: ("ACL_ERROR_INVALID_FILE_SIZE", "the file size is invalid", "无效的文件大小"),
    100006: ("ACL_ERROR_PARSE_FILE", "the file could not be parsed", "解析文件失败"),
    100007: ("ACL_ERROR_FILE_MISSING_ATTR", "the file lacks a required attribute", "文件缺少参数"),
    100008: ("ACL_ERROR_FILE_ATTR_INVALID", "a file attribute is invalid", "文件参数无效"),
    100009: ("ACL_ERROR_INVALID_DUMP_CONFIG", "the dump configuration is invalid", "无效的 dump 配置"),
    100010: ("ACL_ERROR_INVALID_PROFILING_CONFIG", "the profiling configuration is invalid",
             "无效的 profiling 配置"),
    100011: ("ACL_ERROR_INVALID_MODEL_ID", "the model id is invalid", "无效的模型 ID"),
    100012: ("ACL_ERROR_DESERIALIZE_MODEL", "the model could not be deserialised", "反序列化模型失败"),
    100013: ("ACL_ERROR_PARSE_MODEL", "the model could not be parsed", "解析模型失败"),
    100014: ("ACL_ERROR_READ_MODEL_FAILURE", "the model file could not be read", "读取模型失败"),
    100015: ("ACL_ERROR_MODEL_SIZE_INVALID", "the model size is invalid", "无效的模型大小"),
    100016: ("ACL_ERROR_MODEL_MISSING_ATTR", "the model lacks a required attribute", "模型缺少参数"),
    100017: ("ACL_ERROR_MODEL_INPUT_NOT_MATCH", "the inputs do not match the model", "模型的输入不匹配"),
    100018: ("ACL_ERROR_MODEL_OUTPUT_NOT_MATCH", "the outputs do not match the model", "模型的输出不匹配"),
    100019: ("ACL_ERROR_MODEL_NOT_DYNAMIC", "the model is not dynamic", "非动态模型"),
    100020: ("ACL_ERROR_OP_TYPE_NOT_MATCH", "the operator type does not match", "单算子类型不匹配"),
    100021: ("ACL_ERROR_OP_INPUT_NOT_MATCH", "the operator inputs do not match", "单算子的输入不匹配"),
    100022: ("ACL_ERROR_OP_OUTPUT_NOT_MATCH", "the operator outputs do not match", "单算子的输出不匹配"),
    100023: ("ACL_ERROR_OP_ATTR_NOT_MATCH", "the operator attributes do not match", "单算子的属性不匹配"),
    100024: ("ACL_ERROR_OP_NOT_FOUND", "the operator was not found", "单算子未找到"),
    100025: ("ACL_ERROR_OP_LOAD_FAILED", "the operator could not be loaded", "单算子加载失败"),
    100026: ("ACL_ERROR_UNSUPPORTED_DATA_TYPE", "the data type is not supported", "不支持的数据类型"),
    100027: ("ACL_ERROR_FORMAT_NOT_MATCH", "the format does not match", "格式不匹配"),
    100028: ("ACL_ERROR_BIN_SELECTOR_NOT_REGISTERED", "no binary selector is registered",
             "二进制选择函数未注册"),
    100029: ("ACL_ERROR_KERNEL_NOT_FOUND", "the kernel was not found", "编译算子时未找到 kernel"),
    100030: ("ACL_ERROR_BIN_SELECTOR_ALREADY_REGISTERED", "the binary selector is already registered",
             "重复注册二进制选择函数"),
    100031: ("ACL_ERROR_KERNEL_ALREADY_REGISTERED", "the kernel is already registered", "重复注册 kernel"),
    100032: ("ACL_ERROR_INVALID_QUEUE_ID", "the queue id is invalid", "无效的队列 ID"),
    100033: ("ACL_ERROR_REPEAT_SUBSCRIBE", "the stream is already subscribed", "重复订阅"),
    100034: ("ACL_ERROR_STREAM_NOT_SUBSCRIBE", "the stream is not subscribed", "stream 未订阅"),
    100035: ("ACL_ERROR_THREAD_NOT_SUBSCRIBE", "the thread is not subscribed to any stream", "线程未订阅"),
    100036: ("ACL_ERROR_WAIT_CALLBACK_TIMEOUT", "waiting for a callback timed out", "等待 callback 超时"),
    100037: ("ACL_ERROR_REPEAT_FINALIZE", "AscendCL was finalised twice", "重复去初始化"),
    100038: ("ACL_ERROR_NOT_STATIC_AIPP", "the AIPP configuration is not static", "静态 AIPP 配置信息不存在"),
    100039: ("ACL_ERROR_COMPILING_STUB_MODE", "the dynamic library is a compile-only stub",
             "运行应用时链接了编译态的桩库"),
    100040: ("ACL_ERROR_GROUP_NOT_SET", "the group is not set", "group 未设置"),
    100041: ("ACL_ERROR_GROUP_NOT_CREATE", "the group was not created", "未创建对应的 group"),
    100042: ("ACL_ERROR_PROF_ALREADY_RUN", "profiling is already running", "已存在采集性能数据的任务"),
    100043: ("ACL_ERROR_PROF_NOT_RUN", "profiling is not running", "未初始化性能数据采集"),
    100044: ("ACL_ERROR_DUMP_ALREADY_RUN", "dumping is already running", "已存在 dump 任务"),
    100045: ("ACL_ERROR_DUMP_NOT_RUN", "dumping is not running", "未初始化 dump"),
    148046: ("ACL_ERROR_PROF_REPEAT_SUBSCRIBE", "profiling is subscribed twice", "重复订阅性能数据"),
    148047: ("ACL_ERROR_PROF_API_CONFLICT", "conflicting profiling APIs were used", "采集性能数据的接口调用冲突"),
    148048: ("ACL_ERROR_INVALID_MAX_OPQUEUE_NUM_CONFIG", "the operator cache size setting is invalid",
             "无效的算子缓存信息老化配置"),
    148049: ("ACL_ERROR_INVALID_OPP_PATH", "the ASCEND_OPP_PATH setting is invalid", "ASCEND_OPP_PATH 设置错误"),
    148050: ("ACL_ERROR_OP_UNSUPPORTED_DYNAMIC", "the operator does not support dynamic shape",
             "算子不支持动态 shape"),
    148051: ("ACL_ERROR_RELATIVE_RESOURCE_NOT_CLEARED", "related resources were not released first",
             "相关资源未释放"),
    148052: ("ACL_ERROR_UNSUPPORTED_JPEG", "the JPEG format is not supported", "不支持的 JPEG 格式"),
    148053: ("ACL_ERROR_INVALID_BUNDLE_MODEL_ID", "the bundle model id is invalid", "无效的 bundle 模型 ID"),
    200000: ("ACL_ERROR_BAD_ALLOC", "memory allocation failed", "申请内存失败"),
    200001: ("ACL_ERROR_API_NOT_SUPPORT", "the API is not supported", "接口不支持"),
    200002: ("ACL_ERROR_INVALID_DEVICE", "the device is invalid", "无效的 Device"),
    200003: ("ACL_ERROR_MEMORY_ADDRESS_UNALIGNED", "the memory address is not aligned", "内存地址未对齐"),
    200004: ("ACL_ERROR_RESOURCE_NOT_MATCH", "the resources do not match", "资源不匹配"),
    200005: ("ACL_ERROR_INVALID_RESOURCE_HANDLE", "the resource handle is invalid", "无效的资源句柄"),
    200006: ("ACL_ERROR_FEATURE_UNSUPPORTED", "the feature is not supported", "特性不支持"),
    200007: ("ACL_ERROR_PROF_MODULES_UNSUPPORTED", "the profiling modules are not supported",
             "采集性能数据的模块不支持"),
    300000: ("ACL_ERROR_STORAGE_OVER_LIMIT", "a storage limit was exceeded", "超出存储上限"),
    500000: ("ACL_ERROR_INTERNAL_ERROR", "unknown internal error", "未知内部错误"),
    500001: ("ACL_ERROR_FAILURE", "internal AscendCL error", "AscendCL 内部错误"),
    500002: ("ACL_ERROR_GE_FAILURE", "internal graph-engine error", "GE 内部错误"),
    500003: ("ACL_ERROR_RT_FAILURE", "internal runtime error", "Runtime 内部错误"),
    500004: ("ACL_ERROR_DRV_FAILURE", "internal driver error", "Driver 内部错误"),
    500005: ("ACL_ERROR_PROFILING_FAILURE", "profiling failed", "profiling 相关错误"),
    107000: ("ACL_ERROR_RT_PARAM_INVALID", "a runtime parameter is invalid", "Runtime 参数校验失败"),
    107001: ("ACL_ERROR_RT_INVALID_DEVICEID", "the device id is invalid", "无效的 Device ID"),
    107002: ("ACL_ERROR_RT_CONTEXT_NULL", "this thread has no current context", "当前线程的 context 为空"),
    107003: ("ACL_ERROR_RT_STREAM_CONTEXT", "the stream is not in the current context",
             "stream 不在当前 context 内"),
    107004: ("ACL_ERROR_RT_MODEL_CONTEXT", "the model is not in the current context", "模型不在当前 context 内"),
    107005: ("ACL_ERROR_RT_STREAM_MODEL", "the stream is not bound to the model", "stream 不在当前模型内"),
    107006: ("ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID", "the event has no valid timestamp (never recorded?)",
             "event 时间戳无效"),
    107007: ("ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL", "the end event was recorded before the start event",
             "event 时间戳反转"),
    107008: ("ACL_ERROR_RT_ADDR_UNALIGNED", "the address is not aligned", "地址未对齐"),
    107009: ("ACL_ERROR_RT_FILE_OPEN", "a file could not be opened", "打开文件失败"),
    107010: ("ACL_ERROR_RT_FILE_WRITE", "a file could not be written", "写文件失败"),
    107011: ("ACL_ERROR_RT_STREAM_SUBSCRIBE", "the stream subscription is wrong", "stream 订阅错误"),
    107012: ("ACL_ERROR_RT_THREAD_SUBSCRIBE", "the thread subscription is wrong", "线程订阅错误"),
    107015: ("ACL_ERROR_RT_STREAM_NO_CB_REG", "no callback thread is registered for the stream",
             "stream 未注册 callback 处理线程"),
    107016: ("ACL_ERROR_RT_INVALID_MEMORY_TYPE", "the memory type is invalid", "无效的内存类型"),
    107017: ("ACL_ERROR_RT_INVALID_HANDLE", "the handle is invalid", "无效的句柄"),
    107018: ("ACL_ERROR_RT_INVALID_MALLOC_TYPE", "the malloc type is invalid", "无效的内存申请类型"),
    107019: ("ACL_ERROR_RT_WAIT_TIMEOUT", "waiting timed out", "等待超时"),
    107020: ("ACL_ERROR_RT_TASK_TIMEOUT", "a task timed out", "任务执行超时"),
    207000: ("ACL_ERROR_RT_FEATURE_NOT_SUPPORT", "the feature is not supported by the runtime", "特性不支持"),
    207001: ("ACL_ERROR_RT_MEMORY_ALLOCATION", "device memory allocation failed (out of memory)",
             "内存申请失败"),
    207002: ("ACL_ERROR_RT_MEMORY_FREE", "freeing memory failed", "内存释放失败"),
    207004: ("ACL_ERROR_RT_NO_DEVICE", "no device is available", "Device 不存在"),
    207005: ("ACL_ERROR_RT_RESOURCE_ALLOC_FAIL", "a runtime resource could not be allocated", "资源申请失败"),
    207008: ("ACL_ERROR_RT_NO_STREAM_RESOURCE", "no stream resource is left", "stream 资源不足"),
    207018: ("ACL_ERROR_RT_DEVICE_OOM", "the device is out of memory", "Device 侧内存耗尽"),
    507000: ("ACL_ERROR_RT_INTERNAL_ERROR", "internal runtime error", "Runtime 内部错误"),
    507001: ("ACL_ERROR_RT_TS_ERROR", "task-scheduler error", "Device 上的 task scheduler 内部错误"),
    507006: ("ACL_ERROR_RT_EVENT_NOT_COMPLETE", "the event is not complete yet", "event 未完成"),
    507011: ("ACL_ERROR_RT_MODEL_EXECUTE", "model execution failed", "模型执行失败"),
    507012: ("ACL_ERROR_RT_REPORT_TIMEOUT", "no callback report arrived before the timeout",
             "获取 report 超时"),
    507014: ("ACL_ERROR_RT_AICORE_TIMEOUT", "an AI Core task timed out", "AI Core 执行超时"),
    507015: ("ACL_ERROR_RT_AICORE_EXCEPTION", "an AI Core task raised an exception", "AI Core 执行异常"),
    507033: ("ACL_ERROR_RT_DEV_SETUP_ERROR", "the device could not be started", "Device 启动失败"),
    507046: ("ACL_ERROR_RT_STREAM_SYNC_TIMEOUT", "synchronising the stream timed out", "stream 同步超时"),
    507047: ("ACL_ERROR_RT_EVENT_SYNC_TIMEOUT", "synchronising the event timed out", "event 同步超时"),
    507899: ("ACL_ERROR_RT_DRV_INTERNAL_ERROR", "internal driver error", "Driver 内部错误"),
    507900: ("ACL_ERROR_RT_AICPU_INTERNAL_ERROR", "internal AI CPU error", "AI CPU 内部错误"),
    145000: ("ACL_ERROR_GE_PARAM_INVALID", "a graph-engine parameter is invalid", "GE 参数校验失败"),
    145001: ("ACL_ERROR_GE_EXEC_NOT_INIT", "the graph-engine executor is not initialised", "GE 执行器未初始化"),
    145002: ("ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID", "the model path is invalid", "无效的模型路径"),
    145003: ("ACL_ERROR_GE_EXEC_MODEL_ID_INVALID", "the model id is invalid", "无效的模型 ID"),
    145006: ("ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID", "the model data size is invalid", "无效的模型数据大小"),
    145007: ("ACL_ERROR_GE_EXEC_MODEL_ADDR_INVALID", "the model address is invalid", "无效的模型地址"),
    145008: ("ACL_ERROR_GE_EXEC_MODEL_QUEUE_ID_INVALID", "the model queue id is invalid", "无效的模型队列 ID"),
    145009: ("ACL_ERROR_GE_EXEC_LOAD_MODEL_REPEATED", "the model was loaded twice", "重复加载模型"),
    145011: ("ACL_ERROR_GE_DYNAMIC_INPUT_ADDR_INVALID", "the dynamic input address is invalid",
             "无效的动态分档输入地址"),
    145012: ("ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID", "the dynamic input length is invalid",
             "无效的动态分档输入长度"),
    145013: ("ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID", "the dynamic batch size is not a gear of the model",
             "无效的动态 batch 档位"),
    145014: ("ACL_ERROR_GE_AIPP_BATCH_EMPTY", "the AIPP batch parameter is empty", "AIPP batch 参数为空"),
    145015: ("ACL_ERROR_GE_AIPP_NOT_EXIST", "the AIPP configuration does not exist", "AIPP 配置不存在"),
    145016: ("ACL_ERROR_GE_AIPP_MODE_INVALID", "the AIPP mode is invalid", "无效的 AIPP 模式"),
    145020: ("ACL_ERROR_GE_FORMAT_INVALID", "the format is invalid", "无效的格式"),
    145021: ("ACL_ERROR_GE_SHAPE_INVALID", "the shape is invalid", "无效的 shape"),
    145022: ("ACL_ERROR_GE_DATATYPE_INVALID", "the data type is invalid", "无效的数据类型"),
    245000: ("ACL_ERROR_GE_MEMORY_ALLOCATION", "graph-engine memory allocation failed", "GE 内存申请失败"),
    245001: ("ACL_ERROR_GE_MEMORY_OPERATE_FAILED", "a graph-engine memory operation failed", "GE 内存操作失败"),
    245002: ("ACL_ERROR_GE_DEVICE_MEMORY_OPERATE_FAILED", "a graph-engine device-memory operation failed",
             "GE Device 内存操作失败"),
    545000: ("ACL_ERROR_GE_INTERNAL_ERROR", "internal graph-engine error", "GE 内部错误"),
    545001: ("ACL_ERROR_GE_LOAD_MODEL", "loading the model failed", "模型加载失败"),
    545009: ("ACL_ERROR_GE_UNLOAD_MODEL", "unloading the model failed", "模型卸载失败"),
    545601: ("ACL_ERROR_GE_MODEL_EXECUTE_TIMEOUT", "model execution timed out", "模型执行超时"),
}

# Hand-written cause and fix for the codes a learner actually meets: code -> (cause, fix, 原因, 解决)
_ADVICE: Dict[int, Tuple[str, str, str, str]] = {
    100000: ("A NULL (0) handle or pointer, a size of 0, an unknown enum value, or a name/index the "
             "model does not have was passed.",
             "Print the arguments; check every handle is non-zero and came from the matching create call.",
             "传入了空(0)句柄/指针、大小为 0、未知的枚举值，或模型中不存在的名称/索引。",
             "打印参数，确认每个句柄非 0 且来自对应的 create 接口。"),
    100001: ("An AscendCL API was called before acl.init().",
             "Call acl.init() once at the start of the process.",
             "在 acl.init() 之前调用了 AscendCL 接口。", "在进程开始时调用一次 acl.init()。"),
    100002: ("acl.init() ran again in a process that is already initialised — typically a re-run notebook "
             "cell.",
             "Harmless on its own: the process is still initialised, keep going. Do not finalize to init again: "
             "up to CANN 8.0 a process may call acl.init once (only the 2025/26 runtime allows init after finalize).",
             "在已初始化的进程中再次调用 acl.init()，常见于重新运行 notebook 单元格。",
             "本身无害：进程仍处于初始化状态，继续执行即可。不要为了重新初始化而 finalize：CANN 8.0 及以前一个进程只能调用一次 "
             "acl.init（只有 2025/26 年的运行时允许 finalize 之后再初始化）。"),
    100011: ("The model id does not belong to a loaded model (never loaded, or already unloaded).",
             "Use the id returned by acl.mdl.load_from_file and unload it only once.",
             "模型 ID 不属于已加载的模型（未加载或已卸载）。", "使用 load 接口返回的 ID，并且只卸载一次。"),
    100012: ("The model file is corrupted (its contents do not match what was written).",
             "Copy the file again or rebuild it with ATC.", "模型文件已损坏。", "重新拷贝文件或用 ATC 重新转换。"),
    100013: ("The file is not an offline model this runtime can load: an ONNX/Caffe/TF model that was "
             "never converted, or an OM built for other hardware.",
             "Convert the model with ATC for this SoC (on the simulator: acl-teach atc ... --framework=5).",
             "文件不是本运行时可加载的离线模型：未经 ATC 转换，或为其他硬件生成。",
             "用 ATC 针对当前芯片转换模型（模拟器中使用 acl-teach atc ... --framework=5）。"),
    100015: ("The model file is truncated (an interrupted copy or download).",
             "Copy the file again or rebuild it with ATC.", "模型文件不完整（拷贝或下载中断）。",
             "重新拷贝文件或用 ATC 重新转换。"),
    100017: ("The input dataset does not match the model: wrong number of buffers or a buffer smaller "
             "than the model input.",
             "Build one data buffer per model input, each of acl.mdl.get_input_size_by_index bytes.",
             "输入 Dataset 与模型不匹配：buffer 个数不对或 buffer 小于模型输入。",
             "为每个输入创建一个 buffer，大小为 get_input_size_by_index 的返回值。"),
    100018: ("The output dataset does not match the model: wrong number of buffers or a buffer too "
             "small for the output.",
             "Build one data buffer per model output, each of acl.mdl.get_output_size_by_index bytes.",
             "输出 Dataset 与模型不匹配：buffer 个数不对或 buffer 过小。",
             "为每个输出创建一个 buffer，大小为 get_output_size_by_index 的返回值。"),
    100019: ("A dynamic-batch/HW call was made on a model converted without dynamic gears.",
             "Convert with ATC --dynamic_batch_size or --dynamic_image_size, or skip the call.",
             "对非动态模型调用了动态 batch/分辨率接口。",
             "ATC 转换时加 --dynamic_batch_size 或 --dynamic_image_size，或不调用该接口。"),
    100033: ("The stream already has a callback thread subscribed.",
             "Subscribe each stream once; unsubscribe_report before subscribing again.",
             "该 stream 已订阅回调线程。", "每个 stream 只订阅一次；重新订阅前先 unsubscribe_report。"),
    100034: ("unsubscribe_report was called for a stream/thread pair that is not subscribed.",
             "Only unsubscribe what subscribe_report subscribed.",
             "对未订阅的 stream/线程调用了 unsubscribe_report。", "只取消已订阅的组合。"),
    100035: ("process_report ran in a thread that is not subscribed to any stream.",
             "Call acl.rt.subscribe_report(thread_id, stream) for this thread first.",
             "在未订阅任何 stream 的线程中调用了 process_report。", "先对该线程调用 subscribe_report。"),
    100037: ("acl.finalize() was called twice, or without acl.init().",
             "Call acl.finalize() once, at the very end, after every resource is released.",
             "重复调用 acl.finalize()，或未初始化就去初始化。", "所有资源释放后，在最后调用一次 acl.finalize()。"),
    107000: ("A runtime argument is wrong: a copy larger than its destination or than the allocation, "
             "a copy kind that does not match where the memory lives, a freed or unknown pointer, or a "
             "destroyed stream/context.",
             "Check count <= dst_max, that both pointers are live allocations, and that the kind matches "
             "(host memory -> HOST_TO_DEVICE -> device memory).",
             "Runtime 参数错误：拷贝长度超过目标或分配大小、拷贝方向与内存位置不符、指针已释放或未知、"
             "stream/context 已销毁。",
             "检查 count <= dst_max、两个指针都是有效分配、拷贝方向与内存位置一致。"),
    107001: ("The device id is outside 0 .. device_count-1.",
             "Use acl.rt.get_device_count() to see which ids exist (usually 0).",
             "Device ID 超出范围。", "用 acl.rt.get_device_count() 查看可用 ID（通常为 0）。"),
    107002: ("This thread has no current context: set_device/create_context was not called in it, or the "
             "context was destroyed.",
             "Call acl.rt.set_device / acl.rt.create_context first; in a worker thread call "
             "acl.rt.set_context(context).",
             "当前线程没有 context：未调用 set_device/create_context，或 context 已销毁。",
             "先调用 set_device / create_context；子线程中调用 acl.rt.set_context(context)。"),
    107003: ("The stream was created in a different context from the thread's current one.",
             "acl.rt.set_context(the stream's context) before using it.",
             "stream 不属于当前 context。", "使用前先 acl.rt.set_context 切换到 stream 所属的 context。"),
    107012: ("process_report ran in a thread that is not subscribed to any stream (before subscribe_report, "
             "or after unsubscribe_report); the runtime answers at once, whatever the timeout.",
             "Subscribe the thread first (acl.rt.subscribe_report(thread_id, stream)); in the worker loop, "
             "check the exit flag after each process_report.",
             "在未订阅任何 stream 的线程中调用了 process_report（subscribe_report 之前或 unsubscribe_report "
             "之后），Runtime 会立即返回，与超时时间无关。",
             "先对该线程调用 subscribe_report；回调线程循环中每次 process_report 后检查退出标志。"),
    107015: ("launch_callback was called on a stream that no thread has subscribed to.",
             "Start a thread (acl.util.start_thread) that loops on acl.rt.process_report, then "
             "acl.rt.subscribe_report(thread_id, stream) before launch_callback.",
             "在未订阅回调线程的 stream 上调用了 launch_callback。",
             "先 start_thread 启动循环 process_report 的线程，再 subscribe_report，然后 launch_callback。"),
    107019: ("A wait did not finish in time (for example stop_thread on a thread that never exits).",
             "Make the worker thread's loop check an exit flag, set it, then call stop_thread.",
             "等待超时（例如对不会退出的线程调用 stop_thread）。", "让线程循环检查退出标志，置位后再 stop_thread。"),
    207001: ("The device ran out of memory: too many or too large acl.rt.malloc calls, or leaked buffers.",
             "Free buffers you no longer need (acl.rt.free) and check acl.rt.get_mem_info.",
             "Device 内存不足：申请过多/过大，或存在未释放的内存。", "释放不用的内存，并用 get_mem_info 查看。"),
    145002: ("The model path does not exist or cannot be read.",
             "Check the path (relative paths are relative to the working directory).",
             "模型路径不存在或不可读。", "检查路径（相对路径相对于当前工作目录）。"),
    145003: ("The model id is not a loaded model (never loaded, or already unloaded).",
             "Use the id from acl.mdl.load_from_file and unload it only once.",
             "模型 ID 不是已加载的模型（未加载或已卸载）。", "使用 load 接口返回的 ID，且只卸载一次。"),
    507011: ("Model execution failed: an input/output buffer the device cannot use (freed, host memory "
             "on a card), an unset dynamic gear, or a fault inside the model.",
             "Check every data buffer points at live device memory of the right size; set the gear first.",
             "模型执行失败：输入/输出 buffer 不可用（已释放、在 Host 侧）、未设置动态档位，或模型内部故障。",
             "确认每个 data buffer 指向大小正确的有效 Device 内存；先设置档位。"),
    145013: ("The requested batch is not one of the gears the model was converted with.",
             "Use a value from acl.mdl.get_dynamic_batch(desc).",
             "设置的 batch 不在模型档位中。", "使用 get_dynamic_batch 返回的档位。"),
    507012: ("process_report waited timeout_ms and no callback arrived. Normal in a polling loop.",
             "Ignore it inside the loop; check the exit flag and poll again.",
             "process_report 在超时时间内没有收到回调，轮询时属正常现象。", "在循环中忽略，检查退出标志后继续轮询。"),
    507033: ("The device could not start: driver/firmware problem or the device is in use.",
             "Check npu-smi info; reinstall matching driver and firmware.",
             "Device 启动失败：驱动/固件问题或设备被占用。", "用 npu-smi info 检查；安装匹配的驱动与固件。"),
    507046: ("synchronize_stream waited too long — on the simulator usually a BLOCK callback that no "
             "thread processes.",
             "Run a thread that calls acl.rt.process_report for the stream's subscription.",
             "stream 同步超时——模拟器中通常是没有线程处理的阻塞回调。", "启动调用 process_report 的线程。"),
}

_CLASS_ADVICE = {
    1: ("A caller or environment mistake: the arguments, the order of calls or the configuration.",
        "Read the call's arguments and the order of the steps; this is fixable in your code.",
        "调用方或环境问题：参数、调用顺序或配置有误。", "检查参数与调用顺序，可在代码中修正。"),
    2: ("A resource problem: memory, device or a feature this hardware lacks.",
        "Release what you no longer need, or check the hardware and CANN version.",
        "资源问题：内存、设备或硬件不支持的特性。", "释放不用的资源，或检查硬件与 CANN 版本。"),
    3: ("A service failed (for example a queue is full or empty).", "Retry later or drain the queue.",
        "业务功能异常（例如队列满或队列空）。", "稍后重试或先消费队列。"),
    5: ("An internal error below AscendCL.", "Collect the plog logs ($HOME/ascend/log) and report it.",
        "AscendCL 以下的内部错误。", "收集 plog 日志（$HOME/ascend/log）并反馈。"),
}


@dataclass(frozen=True)
class ErrorInfo:
    """Everything a learner needs to read one aclError code."""

    code: int
    name: str
    en: str
    zh: str
    cause: str
    fix: str
    cause_zh: str
    fix_zh: str

    def text(self) -> str:
        """Readable multi-line explanation in both languages."""
        return (f"{self.code} {self.name}\n"
                f"  meaning: {self.en}\n  含义: {self.zh}\n"
                f"  usual cause: {self.cause}\n  常见原因: {self.cause_zh}\n"
                f"  fix: {self.fix}\n  解决: {self.fix_zh}")


def explain(code: int) -> Optional[ErrorInfo]:
    """Look a code up; None when it is not an aclError we know."""
    if code not in _TABLE:
        return None
    name, en, zh = _TABLE[code]
    if code == 0:
        return ErrorInfo(0, name, en, zh, "The call worked.", "Nothing to fix.", "调用成功。", "无需处理。")
    advice = _ADVICE.get(code) or _CLASS_ADVICE.get(code // 100000, _CLASS_ADVICE[5])
    return ErrorInfo(code, name, en, zh, *advice)


def name_of(code: int) -> str:
    """The symbolic name of a code, or 'UNKNOWN_<code>'."""
    entry = _TABLE.get(code)
    return entry[0] if entry else f"UNKNOWN_{code}"


class AclError(Exception):
    """A pyACL call returned a non-zero aclError: which call, the code, and what to do, in EN and 中文."""

    def __init__(self, api: str, code: int, detail: Optional[str] = None) -> None:
        self.api, self.code, self.detail = api, code, detail
        self.info = explain(code)
        self.name = self.info.name if self.info else name_of(code)
        super().__init__(self.message())

    def message(self) -> str:
        """One readable block: call, code, meaning, fix (English and Chinese)."""
        text = f"{self.api} returned {self.code} ({self.name})"
        if self.info:
            text += f": {self.info.en} / {self.info.zh}"
        if self.detail:
            text += f"\n  what happened: {self.detail}"
        if self.info:
            text += f"\n  fix: {self.info.fix}\n  解决: {self.info.fix_zh}"
        return text


# the codes the step API treats as "already done" rather than as failures
ACL_ERROR_REPEAT_INITIALIZE = 100002
ACL_ERROR_REPEAT_FINALIZE = 100037

# DVPP tasks fail on the device; the simulator reports them with this code (UNCONFIRMED, reference §6.1)
_TABLE[507018] = ("ACL_ERROR_RT_AICPU_EXCEPTION", "an AI CPU task raised an exception", "AI CPU 执行异常")
