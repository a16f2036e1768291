# The two commands people need are `make demo` and `make test`; each bootstraps .venv itself.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Two stamps: running the product needs only the runtime packages (a faster first `make demo`),
# the tests and tools need the [dev] extra as well.
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: demo test lint bench serve clean

$(RUN_STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $(RUN_STAMP)

$(DEV_STAMP): $(RUN_STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(DEV_STAMP)

# `make demo GAME=arcanum` plays Arcanum instead of the default game.
demo: $(RUN_STAMP)
	$(BIN)/scorekeeper demo $(if $(GAME),--game $(GAME)) $(DEMO_ARGS)

serve: $(RUN_STAMP)
	$(BIN)/scorekeeper serve

test: $(DEV_STAMP) lint
	$(BIN)/python -m pytest -q -p no:cacheprovider $(PYTEST_ARGS)

lint: $(DEV_STAMP)
	$(BIN)/ruff check scorekeeper firmware_bridge tests bench
	$(BIN)/mypy scorekeeper firmware_bridge bench

bench: $(DEV_STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) var .pytest_cache
