# Two commands a newcomer needs: `make serve` and `make test`. Both bootstrap .venv first.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PORT   ?= 3306
DATADIR ?= ./data

.PHONY: serve test lint bench mtr mtr-report fuzz stress clean compile clean-compiled

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
	$(BIN)/python scripts/compile_mypyc.py --check

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

# The compiled hot path (src/rampmeter/compiled.py lists the modules and the rules their source
# keeps). `make compile` builds them with mypyc from the same source, as extension modules
# beside their .py files (needs a C compiler and Python's headers; about 50 s of CPU); the server
# then runs them (its log says "Hot path: 16 of 16 hot-path modules compiled") and so do tests
# run from this checkout. `make clean-compiled` goes back to pure Python. It is a step of its own,
# not part of .venv/.installed: the source as written is the reference, CI tests it in full,
# and a compiled module shadows later edits of its .py until rebuilt (the server warns then).
compile: $(STAMP)
	$(BIN)/python scripts/compile_mypyc.py

clean-compiled: $(STAMP)
	$(BIN)/python scripts/compile_mypyc.py --clean

clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache
	find src -name '*.so' -delete
