"""Events, stream statuses and exception info: pyACL's constants for them (CANN's acl_rt.h)."""

# aclrtCreateEventWithFlag / aclrtCreateEventExWithFlag flags
ACL_EVENT_SYNC = 0x00000001
ACL_EVENT_CAPTURE_STREAM_PROGRESS = 0x00000002
ACL_EVENT_TIME_LINE = 0x00000008
ACL_EVENT_EXTERNAL = 0x00000020
ACL_EVENT_IPC = 0x00000040
EVENT_FLAGS = (ACL_EVENT_SYNC | ACL_EVENT_CAPTURE_STREAM_PROGRESS | ACL_EVENT_TIME_LINE | ACL_EVENT_EXTERNAL
               | ACL_EVENT_IPC)

# aclrtEventStatus (acl.rt.query_event)
ACL_EVENT_STATUS_COMPLETE = 0
ACL_EVENT_STATUS_NOT_READY = 1
ACL_EVENT_STATUS_RESERVED = 2

# aclrtEventRecordedStatus (acl.rt.query_event_status)
ACL_EVENT_RECORDED_STATUS_NOT_READY = 0
ACL_EVENT_RECORDED_STATUS_COMPLETE = 1

# aclrtEventWaitStatus (acl.rt.query_event_wait_status)
ACL_EVENT_WAIT_STATUS_COMPLETE = 0
ACL_EVENT_WAIT_STATUS_NOT_READY = 1
ACL_EVENT_WAIT_STATUS_RESERVED = 0xFFFF

# aclrtStreamStatus (acl.rt.stream_query)
ACL_STREAM_STATUS_COMPLETE = 0
ACL_STREAM_STATUS_NOT_READY = 1
ACL_STREAM_STATUS_RESERVED = 0xFFFF

# what the exception-info getters return for a NULL info (acl_rt.h)
EXCEPTION_INFO_NULL = 0xFFFFFFFF
