#!/usr/bin/env bash
# Short fuzz run of every fuzz target of the module: each `func FuzzX` found
# in a _test.go file runs for FUZZTIME (default 10s). Targets are found by
# grepping, so new ones join the run without changes here. Seed corpora live
# in each package's testdata/fuzz/<FuzzName>/.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime="${FUZZTIME:-10s}"
total=0
while IFS=: read -r file name; do
	dir="$(dirname "$file")"
	echo "== fuzz $dir $name ($fuzztime)"
	go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" "./$dir"
	total=$((total + 1))
done < <(grep -rHo --include='*_test.go' -E '^func Fuzz[A-Za-z0-9_]*' . \
	| sed -E 's#^\./##; s#:func #:#' | sort -u)
echo "== $total fuzz targets run for $fuzztime each"
