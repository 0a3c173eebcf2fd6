"""Build of the optional C kernel ``ubongo_cp.solvers._dance`` (metadata: pyproject.toml).

The extension is *optional*: without a working C compiler the install still
succeeds and :mod:`ubongo_cp.solvers.dancing` falls back to its numba kernel.
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension(
    "ubongo_cp.solvers._dance",
    sources=["ubongo_cp/solvers/_dance.c"],
    extra_compile_args=["-O3", "-std=c11"],
    optional=True,
)])
