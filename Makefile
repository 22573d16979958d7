# Two set-up commands do everything on a fresh clone: `make demo` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
EXTRAS_TEST := dev,cli,openspiel,pettingzoo,gymnasium,docs,sim,plot,ray,server,design

.PHONY: dist load demo test test-asan test-pure docs lint typecheck pytest bench odds-bench bench-sim strength strength-second strength-full soak clean playthroughs analysis-docs balance fuzz

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The C accelerator (setup.py, src/tabletop_core/_speedups.c) is built by the editable install: rebuild when it changes.
BUILD_INPUTS := pyproject.toml setup.py src/tabletop_core/_speedups.c

$(VENV)/.installed-core: $(BUILD_INPUTS) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[cli]"
	touch $@

$(VENV)/.installed-test: $(BUILD_INPUTS) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[$(EXTRAS_TEST)]"
	@# tests/browser drive Debian's chromium: installed here when missing and we may (root with apt-get)
	@command -v chromium >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) || \
	  echo "no chromium: tests/browser will skip (install Debian's chromium, or set CHROMIUM=PATH)"; }
	touch $@ $(VENV)/.installed-core $(VENV)/.installed-docs

$(VENV)/.installed-docs: $(BUILD_INPUTS) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[cli,docs]"
	touch $@ $(VENV)/.installed-core

## demo: bots play seeded games of every title and print them
demo: $(VENV)/.installed-core
	$(BIN)/tabletop demo

## test: ruff, mypy --strict, the documentation site (--strict), pytest (installs the test extras; one line per
## test file as its last test finishes), then the driver's tests and every game's conformance tests again on the
## pure-Python path (C accelerator turned off)
PURE_SUBSET := tests/core/test_flow.py tests/unrest/test_conformance.py tests/unbroken/test_conformance.py \
	tests/runebound_coop/test_conformance.py
test: $(VENV)/.installed-test
	$(BIN)/ruff check src tests examples benchmarks docs/_ext
	$(BIN)/ruff format --check src tests examples benchmarks docs/_ext
	$(BIN)/mypy --strict src tests docs/_ext
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet --site-dir site
	$(BIN)/python -m pytest -n 2 -p tests.file_summary
	TABLETOP_PURE_PYTHON=1 $(BIN)/python -m pytest -n 2 -q $(PURE_SUBSET)

