# The two commands people need are `make demo` and `make test`; each bootstraps .venv itself.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Two stamps: running the product needs only the runtime packages (a faster first `make demo`),
# the tests and tools need the [dev] extra as well.
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: demo event-demo test lint bench fuzz soak serve clean system-packages

$(RUN_STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $(RUN_STAMP)

$(DEV_STAMP): $(RUN_STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(DEV_STAMP)

# The Debian packages the tests need (chromium, shellcheck, systemd, npm): installed when make
# runs as root with apt-get, otherwise named with the one command to run, before any test.
system-packages:
	bash tools/system-packages.sh

# axe-core, the accessibility audit the browser tests run in every view, from the npm registry.
AXE_VERSION := 4.14.1
AXE_JS := $(VENV)/axe/node_modules/axe-core/axe.min.js
AXE_STAMP := $(VENV)/axe/.installed-$(AXE_VERSION)
$(AXE_STAMP): | system-packages
	mkdir -p $(VENV)/axe
	npm install --silent --no-save --no-audit --no-fund --prefix $(VENV)/axe \
		axe-core@$(AXE_VERSION)
	test -f $(AXE_JS)
	touch $(AXE_STAMP)

# MicroPython's WebAssembly port, from the npm registry: tests/firmware/test_micropython.py runs
# the bridge firmware's scan loop on it (node).
MPY_VERSION := 1.27.0
MPY_PKG := $(VENV)/mpy/node_modules/@micropython/micropython-webassembly-pyscript
MPY_STAMP := $(VENV)/mpy/.installed-$(MPY_VERSION)
$(MPY_STAMP): | system-packages
	mkdir -p $(VENV)/mpy
	npm install --silent --no-save --no-audit --no-fund --prefix $(VENV)/mpy \
		@micropython/micropython-webassembly-pyscript@$(MPY_VERSION)
	test -f $(MPY_PKG)/micropython.mjs
	touch $(MPY_STAMP)

# `make demo GAME=arcanum` plays Arcanum instead of the default game.
demo: $(RUN_STAMP)
	$(BIN)/scorekeeper demo $(if $(GAME),--game $(GAME)) $(DEMO_ARGS)

# A whole event by itself: private PostgreSQL and Mosquitto, a hub and 12 bot-played tables,
# three rounds with a broker restart and a hub kill, standings checked against the tables' logs.
# EVENT_DEMO_ARGS="--keep" keeps serving the projector at the end (scorekeeper event-demo -h).
event-demo: $(DEV_STAMP)
	bash tools/system-packages.sh event
	$(BIN)/scorekeeper event-demo $(EVENT_DEMO_ARGS)

serve: $(RUN_STAMP)
	$(BIN)/scorekeeper serve

# make test: ruff first (a second); then mypy side by side with all the tests but the browser's
# (most of those wait on subprocesses and servers more than they compute, so mypy's 10-25 s of
# CPU on a fresh clone fit in the cores' idle time), then the browser tests. Two pytest runs on
# both cores (pytest-xdist): the browser tests' Playwright event loop must not share a process
# with tests that call asyncio.run. make test fails when any part does (mypy and the first run
# both go to their end).
# --dist worksteal (not for the browser tests): a worker whose queue runs dry takes half of the
# other's, so the slow sweeps collected last (tests/test_*.py) no longer keep one core busy
# while the other idles. The browser tests keep xdist's plain distribution: it took as long as
# worksteal there (a test's timeout under worksteal was a race on the live page, fixed in
# 38bf6f4: a table chosen kept the last one's pair buttons until its first view came).
PYTEST := $(BIN)/python -m pytest -q -p no:cacheprovider -n $(or $(TEST_WORKERS),2)
# PYTEST_ARGS (a path, -k ...) runs that selection alone, in one run, after the whole lint.
test: $(DEV_STAMP) system-packages $(AXE_STAMP) $(MPY_STAMP)
ifeq ($(strip $(PYTEST_ARGS)),)
	$(RUFF_CHECKS)
	$(MAKE) --no-print-directory -j2 test-mypy test-others
	$(PYTEST) --dist load tests/browser
else
	$(MAKE) --no-print-directory lint
	$(PYTEST) $(PYTEST_ARGS)
endif

# The parts make test runs side by side (each assumes what make test set up first).
.PHONY: test-mypy test-others
test-mypy:
	$(MYPY_CHECK)
test-others:
	$(PYTEST) --dist worksteal --ignore=tests/browser

LINTED := scorekeeper firmware_bridge tests bench fuzz soak
RUFF_CHECKS := $(BIN)/ruff check $(LINTED) && $(BIN)/ruff format --check --quiet $(LINTED)
MYPY_CHECK := $(BIN)/mypy scorekeeper firmware_bridge bench fuzz soak
lint: $(DEV_STAMP)
	$(RUFF_CHECKS)
	$(MYPY_CHECK)

bench: $(DEV_STAMP)
	$(BIN)/python -m bench

# Coverage-guided fuzzing (atheris) of the frame codec, the serial backend's byte handling and
# the bridge's host commands: FUZZ_SECONDS per target, then fuzz/corpus/<target> is cut down to
# a smallest set of inputs with the same coverage (libFuzzer's -set_cover_merge=1), keeping what
# the run found; the seeds stay. Crashes and logs go to var/fuzz/<target>/. Not part of
# make test, which replays the corpus (tests/fuzz/test_corpus.py).
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= codec serial firmware
FUZZ_DIR := var/fuzz
FUZZ_OPTS := -max_len=2048 -timeout=10
fuzz: $(DEV_STAMP)
	$(BIN)/python -c 'import atheris' 2>/dev/null || $(BIN)/python -m pip install --quiet atheris
	set -e; for t in $(FUZZ_TARGETS); do \
		d=$(FUZZ_DIR)/$$t; rm -rf $$d; mkdir -p $$d/new $$d/merged; \
		echo "fuzzing $$t for $(FUZZ_SECONDS) s (log: $$d/fuzz.log)"; \
		$(BIN)/python -m fuzz $$t $(FUZZ_OPTS) -max_total_time=$(FUZZ_SECONDS) \
			-artifact_prefix=$$d/ $$d/new fuzz/corpus/$$t >$$d/fuzz.log 2>&1 \
			|| { tail -40 $$d/fuzz.log; exit 1; }; \
		grep -E '^Done|^#[0-9]+ +DONE' $$d/fuzz.log || true; \
		$(BIN)/python -m fuzz $$t $(FUZZ_OPTS) -set_cover_merge=1 $$d/merged fuzz/corpus/$$t $$d/new \
			>$$d/merge.log 2>&1 || { tail -20 $$d/merge.log; exit 1; }; \
		find fuzz/corpus/$$t -type f ! -name 'seed-*' -delete; \
		cp $$d/merged/* fuzz/corpus/$$t/; \
		echo "$$t: $$(ls fuzz/corpus/$$t | wc -l) corpus files"; \
	done

# The reliability campaign (docs/reliability.md): kills, power cuts, fuzzed frames, API cases,
# views checked for leaks, unplugs and memory, with bounded counts (5-10 minutes on 2 cores),
# printed as one table; exit status 1 when a row misses its budget. SOAK_SCALE=10 multiplies
# every count, SOAK_SEED changes the random choices; `make soak SOAK_ONLY="kills leaks"` runs
# only those rows. Not part of make test.
soak: $(DEV_STAMP) system-packages
	$(BIN)/python -m soak $(SOAK_ONLY)

clean:
	rm -rf $(VENV) var .pytest_cache
