# Two commands: `make run` (main job on the shipped data) and `make test`.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
CLI    := $(VENV)/bin/ubongo-cp
OUT    ?= out

.PHONY: install run test bench clean

# The install also compiles the C search kernel (setup.py; optional: without a
# compiler the numba kernel is used), so a change to its source reinstalls.
$(VENV)/.installed: pyproject.toml setup.py ubongo_cp/solvers/_dance.c
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q -e '.[test]'
	touch $@

install: $(VENV)/.installed

run: install
	$(CLI) batch puzzles/decks/classic --out $(OUT)/classic
	$(CLI) booklet puzzles/decks/classic --results $(OUT)/classic --out $(OUT)/classic/booklet.pdf --png $(OUT)/classic/pages

test: install
	$(PY) -m pytest -q -p no:cacheprovider

bench: install
	$(PY) -m benchmarks.run --quick

clean:
	rm -rf $(VENV) $(OUT) build *.egg-info ubongo_cp/solvers/_dance*.so
