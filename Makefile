# Two set-up commands do everything on a fresh clone: `make demo` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
EXTRAS_TEST := dev,openspiel,pettingzoo,gymnasium

.PHONY: demo test lint typecheck pytest bench soak clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed-core: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[$(EXTRAS_TEST)]"
	touch $@ $(VENV)/.installed-core

## demo: bots play seeded games of every title and print them
demo: $(VENV)/.installed-core
	$(BIN)/tabletop demo

## test: ruff, mypy --strict, pytest (installs the test extras)
test: $(VENV)/.installed-test
	$(BIN)/ruff check src tests examples benchmarks
	$(BIN)/ruff format --check src tests examples benchmarks
	$(BIN)/mypy --strict src tests
	$(BIN)/python -m pytest -n 2

## bench: speed benchmarks (not part of make test)
bench: $(VENV)/.installed-test
	$(BIN)/python -m benchmarks.run --json bench.json

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
