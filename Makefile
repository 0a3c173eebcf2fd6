# Two commands: `make run` (main job on the shipped data) and `make test`.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
CLI    := $(VENV)/bin/ubongo-cp
OUT    ?= out
# An editable install that puts this directory on sys.path (a .pth line) rather than an import hook,
# which costs every process about 25 ms; the bytecode is compiled as a wheel install does, so each
# command starts as it would for a user even where PYTHONDONTWRITEBYTECODE is set.
EDITABLE := pip install -q --config-settings editable_mode=compat -e

.PHONY: install run test lint bench docs clean

# The install also compiles the C search kernels (setup.py; optional: without a
# compiler the numba kernel and the dancing-cells solvers are used, and the
# decision diagram is built in Python), so a change to their source reinstalls.
$(VENV)/.installed: pyproject.toml setup.py ubongo_cp/solvers/_dance.c ubongo_cp/solvers/_zdd.c ubongo_cp/solvers/_bits.c \
		ubongo_cp/_placements.c
	$(PYTHON) -m venv $(VENV)
	$(PY) -m $(EDITABLE) '.[test,openspiel]'
	touch $@

install: $(VENV)/.installed
	@$(PY) -m compileall -q -j 0 ubongo_cp > /dev/null

run: install
	$(CLI) batch puzzles/decks/classic --out $(OUT)/classic
	@$(MAKE) --no-print-directory $(if $(PAGES_DRAWN),,-B) $(OUT)/classic/booklet.pdf

# The booklet is drawn again only when the deck, the batch's tables or the toolkit changed, or when its
# page images are not all there (one per card file): a second `make run` resumes the batch, whose tables
# keep their times when their content is the same.
PAGES_DRAWN = $(filter $(words $(wildcard puzzles/decks/classic/*.toml)),$(words $(wildcard $(OUT)/classic/pages/*.png)))
$(OUT)/classic/booklet.pdf: $(OUT)/classic/tasks.csv $(wildcard puzzles/decks/classic/*) $(shell find ubongo_cp -name '*.py')
	$(CLI) booklet puzzles/decks/classic --results $(OUT)/classic --out $@ --png $(OUT)/classic/pages

test: install
	$(PY) -m pytest -q -p no:cacheprovider -n 2   # two workers (pytest-xdist): the suite in about half the time

# The linter (ruff: pyflakes, pycodestyle, bugbear, ...) and the type checker (mypy), both configured
# in pyproject.toml; a few seconds once mypy's cache is warm.
lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

# The documentation site: docs/_build/html/index.html. Warnings are errors and every
# cross-reference must resolve (-W -n); then the internal links of the built pages are checked.
$(VENV)/.docs-installed: $(VENV)/.installed pyproject.toml
	$(PY) -m $(EDITABLE) '.[test,openspiel,docs]'
	touch $@

# Each build starts from an empty output (viewcode keeps a source page newer than its module, and
# an incremental build checks only the pages it re-reads); the executed notebooks stay cached.
docs: $(VENV)/.docs-installed
	rm -rf docs/_build/html docs/_build/doctrees
	$(VENV)/bin/sphinx-build -W -n --keep-going -q -j 2 -d docs/_build/doctrees -b html docs docs/_build/html
	$(PY) docs/_ext/check_links.py docs/_build/html
	$(PY) docs/_ext/check_layout.py docs/_build/html   # code blocks fit at 1280 px (headless Chromium; skipped without it)

# The solver benchmark: the quick forms of the shipped suites, every registered solver, each run
# a process of its own (ubongo-cp bench); measured afresh each time (a run resumes only when
# interrupted). The reference run the docs show is written with --out benchmarks/results/bench.
BENCH_OUT ?= benchmarks/out/bench
bench: install
	rm -rf $(BENCH_OUT)
	$(CLI) bench decks pentominoes identical duel-analysis knuth --quick --solvers all --time-limit 30 --out $(BENCH_OUT)

clean:
	rm -rf $(VENV) $(OUT) build *.egg-info docs/_build docs/api docs/rules docs/jupyter_execute ubongo_cp/solvers/_dance*.so ubongo_cp/solvers/_zdd*.so ubongo_cp/solvers/_bits*.so
