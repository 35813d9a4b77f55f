# Two commands do everything on a fresh machine: `make run` and `make test`.
PY ?= python3
VENV ?= .venv
PYTHON := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
DEMO ?= .demo

.PHONY: setup run demo test test-fast test-under-load lint cli-reference bench clean package package-test

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(PYTHON) -m pip install --quiet --upgrade pip
	$(PYTHON) -m pip install --quiet -e '.[test]'
	$(PYTHON) -m compileall -q triage_app > /dev/null
	$(PYTHON) -m triage_app.core.catalogues > /dev/null
	touch $(STAMP)

setup: $(STAMP)

# Opens the window on the demo workspace (the seed's 10-row batch).
run: $(STAMP)
	$(PYTHON) -m compileall -q triage_app > /dev/null
	$(VENV)/bin/triage-app --workspace $(DEMO) demo
	$(VENV)/bin/triage-app --workspace $(DEMO) gui

demo: $(STAMP)
	$(VENV)/bin/triage-app --workspace $(DEMO) demo

# The whole suite, GUI tests offscreen; PostgreSQL tests use 127.0.0.1:5432 (database test).
test: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PYTHON) -m pytest

# The inner loop: the suite without the tests marked slow (over 5 s each: real processes
# racing, kill points, packaging) or needing a server (postgres, mariadb). `make test`
# stays the whole suite.
test-fast: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PYTHON) -m pytest -m "not slow and not postgres and not mariadb"

# The GUI suite RUNS times in a row with both cores kept busy by two spinning processes, each
# ended by timeout after LOAD_SECONDS at most (and killed here when the runs are done): the
# load under which the window once crashed natively (issue 20). One line per run.
RUNS ?= 3
LOAD_SECONDS ?= 3600
test-under-load: $(STAMP)
	@timeout $(LOAD_SECONDS) yes > /dev/null & one=$$!; \
	timeout $(LOAD_SECONDS) yes > /dev/null & two=$$!; \
	trap 'kill $$one $$two 2>/dev/null' EXIT; \
	rc=0; \
	for i in $$(seq 1 $(RUNS)); do \
	  start=$$(date +%s); \
	  QT_QPA_PLATFORM=offscreen $(PYTHON) -m pytest tests/gui -q -p no:cacheprovider; r=$$?; \
	  echo "under load: run $$i of $(RUNS) exit $$r after $$(( $$(date +%s) - start )) s"; \
	  [ $$r -eq 0 ] || rc=$$r; \
	done; \
	exit $$rc

lint: $(STAMP)
	$(VENV)/bin/ruff check triage_app tests benchmarks scripts
	$(VENV)/bin/ruff format --check triage_app tests benchmarks scripts

# docs/cli.md from the parser (tests/cli/test_cli_reference.py fails when it is stale).
cli-reference: $(STAMP)
	$(PYTHON) scripts/cli_reference.py

bench: $(STAMP)
	$(PYTHON) benchmarks/bench_run.py

# The installer for this OS (PyInstaller one-folder build; on Linux a .deb and a .tar.gz in
# build/), then the .deb installed into a scratch root and its frozen app exercised.
package: $(STAMP)
	$(PYTHON) -m pip install --quiet "pyinstaller>=6.10,<7"
	$(PYTHON) packaging/build.py

# Then the budgets: the folder and .deb sizes, launch to a painted window under Xvfb.
package-test: package
	$(PYTHON) packaging/package_test.py
	$(PYTHON) packaging/budgets.py

clean:
	rm -rf $(VENV) $(DEMO) .pytest_cache build
