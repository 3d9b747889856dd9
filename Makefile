# vncards developer loop. `make help` lists the targets.
.DEFAULT_GOAL := help
PYTHON ?= python3

.PHONY: help
help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-12s %s\n", $$1, $$2}'

.PHONY: install
install: ## pip install the package (release build of the Rust core) with every extra
	$(PYTHON) -m pip install '.[all]'

.PHONY: build-dev
build-dev: ## editable dev build into the active virtualenv (maturin develop)
	maturin develop --extras dev

.PHONY: build-release
build-release: ## editable release build, for benchmarks
	maturin develop --release --extras dev

.PHONY: test
test: ## Rust tests, the Python suite (fast hypothesis profile, docs examples), the docs build
	@$(PYTHON) scripts/needs.py test test pytest hypothesis
	@$(PYTHON) scripts/needs.py test docs sphinx furo myst_parser
	cargo test --quiet
	$(PYTHON) -m pytest -q
	$(MAKE) --no-print-directory docs

.PHONY: docs
docs: ## the HTML documentation in docs/_build/html (Sphinx; every warning is an error)
	@$(PYTHON) scripts/needs.py docs docs sphinx furo myst_parser
	$(PYTHON) -m sphinx -W --keep-going -q -b html docs docs/_build/html

.PHONY: docs-doctest
docs-doctest: ## only the examples of the docs pages and README.md
	@$(PYTHON) scripts/needs.py docs-doctest test pytest
	$(PYTHON) -m pytest -q tests/test_docs.py

.PHONY: test-slow
test-slow: ## the thorough run: slow hypothesis profile and long simulations
	@$(PYTHON) scripts/needs.py test-slow test pytest hypothesis
	VNCARDS_PROFILE=slow $(PYTHON) -m pytest -q -m "slow or not slow"

.PHONY: fuzz
fuzz: ## long fuzzing: proptest properties (20,000 cases each) and the hypothesis fuzz/leak suites (slow profile)
	PROPTEST_CASES=20000 cargo test --quiet fuzz
	VNCARDS_PROFILE=slow $(PYTHON) -m pytest -q tests/test_fuzz.py tests/test_hardening.py tests/test_side_channels.py

.PHONY: lint
lint: ## rustfmt, clippy, ruff, mypy --strict (package, tests, benches, scripts, examples) and stubtest
	cargo fmt --check
	cargo clippy --all-targets -- -D warnings
	cargo clippy --features python -- -D warnings
	$(PYTHON) -m ruff check python tests benches scripts examples
	$(PYTHON) -m ruff format --check python tests benches scripts examples
	$(PYTHON) -m mypy --strict python/vncards tests benches scripts examples
	$(PYTHON) -m mypy.stubtest vncards._core --allowlist stubtest-allowlist.txt

.PHONY: bench
bench: ## benchmarks (release build): Rust core, Python figures, peers table -> docs/benchmarks.md
	for p in treys phevaluator eval7 rlcard; do $(PYTHON) -m pip install --quiet $$p || echo "peer $$p did not install"; done
	maturin develop --release --quiet
	cargo bench --quiet
	for f in benches/*_bench.py; do $(PYTHON) $$f; done
	$(PYTHON) benches/peers.py --markdown docs/benchmarks.md

# ---- release artifacts (issue: install without a compiler) --------------------------------------
# The wheel: one abi3 wheel (CPython >= 3.10) for Linux x86_64, manylinux2014, linked with zig
# (the ziglang package) instead of a manylinux Docker image. The tools (maturin, ziglang,
# auditwheel, abi3audit, and the workflow linters) are the `release` extra, part of `all`.
CHECK_PYTHONS ?= 3.10 3.11 3.12 3.13
CHECK_EXTRAS ?= test,server,pettingzoo,openspiel,ray,rllib,ratings
CHECK_JOBS ?= 1

.PHONY: wheel
wheel: ## build the manylinux2014 abi3 wheel into dist/ (zig, no Docker), then auditwheel and abi3audit
	rm -f dist/vncards-*.whl
	maturin build --release --zig --compatibility manylinux2014 --out dist
	$(MAKE) --no-print-directory audit-wheel

# Profile-guided optimisation (scripts/pgo.py): the benches, built with -Cprofile-generate, are
# the training run; the wheel is built with -Cprofile-use. It needs an llvm-profdata of rustc's
# LLVM major version (`rustc -vV`): `rustup component add llvm-tools`, Debian's llvm-NN, or
# LLVM_PROFDATA=...; `python scripts/pgo.py find` says which it uses, or which it saw.
# `python scripts/pgo.py compare` measures each bench built both ways.
PGO_DIR ?= target/pgo

.PHONY: wheel-pgo
wheel-pgo: ## the wheel of `make wheel`, profile-guided (trained on the Rust benches; needs llvm-profdata)
	$(PYTHON) scripts/pgo.py profile --dir $(PGO_DIR)
	rm -f dist/vncards-*.whl
	RUSTFLAGS="$$($(PYTHON) scripts/pgo.py flags --dir $(PGO_DIR))" \
		maturin build --release --zig --compatibility manylinux2014 --out dist
	$(MAKE) --no-print-directory audit-wheel

.PHONY: audit-wheel
audit-wheel: ## auditwheel show and abi3audit --strict on the wheel in dist/
	$(PYTHON) -m auditwheel show dist/vncards-*.whl
	@# manylinux_2_17 (manylinux2014), and no library outside the manylinux policy's system set
	$(PYTHON) -m auditwheel show dist/vncards-*.whl | grep -q '"manylinux_2_17_x86_64"'
	! $(PYTHON) -m auditwheel show dist/vncards-*.whl | grep -q 'external shared libraries are required'
	$(PYTHON) -m abi3audit --strict --verbose dist/vncards-*.whl
	@ls -l dist/vncards-*.whl | awk '{printf "wheel size: %.2f MB (%d bytes)\n", $$5 / 1e6, $$5}'

.PHONY: check-wheel
check-wheel: ## install dist/'s wheel in fresh venvs of CPython 3.10-3.13, no Rust on PATH; run the tests there
	$(PYTHON) scripts/check_wheel.py --jobs $(CHECK_JOBS) --extras $(CHECK_EXTRAS) $(foreach v,$(CHECK_PYTHONS),--python $(v))

.PHONY: sdist
sdist: ## build the sdist with every crate vendored (builds offline) into dist/
	rm -f dist/vncards-*.tar.gz
	$(PYTHON) scripts/build_sdist.py --out dist

.PHONY: check-sdist
check-sdist: ## install dist/'s sdist with CARGO_NET_OFFLINE=true in a fresh venv and play games from it
	$(PYTHON) scripts/check_sdist.py
