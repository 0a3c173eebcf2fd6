"""Sphinx configuration of the ubongo-cp documentation site (``make docs``).

Built with warnings as errors and nitpicky cross-references
(``sphinx-build -W -n``). The build machine has no internet: intersphinx
reads the inventories cached in ``_inventories/`` (see its README) and never
downloads; types of packages without a cached inventory are listed in
``nitpick_ignore_regex`` below, and nothing else is.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE / "_ext"))

import ubongo_cp  # noqa: E402

project = "ubongo-cp"
author = "the ubongo-cp authors"
copyright = "2026, the ubongo-cp authors"
release = version = ubongo_cp.__version__

extensions = [
    "sphinx.ext.autodoc",
    "numpydoc",
    "sphinx.ext.intersphinx",
    "sphinx.ext.viewcode",
    "myst_nb",
    "ubongo_docs",          # _ext/ubongo_docs.py: generated API pages, rules page with code/test links
]

source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
exclude_patterns = ["_build", "_inventories", "**.ipynb_checkpoints", "jupyter_execute"]
root_doc = "index"

# --- HTML -------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = "ubongo-cp"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
}
# The left column ("Section Navigation") only where a section has pages to list (the tutorials, the API
# reference); on every other page it would stand empty and take the width the code blocks need
# (a page name without a wildcard overrides the "**" pattern). docs/_ext/check_layout.py checks in a
# headless browser that the code blocks fit at 1280 px.
_LEAVES = (["index"] + [p.stem for p in HERE.glob("*.md") if p.stem != "index"]
           + [f"notebooks/{p.stem}" for p in (ROOT / "notebooks").glob("*.ipynb")] + ["rules/index", "rules/tests"])
html_sidebars = {"**": ["sidebar-nav-bs"], **{name: [] for name in _LEAVES}}
html_static_path = ["_static"]
html_css_files = ["layout.css"]
html_show_sourcelink = False

# --- autodoc + numpydoc -----------------------------------------------------
autodoc_default_options = {"member-order": "bysource"}
autodoc_typehints = "signature"
autodoc_preserve_defaults = True
numpydoc_show_class_members = False     # members are documented by autodoc itself
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
numpydoc_validation_checks: set[str] = set()

# --- MyST / notebooks ---------------------------------------------------------
myst_enable_extensions = ["colon_fence", "deflist", "dollarmath"]
myst_heading_anchors = 4
# Notebooks (../notebooks, linked in as notebooks/) are stored without outputs: they are executed
# by the build on the same small inputs the test suite uses (tests/test_notebooks.py), and cached.
nb_execution_mode = os.environ.get("UBONGO_DOCS_EXECUTE", "cache")
nb_execution_timeout = 300
nb_execution_raise_on_error = True
nb_execution_cache_path = str(HERE / "_build" / ".jupyter_cache")
os.environ.pop("MPLBACKEND", None)      # the kernels use the inline backend: figures show on the pages
os.environ.pop("UBONGO_BATCH_DIRS", None)
os.environ.pop("UBONGO_CENSUS_DIR", None)
# The notebooks' own scratch folders (the census notebook's census, the deck report's batch, the benchmark
# run) go under the build folder, emptied at each build: in the machine's temporary folder every build left three.
SCRATCH = HERE / "_build" / "scratch"
shutil.rmtree(SCRATCH, ignore_errors=True)
SCRATCH.mkdir(parents=True)
os.environ["TMPDIR"] = str(SCRATCH)     # the kernels' tempfile.mkdtemp()
os.environ.setdefault("UBONGO_BENCH_DIR", tempfile.mkdtemp(prefix="ubongo-docs-bench-", dir=SCRATCH))

# --- intersphinx: offline, from cached inventories --------------------------
# Each entry: (the project's online docs, the cached inventory). Nothing is fetched at build time.
intersphinx_mapping = {
    "python": ("https://docs.python.org/3", str(HERE / "_inventories" / "python.inv")),
    "pandas": ("https://pandas.pydata.org/docs", str(HERE / "_inventories" / "pandas.inv")),
    "dask": ("https://docs.dask.org/en/stable", str(HERE / "_inventories" / "dask.inv")),
    "distributed": ("https://distributed.dask.org/en/stable", str(HERE / "_inventories" / "distributed.inv")),
}
intersphinx_timeout = 1

# --- nitpicky: the external types without a cached inventory ----------------
nitpicky = True
# NumPy-style References sections may list works the text does not cite by number ([1]_);
# an unknown citation *reference* is still an error.
suppress_warnings = ["ref.citation"]
_NO_INVENTORY = r"(numpy|np|numpy\.typing|npt|matplotlib|networkx|nx|ortools|cp_model|pyarrow|pa|pysat|xcover|numba|tqdm|scipy)"
nitpick_ignore_regex = [
    (r"py:.*", _NO_INVENTORY + r"(\..*)?"),
    (r"py:.*", r"(NDArray|ArrayLike|DTypeLike|Figure|Axes|Graph|CpModel|CpSolver|IntVar)"),
]
