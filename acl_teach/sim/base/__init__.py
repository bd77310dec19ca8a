"""The top-level ``acl.*`` namespace: init/finalize, versions and CANN attributes, data buffers, tensor descs
and float16 conversion (assembled into ``acl`` by ``acl_teach.sim``)."""