## dist: the sdist and a wheel into dist/ (and a wheel built without a C compiler into build/dist-pure/), each
## wheel installed into a fresh virtual environment and run from an empty folder: demo, check of every game, and
## whether the C accelerator is in use
dist: $(VENV)/.installed-test
	rm -rf dist build/dist-pure
	$(BIN)/python -m build --outdir dist .
	CC=false $(BIN)/python -m build --wheel --outdir build/dist-pure .
	$(BIN)/python -m tests.wheel_check dist/*.whl build/dist-pure/*.whl

## docs: the documentation site, built with --strict (a broken link or API reference fails) into site/
docs: $(VENV)/.installed-docs
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

## test-pure: the whole pytest suite with the C accelerator turned off (the pure-Python path a machine without a
## C compiler runs; make test runs a part of it: the driver and the conformance tests of every game)
test-pure: $(VENV)/.installed-test
	TABLETOP_PURE_PYTHON=1 $(BIN)/python -m pytest -n 2 -p tests.file_summary

## test-asan: the C accelerator built with AddressSanitizer and UBSan (into build/asan, a copy of src/) runs its
## own tests, the thread and hostile-object crash tests and every game's conformance tests; run it before C lands
ASAN_DIR := build/asan
ASAN_TESTS := tests/core/test_speedups.py tests/core/test_accelerator_crashes.py tests/core/test_fastcopy.py \
	tests/unrest/test_conformance.py tests/unbroken/test_conformance.py tests/runebound_coop/test_conformance.py
test-asan: $(VENV)/.installed-test
	rm -rf $(ASAN_DIR) && mkdir -p $(ASAN_DIR) && cp -r src $(ASAN_DIR)/src
	rm -f $(ASAN_DIR)/src/tabletop_core/_speedups*.so
	gcc -shared -fPIC -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined \
		-Wall -Werror -DSOURCE_DIGEST="\"$$(sha256sum src/tabletop_core/_speedups.c | cut -d' ' -f1)\"" \
		-I"$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_paths()["include"])')" \
		src/tabletop_core/_speedups.c \
		-o $(ASAN_DIR)/src/tabletop_core/_speedups$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
	PYTHONPATH=$(ASAN_DIR)/src LD_PRELOAD="$$(gcc -print-file-name=libasan.so)" \
		ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		TABLETOP_EXPECT_ASAN=1 $(BIN)/python -m pytest -p no:cacheprovider -q -o addopts="" $(ASAN_TESTS)

## fuzz: the fuzz suite of tests/fuzz for minutes (40 times the examples of make test, longer playouts)
fuzz: $(VENV)/.installed-test
	TABLETOP_FUZZ=long CONTENT_MUTANTS=50 $(BIN)/python -m pytest -n 2 -q tests/fuzz \
		tests/unbroken/test_content_mutations.py tests/runebound_coop/test_content_mutations.py \
		tests/unrest/test_content_mutations.py

## playthroughs: regenerate the OpenSpiel playthroughs the tests compare against (after a rule changes on purpose)
playthroughs: $(VENV)/.installed-test
	$(BIN)/python -m tests.adapters.playthroughs.record

## bench: speed benchmarks (not part of make test): every game beside OpenSpiel's Kuhn poker, each compiled part of
## the C accelerator against its pure twin (a part under 1.25x is named), simulation throughput
bench: $(VENV)/.installed-test
	$(BIN)/python -m benchmarks.run --json bench.json
	$(BIN)/python -m benchmarks.accelerator --json bench-accelerator.json
	$(BIN)/python -m benchmarks.simulation

## odds-bench: CPU seconds of runebound_coop.odds for Elian vs the Sorcerer over 10 rounds, with its answer's bits
odds-bench: $(VENV)/.installed-test
	$(BIN)/python -m benchmarks.odds

## soak: 1,000,000 random steps per game under the conformance checks; prints steps and failures (most of an hour)
soak: $(VENV)/.installed-test
	nice -n 10 $(BIN)/python -m benchmarks.soak

## load: 50 concurrent bot-vs-bot matches through the server's protocol on loopback for a minute on SQLite, then a
## minute on a throwaway PostgreSQL where installed (moves/s, p50/p99); one only: make load LOAD_DATABASE=sqlite
load: $(VENV)/.installed-test
	$(BIN)/python -m tests.server.load

## bench-sim: games/s on 1 and 2 local workers and on Ray (run it when the machine is otherwise idle)
bench-sim: $(VENV)/.installed-test
	$(BIN)/python -m benchmarks.simulation

## strength: the search bots' strength table at a short budget (about 10 minutes of CPU; see docs/simulation.md)
strength: $(VENV)/.installed-test
	$(BIN)/python -m benchmarks.strength --budget short --out strength-results

## strength-second: the strength table at "1 s per move" as fixed iteration counts (hours of CPU; STRENGTH_ARGS="--games N")
strength-second: $(VENV)/.installed-test
	$(BIN)/python -m benchmarks.strength --budget second --out strength-results-second $(STRENGTH_ARGS)

## strength-full: the strength table at 1 s per move and 400 games per seat (many hours: run it on a cluster)
strength-full: $(VENV)/.installed-test
	$(BIN)/python -m benchmarks.strength --budget full --out strength-results-full $(STRENGTH_ARGS)

## analysis-docs: regenerate the three games' analysis reports in docs/analysis/ at the defaults (minutes each on two idle cores)
analysis-docs: $(VENV)/.installed-test
	$(BIN)/tabletop analyze unbroken --option difficulty=easy --option character=hunter --workers 2 --no-traces \
		--force --reading docs/analysis/unbroken/reading.md --out docs/analysis/unbroken
	$(BIN)/tabletop analyze runebound_coop --workers 2 --no-traces \
		--force --reading docs/analysis/runebound_coop/reading.md --out docs/analysis/runebound_coop
	$(BIN)/tabletop analyze unrest --workers 2 --no-traces \
		--force --reading docs/analysis/unrest/reading.md --out docs/analysis/unrest

## balance: Unbroken's balance certificate into docs/balance/: `tabletop certify` of the default pack against
## src/unbroken/content/targets.toml on the held-out deals BALANCE_SEEDS (the report refuses them if they overlap
## the deals of the tuning record docs/balance/unbroken-tune.json), then the report: the tuning, the certificate, and
## the first 1,000 of those deals per character and difficulty described card by card (tens of minutes on two cores)
BALANCE_SEEDS ?= 1000000:1006000
balance: $(VENV)/.installed-test
	-$(BIN)/tabletop certify unbroken --targets src/unbroken/content/targets.toml --seeds $(BALANCE_SEEDS) \
		--workers 2 --json docs/balance/unbroken-certificate.json --force
	$(BIN)/python -m benchmarks.balance --certificate docs/balance/unbroken-certificate.json \
		--tuning docs/balance/unbroken-tune.json --games 1000 --workers 2 --out docs/balance $(BALANCE_ARGS)

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache site build dist
