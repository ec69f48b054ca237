#!/usr/bin/env bash
# Short fuzz run of every fuzz target of the module: each `func FuzzX` found
# in a _test.go file runs for FUZZTIME (default 50000 executions). Targets are found by
# grepping, so new ones join the run without changes here. Seed corpora live
# in each package's testdata/fuzz/<FuzzName>/.
set -euo pipefail
cd "$(dirname "$0")/.."
# A count of executions, not a time: a time-limited run can end on the
# fuzzer's own deadline while a worker of a loaded machine is busy
# ("context deadline exceeded"), and a count runs the same work however
# busy the machine is.
fuzztime="${FUZZTIME:-50000x}"
total=0
while IFS=: read -r file name; do
	dir="$(dirname "$file")"
	echo "== fuzz $dir $name ($fuzztime)"
	# Go's fuzzer can end a time-limited run with a bare "context deadline
	# exceeded" when the time runs out while a worker is busy (no failing
	# input is written then). Such a run is repeated once; a real failure
	# writes its input under testdata/fuzz and is never repeated.
	log="$(mktemp)"
	if ! go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" "./$dir" 2>&1 | tee "$log"; then
		if grep -q 'context deadline exceeded' "$log" && ! grep -q 'Failing input written' "$log"; then
			echo "== fuzz $dir $name: the run ended on the fuzzer's own deadline, once more"
			go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" "./$dir"
		else
			exit 1
		fi
	fi
	rm -f "$log"
	total=$((total + 1))
done < <(grep -rHo --include='*_test.go' -E '^func Fuzz[A-Za-z0-9_]*' . \
	| sed -E 's#^\./##; s#:func #:#' | sort -u)
echo "== $total fuzz targets run for $fuzztime each"
