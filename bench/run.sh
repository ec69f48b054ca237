#!/usr/bin/env bash
# Runs every 50k-row benchmark of the module. The cold Holdings benchmark runs
# in a process of its own, so that the other benchmarks' fixtures do not
# change how the garbage collector paces itself while it measures the heap.
set -euo pipefail
cd "$(dirname "$0")/.."
go test -run '^$' -bench '50k' -skip 'HoldingsCold50k' -benchmem "$@" ./...
go test -run '^$' -bench 'HoldingsCold50k' -benchmem "$@" .
