#!/usr/bin/env bash
# End-to-end throughput of `jsonheal args --jsonl`: a release build over a generated file of
# N tool-call lines (default 200,000; 30% broken: single quotes, bare keys and values,
# trailing commas, plain values, CLI text, double-encoded). Prints lines per second.
#
#   scripts/bench-args-jsonl.sh [N]
set -euo pipefail

n="${1:-200000}"
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cargo build --release -q -p jsonheal-cli --manifest-path "$root/Cargo.toml"
bin="$root/target/release/jsonheal"

# Deterministic input: line i takes template i % 10 (3 of 10 broken).
awk -v n="$n" 'BEGIN {
  for (i = 0; i < n; i++) {
    t = i % 10
    if (t == 0)      printf "{\"id\":%d,\"tool\":\"Read\",\"input\":\"{\\\"file_path\\\":\\\"/home/dev/src/mod_%d.rs\\\",\\\"offset\\\":%d,\\\"limit\\\":200}\"}\n", i, i, i % 900
    else if (t == 1) printf "{\"id\":%d,\"tool\":\"Bash\",\"input\":\"{\\\"command\\\":\\\"cargo test -p core --lib parser_%d\\\",\\\"description\\\":\\\"Run the parser tests\\\"}\"}\n", i, i
    else if (t == 2) printf "{\"id\":%d,\"tool\":\"fs\",\"input\":\"{cmd: read, file: internal/cache/entry_%d.go, append: true}\"}\n", i, i
    else if (t == 3) printf "{\"id\":%d,\"tool\":\"web_search\",\"input\":\"{\\\"query\\\":\\\"how to configure the cache layer in production %d\\\",\\\"max_results\\\":5}\"}\n", i, i
    else if (t == 4) printf "{\"id\":%d,\"tool\":\"fs\",\"input\":\"{'"'"'cmd'"'"': '"'"'read'"'"', '"'"'file'"'"': '"'"'internal/router_%d.go'"'"'}\"}\n", i, i
    else if (t == 5) printf "{\"id\":%d,\"tool\":\"Grep\",\"input\":\"{\\\"pattern\\\":\\\"fn handler_[a-z]+\\\",\\\"path\\\":\\\"src/http\\\",\\\"output_mode\\\":\\\"content\\\"}\"}\n", i
    else if (t == 6) printf "{\"id\":%d,\"tool\":\"read_file\",\"input\":\"src/components/widgets/Widget_%d.tsx\"}\n", i, i
    else if (t == 7) printf "{\"id\":%d,\"tool\":\"fs\",\"input\":\"{\\\"cmd\\\":\\\"read\\\",\\\"file\\\":\\\"internal/session_%d.go\\\",\\\"lines\\\":[1,%d]}\"}\n", i, i, i % 500
    else if (t == 8) printf "{\"id\":%d,\"tool\":\"Write\",\"input\":\"{\\\"file_path\\\":\\\"src/app_%d.py\\\",\\\"content\\\":\\\"def f(x):\\\\n    return x * 2\\\\n\\\"}\"}\n", i, i
    else             printf "{\"id\":%d,\"tool\":\"Edit\",\"input\":\"{\\\"file_path\\\":\\\"/src/x_%d.py\\\",\\\"old_string\\\":\\\"a = 1\\\",\\\"new_string\\\":\\\"a = 2\\\"}\"}\n", i, i
  }
}' > "$work/in.jsonl"

lines=$(wc -l < "$work/in.jsonl")
bytes=$(wc -c < "$work/in.jsonl")
"$bin" args --jsonl "$work/in.jsonl" > "$work/warm.jsonl"   # warm the page cache
ok=$(grep -c '"ok":true' "$work/warm.jsonl" || true)

best=""
for run in 1 2 3; do
  start=$(date +%s.%N)
  "$bin" args --jsonl "$work/in.jsonl" > /dev/null
  end=$(date +%s.%N)
  t=$(echo "$end - $start" | bc -l)
  if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
done
rate=$(echo "$lines / $best" | bc -l)
printf 'jsonheal args --jsonl: %d lines (%d bytes, %d ok) in %.3f s best of 3 = %.0f lines/s (target >= 200,000)\n' \
  "$lines" "$bytes" "$ok" "$best" "$rate"
