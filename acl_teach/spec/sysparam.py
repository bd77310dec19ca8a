"""aclSysParamOpt: the runtime's system parameters (CANN's acl_base.h)."""

ACL_OPT_DETERMINISTIC = 0        # 0 off (default), 1 on: same inputs, same outputs, slower
ACL_OPT_ENABLE_DEBUG_KERNEL = 1  # 0 off (default), 1 on
ACL_OPT_STRONG_CONSISTENCY = 2   # 0 off (default), 1 on (newer headers)
SYS_PARAM_OPTS = (ACL_OPT_DETERMINISTIC, ACL_OPT_ENABLE_DEBUG_KERNEL, ACL_OPT_STRONG_CONSISTENCY)
