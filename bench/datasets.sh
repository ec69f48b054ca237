#!/usr/bin/env bash
# Benchmarks of the SEC Form 13F Data Sets bulk store on a generated
# full-size window (3.5 million INFOTABLE rows, about 400 MB of TSV, about
# 100 MB zipped), with DuckDB on the same files as the anchor:
#
#   - import (zip -> Parquet store): time, CPU time, peak heap, store size
#     against the zip's; DuckDB read_csv -> COPY ... TO parquet of the same
#     tables (extracted beforehand);
#   - Holders of the most held CUSIP on a warm store: time and memory per
#     lookup; DuckDB running the shipped sql/holders_asof.sql on the same
#     Parquet;
#   - Panel of the window's main period: rows per second, peak heap.
#
# The window is generated once under $EDGAR13F_BENCH_DIR (default
# $TMPDIR/edgar13f-bench, about 1 GB with the extracted TSV and a store);
# EDGAR13F_BENCH_ROWS changes its size. Nothing is committed. Figures depend
# on the machine's load: the import also reports its CPU seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
export EDGAR13F_BENCH_DIR="${EDGAR13F_BENCH_DIR:-${TMPDIR:-/tmp}/edgar13f-bench}"
count="${BENCH_COUNT:-1}"

echo "== library: import, Holders, Panel (internal/bulkstore)"
go test -run '^$' -bench 'ImportFullWindow|Holders|Panel' -benchtime 1x -count "$count" -benchmem ./internal/bulkstore
go test -run '^$' -bench 'Holders' -benchtime 20x -count "$count" -benchmem ./internal/bulkstore

echo "== DuckDB anchors (sql/check, a separate module)"
(cd sql/check && go test -run '^$' -bench 'DuckDBCSVToParquet' -benchtime 1x -count "$count" .)
(cd sql/check && go test -run '^$' -bench 'DuckDBHolders' -benchtime 20x -count "$count" .)

echo "== sizes"
du -sh "$EDGAR13F_BENCH_DIR"/bench-*_form13f.zip "$EDGAR13F_BENCH_DIR"/store-* 2>/dev/null || true
