# Two commands a newcomer needs: `make serve` and `make test`. Both bootstrap .venv first.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PORT   ?= 3306
DATADIR ?= ./data

.PHONY: serve test lint bench mtr mtr-report fuzz stress clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

serve: $(STAMP)
	$(BIN)/rampmeter serve --bind-address=127.0.0.1 --port=$(PORT) --datadir=$(DATADIR)

test: $(STAMP)
	$(BIN)/python -m pytest -q $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check src tests

bench: $(STAMP)
	$(BIN)/rampmeter bench --preset docs

# MariaDB's own regression suite (main) against MariaDB and rampmeter: docs/compat.md.
# A subset: make mtr MTR_ARGS="--server rampmeter func_if select"
mtr: $(STAMP)
	$(BIN)/python -m tests.mtr run $(MTR_ARGS)

mtr-report: $(STAMP)
	$(BIN)/python -m tests.mtr report --docs

# The long runs behind docs/reliability.md (CI runs short slices of each in `make test`).
PACKETS ?= 100000
fuzz: $(STAMP)
	$(BIN)/python -m tests.stress.fuzz --packets $(PACKETS)

stress: $(STAMP)
	$(BIN)/python -m tests.stress.run --json stress-figures.json

clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache
