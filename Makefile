# Admiralty: `make run` starts the bot, `make test` runs the tests, `make check` the quick ones, `make demo`
# plays an AI game offline.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
GAME   ?= enemy-lines
PLAYERS ?=
SEED   ?= 1
OUT    ?= demo
OPTIONS ?=
# pytest-xdist workers (0: one process): 4 by default for both targets (on two cores: their tests wait on
# sockets, timers and leases as much as they compute; `make check` took 70 s with one worker per core
# and 52 s with 4). ARGS go to every pytest pass.
WORKERS ?=
ARGS   ?=

.PHONY: run test check demo chaos bench lint clean messages transcripts

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

run: $(VENV)/.installed
	$(PY) -m bot run

# Lint, format, types, then the tests: the storage and host tests run on SQLite and PostgreSQL in the
# first pass (tests/conftest.py); the second runs again, with the bot on PostgreSQL, the end-to-end tests
# whose storage paths differ by backend (E2E_ON_POSTGRES in tests/conftest.py; skipped when there is none). Every step runs even when one fails; the end says how each went
# (tests/gate.py).
test: $(VENV)/.installed
	$(PY) tests/gate.py test --workers $(or $(WORKERS),4) -- $(ARGS)

# The edit loop: lint, format, types, and the tests without the end-to-end ones, without PostgreSQL and
# without the heavy loops (marker `heavy`).
check: $(VENV)/.installed
	$(PY) tests/gate.py check --workers $(or $(WORKERS),4) -- $(ARGS)

# The long loops: 50 kill/restart cycles, 10 kills of one of three processes, whole games through the loopback Discord.
chaos: $(VENV)/.installed
	ADMIRALTY_CHAOS_RUNS=50 ADMIRALTY_KILL3_RUNS=10 $(PY) -m pytest -m slow

demo: $(VENV)/.installed
	$(PY) -m bot demo $(GAME) --seed $(SEED) --out $(OUT) $(if $(PLAYERS),--players $(PLAYERS),) \
		$(foreach o,$(OPTIONS),--option $(o))

bench: $(VENV)/.installed
	for f in bench/bench_*.py; do echo "== $$f"; $(PY) $$f || exit 1; done

# The catalogues (bot/i18n.py): the texts marked in the code, extracted into data/locale/admiralty.pot,
# then merged into every language's admiralty.po (new messages empty, gone ones dropped). A new language:
# `$(VENV)/bin/pybabel init -D admiralty -i data/locale/admiralty.pot -d data/locale -l <code>`.
BABEL_KEYWORDS := -k n_:1,2 -k translate:2 -k ntranslate:2,3
messages: $(VENV)/.installed
	$(VENV)/bin/pybabel extract -F babel.cfg $(BABEL_KEYWORDS) --no-location --no-wrap --sort-output \
		--project Admiralty --copyright-holder "Admiralty contributors" -o data/locale/admiralty.pot .
	sed -i '/^"POT-Creation-Date: /d' data/locale/admiralty.pot  # no diff for a run that changes nothing
	$(VENV)/bin/pybabel update -D admiralty -i data/locale/admiralty.pot -d data/locale \
		--no-fuzzy-matching --ignore-obsolete --no-wrap --ignore-pot-creation-date

# One game of each kind played through the loopback Discord in Polish and in Italian (members and server
# in that language), recorded for review in docs/transcripts/<lang>-<game>.md (tests/e2e/transcripts.py).
transcripts: $(VENV)/.installed
	$(PY) -m tests.e2e.transcripts --out docs/transcripts

lint: $(VENV)/.installed
	$(PY) -m ruff check .
	$(PY) -m mypy bot cogs rendering

clean:
	rm -rf $(VENV) demo .pytest_cache
