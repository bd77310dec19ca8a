"""Device groups: pyACL's constants for them (CANN's acl_rt.h aclrtGroupAttr)."""

ACL_GROUP_AICORE_INT = 0
ACL_GROUP_AIV_INT = 1
ACL_GROUP_AIC_INT = 2
ACL_GROUP_SDMANUM_INT = 3
ACL_GROUP_ASQNUM_INT = 4
ACL_GROUP_GROUPID_INT = 5

VALUE_BYTES = 4  # each attribute is a 32-bit int; the binding lists paramRetSize (bytes) ints
