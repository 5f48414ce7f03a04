# Two set-up commands: `make run` and `make test`. Both create .venv and install what they need.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test bench clean balance

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $@ $(VENV)/.installed

run: $(VENV)/.installed
	$(BIN)/python -m bot

# -rs: every skipped test says why (e.g. no PostgreSQL at TEST_DATABASE_URL).
test: $(VENV)/.installed-test
	$(BIN)/python -m pytest -rs $(PYTEST_ARGS)

# Writes bench/results.local.json (ignored by git); `make bench BENCH_ARGS=--save` writes the
# tracked bench/results.json.
bench: $(VENV)/.installed-test
	$(BIN)/python -m bench $(BENCH_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache

# Balance and strength measured by the practice opponents (docs/balance.md); minutes, 2 cores.
balance: $(VENV)/.installed-test
	$(BIN)/python -m bench.balance $(BALANCE_ARGS)
