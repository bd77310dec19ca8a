"""``acl.blas`` constants (CANN's acl_cblas.h)."""

# aclTransType
ACL_TRANS_N = 0
ACL_TRANS_T = 1
ACL_TRANS_NZ = 2
ACL_TRANS_NZ_T = 3

# aclComputeType
ACL_COMPUTE_HIGH_PRECISION = 0
ACL_COMPUTE_LOW_PRECISION = 1
