# Two commands set everything up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
TOOLS := $(VENV)/.tools
STAMP := $(VENV)/.installed
SOURCES := $(wildcard solver/*/*.pyx solver/*/*.pxd) solver/game/bounds.py
# `make test` starts dozens of Python processes (the workers, the servers, the CLI's runs); they
# share one bytecode cache (__pycache__, ignored by git) even where the environment turns it off.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test build browser postgresql lint bench bench-long test-long clean

# The .venv and what compiling needs.
$(TOOLS): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet "cython>=3.0" "setuptools>=68" wheel
	touch $(TOOLS)

# The dependencies and the project, editable. Its extensions are compiled once, by solver/.built, in
# place (TAN_NO_EXTENSIONS keeps pip from compiling them again in a throwaway folder).
$(STAMP): $(TOOLS)
	TAN_NO_EXTENSIONS=1 $(PY) -m pip install --quiet --no-build-isolation -e '.[dev]'
	touch $(STAMP)

# pip (one core) and the compiler (both cores) run side by side: neither needs the other.
build: $(TOOLS)
	@$(MAKE) --no-print-directory -j2 $(STAMP) solver/.built

# Built for this machine (-march=native); a wheel built without TAN_NATIVE is portable. Only what
# changed is compiled again: Cython follows the .pyx and .pxd files, and setup.py makes every module
# depend on bounds.py (its C constants) and on setup.py itself (the flags).
solver/.built: $(TOOLS) $(SOURCES) setup.py
	TAN_NATIVE=1 $(PY) setup.py -q build_ext --inplace
	touch solver/.built

run: build
	$(VENV)/bin/tan serve --host 127.0.0.1 --port 8000

# The web page's tests drive Debian's chromium through Playwright (no browser download), and its
# pure helpers run under node's test runner; the C reference loop's tests compile with gcc; the
# read-only disk test serves its folder through a private mount namespace (util-linux's unshare,
# mount). Under CI a missing part is an error, not a skip.
browser:
	@command -v chromium >/dev/null 2>&1 && command -v gcc >/dev/null 2>&1 && command -v node >/dev/null 2>&1 \
		&& command -v unshare >/dev/null 2>&1 && command -v mount >/dev/null 2>&1 || (apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core gcc nodejs \
		util-linux mount) || \
		{ echo "chromium, gcc, node or unshare could not be installed: their tests will be skipped"; test -z "$$CI"; }

# The store's tests run on SQLite and on a throwaway cluster of Debian's PostgreSQL server
# (tests/support/postgres.py). Under CI a missing server is an error, not a skip.
postgresql:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || (apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql) || \
		{ echo "postgresql could not be installed: the PostgreSQL tests will be skipped"; test -z "$$CI"; }

# A file's tests run on one worker (--dist loadfile): a page test file starts its server and
# chromium once, not once a worker.
test: build browser postgresql
	$(PY) -m pytest -n 2 --dist loadfile -q

# Every sweep whole (its sample included) and the long runs; with `make test`, every test there is.
test-long: build browser postgresql
	$(PY) -m pytest -n 2 --dist loadfile -q -m 'long or sampled'

# Every compiled module (solver/*/*.pyx) against its .pyi stub, by mypy's stubtest.
COMPILED := $(subst /,.,$(patsubst %.pyx,%,$(wildcard solver/*/*.pyx)))

lint: build
	$(VENV)/bin/ruff check solver service tests benchmarks
	$(VENV)/bin/mypy
	$(PY) -m mypy.stubtest --allowlist stubtest-allowlist.txt $(COMPILED)

# Short runs of every benchmark (a few minutes on 2 cores). They write *-short.json and
# *-short.png beside the committed full results, never over them.
bench: build
	$(PY) -m benchmarks.speed --short
	$(PY) -m benchmarks.search --short
	$(PY) -m benchmarks.overshoot --short
	$(PY) -m benchmarks.strength --short --workers 2
	$(PY) -m benchmarks.load --clients 1,2,8 --requests 40 --duration 20 --iterations 2000 \
		--latency-requests 10 --output benchmarks/results/load-short.json
	$(PY) -m benchmarks.load --clients 1 --requests 10 --iterations 10000 \
		--latency-requests 10 --output benchmarks/results/load-10000-short.json
	$(PY) -m benchmarks.plots --short

clean:
	rm -rf build solver/*/*.c solver/*/*.so solver/.built
