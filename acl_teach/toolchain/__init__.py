"""The toolchain beside the steps: the ATC emulator, the real ``atc`` on a board, shipped assets, fetch, recipes.

The step API never imports it; the edges (Session, CLI, notebooks' setup via ``acl_teach.models``)
choose a model with it, knowing the backend.
"""
