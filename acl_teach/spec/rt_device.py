"""Enum values of the acl.rt device/memory calls the simulator answers (acl_rt.h; UNCONFIRMED where marked).

Kept out of ``spec.constants`` on purpose: that module becomes ``acl``'s attributes, and these are
C enum values pyACL itself does not export.
"""

# aclrtMemLocationType (pointer_get_attributes' location.type) — UNCONFIRMED values
MEM_LOCATION_TYPE_HOST = 0
MEM_LOCATION_TYPE_DEVICE = 1
PTR_ATTR_RSV_WORDS = 8  # aclrtPtrAttributes.rsv: UNCONFIRMED length
HOST_PAGE_SIZE = 4096
DEVICE_HUGE_PAGE_SIZE = 2 << 20

# aclrtHostRegisterType
HOST_REGISTER_MAPPED = 0

# aclrtDevAttr (get_device_info) — UNCONFIRMED values
DEV_ATTR_AICPU_CORE_NUM = 1
DEV_ATTR_AICORE_CORE_NUM = 101
DEV_ATTR_CUBE_CORE_NUM = 102
DEV_ATTR_VECTOR_CORE_NUM = 201
DEV_ATTR_WARP_SIZE = 202
DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE = 301
DEV_ATTR_L2_CACHE_SIZE = 302

# aclrtDevResLimitType (get/set_device_res_limit) — UNCONFIRMED values
DEV_RES_CUBE_CORE = 0
DEV_RES_VECTOR_CORE = 1

# aclrtDeviceStatus
DEVICE_STATUS_NORMAL = 0
DEVICE_STATUS_ABNORMAL = 1

# aclrtFloatOverflowMode (set/get_device_sat_mode)
OVERFLOW_MODE_SATURATION = 0
OVERFLOW_MODE_INFNAN = 1

# aclSysParamOpt (set/get_sys_param_opt)
OPT_DETERMINISTIC = 0
OPT_ENABLE_DEBUG_KERNEL = 1
OPT_STRONG_CONSISTENCY = 2
SYS_PARAM_OPTS = (OPT_DETERMINISTIC, OPT_ENABLE_DEBUG_KERNEL, OPT_STRONG_CONSISTENCY)

# aclrtLastErrLevel (peek_at_last_error / get_last_error)
LAST_ERR_THREAD_LEVEL = 0

# stream priorities: (least, greatest) — UNCONFIRMED (0 is the highest priority)
STREAM_PRIORITY_RANGE = (7, 0)
# op timeouts: the granularity aclrtSetOpExecuteTimeOutV2 rounds up to — UNCONFIRMED
OP_TIMEOUT_INTERVAL_US = 1_000_000

# aclrtDevFeatureType (get_device_capability) and its answers — UNCONFIRMED values
DEV_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV = 1
DEV_FEATURE_NOT_SUPPORT = 0
DEV_FEATURE_SUPPORT = 1
DEV_FEATURES = (DEV_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV,)

# what each simulated chip reports (get_device_info); UNCONFIRMED figures, per the chips' public data sheets
SOC_INFO = {
    "Ascend310": {DEV_ATTR_AICPU_CORE_NUM: 4, DEV_ATTR_AICORE_CORE_NUM: 2, DEV_ATTR_CUBE_CORE_NUM: 2,
                  DEV_ATTR_VECTOR_CORE_NUM: 0, DEV_ATTR_WARP_SIZE: 0, DEV_ATTR_L2_CACHE_SIZE: 8 << 20},
    "Ascend310P3": {DEV_ATTR_AICPU_CORE_NUM: 4, DEV_ATTR_AICORE_CORE_NUM: 8, DEV_ATTR_CUBE_CORE_NUM: 8,
                    DEV_ATTR_VECTOR_CORE_NUM: 7, DEV_ATTR_WARP_SIZE: 0, DEV_ATTR_L2_CACHE_SIZE: 16 << 20},
}
