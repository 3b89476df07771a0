#!/usr/bin/env bash
# Differential run: what a base revision's library makes of every input against what the
# working tree's makes — one-shot repair text and repair log under three option sets, and the
# stream's events in 1-, 7- and 64-byte chunks and its finish — over every corpus in the repo,
# the fuzz seeds, the probe cases and a generated soup. Byte-identical output or exit 1.
#
#   bash scripts/differential.sh BASE_REV [SOUP_COUNT]     (default soup: 100000 inputs)
#
# The dump tool is crates/jsonheal-tools/src/bin/differential.rs; it uses only the public API,
# so the same file is built against the base as an example of its jsonheal crate.
set -euo pipefail
cd "$(dirname "$0")/.."
base=$(git rev-parse --short "${1:?usage: differential.sh BASE_REV [SOUP_COUNT]}")
soup=${2:-100000}
work=$(mktemp -d)
cleanup() {
    git worktree remove --force "$work/base" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
git worktree add --detach -q "$work/base" "$base"
mkdir -p "$work/base/crates/jsonheal/examples"
cp crates/jsonheal-tools/src/bin/differential.rs "$work/base/crates/jsonheal/examples/differential.rs"

# Optimised but without fat LTO: the comparison needs speed, not the last percent.
export CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16
export CARGO_PROFILE_RELEASE_DEBUG=0
export CARGO_TARGET_DIR="$PWD/target/differential"
(cd "$work/base" && cargo build --quiet --release -p jsonheal --example differential)
cp "$CARGO_TARGET_DIR/release/examples/differential" "$work/differential-base"
cargo build --quiet --release -p jsonheal-tools --bin differential
cp "$CARGO_TARGET_DIR/release/differential" "$work/differential-new"

inputs=(crates/jsonheal/tests/data/*.jsonl fuzz/seeds/repair/* fuzz/seeds/stream/*)
if [ -f ../shared/conformance/probe.jsonl ]; then inputs+=(../shared/conformance/probe.jsonl); fi
"$work/differential-base" --soup "$soup" "${inputs[@]}" >"$work/base.out"
"$work/differential-new" --soup "$soup" "${inputs[@]}" >"$work/new.out"
count=$(grep -c '^# ' "$work/new.out")
if cmp -s "$work/base.out" "$work/new.out"; then
    echo "differential: $count inputs, output identical to $base ($(wc -c <"$work/new.out") bytes)"
else
    echo "differential: $count inputs, output DIFFERS from $base; first differences:"
    diff "$work/base.out" "$work/new.out" | head -60
    exit 1
fi
