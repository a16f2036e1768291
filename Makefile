# The two commands people need are `make demo` and `make test`; each bootstraps .venv itself.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Two stamps: running the product needs only the runtime packages (a faster first `make demo`),
# the tests and tools need the [dev] extra as well.
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: demo test lint bench serve clean system-packages

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

# `make demo GAME=arcanum` plays Arcanum instead of the default game.
demo: $(RUN_STAMP)
	$(BIN)/scorekeeper demo $(if $(GAME),--game $(GAME)) $(DEMO_ARGS)

serve: $(RUN_STAMP)
	$(BIN)/scorekeeper serve

# Two pytest runs on both cores (pytest-xdist): everything but the browser, then the browser
# tests, whose Playwright event loop must not share a process with tests that call asyncio.run.
PYTEST := $(BIN)/python -m pytest -q -p no:cacheprovider -n $(or $(TEST_WORKERS),2)
# PYTEST_ARGS (a path, -k ...) runs that selection alone, in one run.
test: $(DEV_STAMP) system-packages $(AXE_STAMP) lint
ifeq ($(strip $(PYTEST_ARGS)),)
	$(PYTEST) --ignore=tests/browser
	$(PYTEST) tests/browser
else
	$(PYTEST) $(PYTEST_ARGS)
endif

lint: $(DEV_STAMP)
	$(BIN)/ruff check scorekeeper firmware_bridge tests bench
	$(BIN)/mypy scorekeeper firmware_bridge bench

bench: $(DEV_STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) var .pytest_cache
