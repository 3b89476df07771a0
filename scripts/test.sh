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

# The PostgreSQL store's tests (the store suite on both backends, two gateway replicas on one
# database) need a server: JSONHEAL_TEST_POSTGRES, by default the one on 127.0.0.1:5432
# (user postgres, trust authentication), started here if it is installed but stopped. Each
# test creates its own database and drops it. No server is a failure, not a skip.
export JSONHEAL_TEST_POSTGRES=${JSONHEAL_TEST_POSTGRES:-postgres://postgres@127.0.0.1:5432}
pg_up() { psql "$JSONHEAL_TEST_POSTGRES/postgres" -Atqc 'SELECT 1' >/dev/null 2>&1; }
if ! pg_up; then
    if command -v pg_ctlcluster >/dev/null && [ -d /etc/postgresql ]; then
        for version in $(ls /etc/postgresql); do
            echo "test.sh: starting the PostgreSQL $version cluster"
            pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
        done
        for _ in $(seq 30); do pg_up && break; sleep 1; done
    fi
    if ! pg_up; then
        echo "test.sh: FAILED: no PostgreSQL server answers at $JSONHEAL_TEST_POSTGRES" >&2
        echo "  start one (e.g. 'pg_ctlcluster 15 main start', or" >&2
        echo "  'docker run -p 5432:5432 -e POSTGRES_HOST_AUTH_METHOD=trust postgres')," >&2
        echo "  or point JSONHEAL_TEST_POSTGRES at one (postgres://user:password@host:port)" >&2
        exit 1
    fi
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
