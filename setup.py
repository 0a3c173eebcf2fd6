"""Build of the optional C kernels ``ubongo_cp.solvers._dance`` and ``_bits`` (metadata: pyproject.toml).

The extensions are *optional*: without a working C compiler the install still
succeeds; :mod:`ubongo_cp.solvers.dancing` then falls back to its numba kernel
and the default solvers to the dancing-cells backend (:mod:`ubongo_cp.solvers.bitboard`
needs its C kernel).
"""

from setuptools import Extension, setup

setup(ext_modules=[
    Extension("ubongo_cp.solvers._dance", sources=["ubongo_cp/solvers/_dance.c"],
              extra_compile_args=["-O3", "-std=c11"], optional=True),
    Extension("ubongo_cp.solvers._bits", sources=["ubongo_cp/solvers/_bits.c"],
              extra_compile_args=["-O3", "-std=c11"], optional=True),
])
