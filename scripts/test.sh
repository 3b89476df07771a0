#!/usr/bin/env bash
# The whole test suite: what the README's set-up and CI (.ci/run) run.
# Installs what the tests need, then runs every Rust test in the workspace (unit, integration,
# doc, property tests, and the gateway's end-to-end tests, which drive it with the official
# `openai` Python SDK), then builds the Python package and runs its pytest suite. Run from anywhere; works on a fresh clone without ../shared.
set -euo pipefail
cd "$(dirname "$0")/.."

python=${PYTHON:-python3}

# The gateway's tests talk to it through the official OpenAI SDK.
if ! "$python" -c 'import openai' 2>/dev/null; then
    echo "test.sh: installing the openai Python SDK"
    "$python" -m pip install --quiet --disable-pip-version-check openai \
        || "$python" -m pip install --quiet --disable-pip-version-check --break-system-packages openai
fi

# The gateway's Python SDK test (python/test_openai_sdk.py) is driven by a Rust test that
# starts the gateway, so `cargo test` runs it too; with CI set it fails rather than skip
# when `openai` cannot be imported.
cargo test --workspace

# The Python package (crates/jsonheal-py): built with maturin in its own virtual environment
# and tested with pytest. A debug build: it reuses what `cargo test` just compiled, and the
# suite needs correctness, not speed (crates/jsonheal-py/bench/bench.py measures a release
# build).
venv=target/py-venv
if [ ! -x "$venv/bin/python" ]; then
    echo "test.sh: creating $venv"
    "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check maturin pytest
rm -rf target/py-wheels
VIRTUAL_ENV="$PWD/$venv" "$venv/bin/maturin" build --quiet \
    --manifest-path crates/jsonheal-py/Cargo.toml --interpreter "$venv/bin/python" \
    --out target/py-wheels
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps \
    --force-reinstall target/py-wheels/jsonheal-*.whl
"$venv/bin/python" -m pytest -p no:cacheprovider -q crates/jsonheal-py/tests
