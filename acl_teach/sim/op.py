"""``acl.op``: the single-operator subset used for post-processing (filled in by the models work)."""
