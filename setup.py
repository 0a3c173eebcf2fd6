"""Build of the optional C extensions (metadata: pyproject.toml).

- ``ubongo_cp.solvers._dance``: the search kernel; without it
  :mod:`ubongo_cp.solvers.dancing` falls back to its numba kernel.
- ``ubongo_cp.solvers._zdd``: the decision-diagram builder (DXZ); without it
  :mod:`ubongo_cp.solvers.zdd` runs its pure-Python builder (slow).
- ``ubongo_cp.solvers._bits``: the bitboard kernel; :mod:`ubongo_cp.solvers.bitboard`
  needs it, and without it the default solvers fall back to the dancing-cells backend.
- ``ubongo_cp._placements``: the fill of a large placement table; without it
  :mod:`ubongo_cp.cover` fills it with numpy (the same table).

All are *optional*: without a working C compiler the install still succeeds.
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension(
    f"ubongo_cp.{name}".replace("/", "."),
    sources=[f"ubongo_cp/{name}.c"],
    depends=["ubongo_cp/solvers/_bits_fast.h"] if name == "solvers/_bits" else [],
    extra_compile_args=["-O3", "-std=c11"],
    optional=True,
) for name in ("solvers/_dance", "solvers/_zdd", "solvers/_bits", "_placements")])
