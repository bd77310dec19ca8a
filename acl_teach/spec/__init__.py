"""pyACL facts in one neutral place: constants, data types, aclError codes, the simulator's OM container.

Everything else (simulator, toolchain, step API, widgets, lab, CLI) reads these; this package
imports nothing else of acl_teach, so a fact changes in one place.
"""
