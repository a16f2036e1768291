# The two commands people need are `make demo` and `make test`; each bootstraps .venv itself.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench serve clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/scorekeeper demo $(DEMO_ARGS)

serve: $(STAMP)
	$(BIN)/scorekeeper serve

test: $(STAMP) lint
	$(BIN)/python -m pytest -q -p no:cacheprovider $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check scorekeeper firmware_bridge tests bench
	$(BIN)/mypy scorekeeper firmware_bridge bench

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) var .pytest_cache
