"""``acl.mdl``: offline models, model descs, datasets and execution (filled in by the models work)."""
