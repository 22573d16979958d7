# Two set-up commands do everything on a fresh clone: `make demo` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
EXTRAS_TEST := dev,openspiel,pettingzoo,gymnasium,sim,plot,ray

.PHONY: demo test lint typecheck pytest bench bench-sim strength strength-full soak clean

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

## bench: speed benchmarks (not part of make test), simulation throughput included
bench: $(VENV)/.installed-test
	$(BIN)/python -m benchmarks.run
	$(BIN)/python -m benchmarks.simulation

## bench-sim: games/s on 1 and 2 local workers and on Ray (run it when the machine is otherwise idle)
bench-sim: $(VENV)/.installed-test
	$(BIN)/python -m benchmarks.simulation

## strength: the search bots' strength table at a short budget (about 10 minutes of CPU; see docs/simulation.md)
strength: $(VENV)/.installed-test
	$(BIN)/python -m benchmarks.strength --budget short --out strength-results

## strength-full: the strength table at 1 s per move and 400 games per seat (many hours: run it on a cluster)
strength-full: $(VENV)/.installed-test
	$(BIN)/python -m benchmarks.strength --budget full --out strength-results-full $(STRENGTH_ARGS)

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
