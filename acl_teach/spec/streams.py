"""Stream attributes and failure modes: pyACL's constants for them (CANN's acl_rt.h)."""

# aclrtStreamAttr (acl.rt.set_stream_attribute / get_stream_attribute)
ACL_STREAM_ATTR_FAILURE_MODE = 1
ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK = 2
ACL_STREAM_ATTR_USER_CUSTOM_TAG = 3
ACL_STREAM_ATTR_CACHE_OP_INFO = 4

# the dict key the binding reads / builds for each attribute (rt_stream.cpp); any other attribute: "reserved"
ATTR_KEYS = {ACL_STREAM_ATTR_FAILURE_MODE: "failureMode", ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK: "overflowSwitch",
             ACL_STREAM_ATTR_USER_CUSTOM_TAG: "userCustomTag"}
RESERVED_WORDS = 4  # aclrtStreamAttrValue.reserve[4]

# aclrtSetStreamFailureMode modes
ACL_CONTINUE_ON_FAILURE = 0
ACL_STOP_ON_FAILURE = 1

# aclrtValueWait flags (the 8.5 documentation's ACL_VALUE_WAIT_*; newer headers spell them ACL_STREAM_WAIT_VALUE_*)
ACL_VALUE_WAIT_GEQ = 0x0  # until (int64)(*addr - value) >= 0
ACL_VALUE_WAIT_EQ = 0x1   # until *addr == value
ACL_VALUE_WAIT_AND = 0x2  # until (*addr & value) != 0
ACL_VALUE_WAIT_NOR = 0x3  # until ~(*addr | value) != 0
