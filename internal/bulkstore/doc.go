// Package bulkstore keeps SEC Form 13F Data Sets windows as Apache Parquet
// files, laid out for engines (DuckDB, Spark, Trino) and for point-in-time
// lookups from Go.
//
// # Layout
//
// A store is a directory holding three tables, each a directory of
// Hive-style partitions with one partition per imported window, so that
// engines read the window as a column and prune on it:
//
//	<dir>/filings/window=<name>/part-0.parquet
//	<dir>/holdings/window=<name>/part-0.parquet
//	<dir>/holdings_by_cusip/window=<name>/part-0.parquet
//	<dir>/_partitions/<name>.json
//
// filings has one row per submission (SUBMISSION joined with COVERPAGE and
// SUMMARYPAGE; see [Filing]), notices included, sorted in "filing order":
// (period, CIK, filing date, amendment number, accession). Beside the
// cover's totals it carries the tally of the filing's INFOTABLE rows
// before redaction (table_rows, table_value), so a table can be reconciled
// with its cover after redaction removed rows.
//
// holdings has one row per stored information-table row (see [Row]): the
// filing's period, CIK, filing date and accession are repeated on every
// row, with row_no (the row's 1-based position in its filing's table,
// redacted rows counted) and value_usd. It is sorted by filing order then
// row_no, in row groups of 64Ki rows: a (period, CIK) lookup or a period
// scan reads only the row groups whose period/CIK statistics hold it, and
// a period's rows come in CIK order.
//
// holdings_by_cusip holds the same rows sorted by cusip_key (the CUSIP in
// upper case), then filing order and row_no, in row groups of 16Ki rows
// with a page index: a CUSIP lookup reads the one or two row groups (and
// only the pages) whose CUSIP range holds it. The rows are stored twice
// because no single order serves both "one manager" and "one security"
// lookups; encodings keep both small: strings are dictionary-encoded and
// Snappy-compressed, integers DELTA_BINARY_PACKED and left uncompressed
// (they decode several times faster than Snappy pages, and smaller).
//
// _partitions/<name>.json ([Meta]) is the commit record of a window: it
// names the window, its filing-date range, the layout version, the
// redaction rule applied at import, row counts and a content hash. A
// window without it, or made under another rule or version, is never read
// by this package. Names starting with "_" or "." are ignored by Spark,
// Hive and Trino.
//
// # Import
//
// [Store.Import] streams a window zip: the one-row-per-filing tables are
// read into memory; INFOTABLE rows are normalised (see package datasetzip),
// redacted with the caller's predicate (removed rows are never written)
// and spilled in a compact encoding to two sets of bucket files: ranges of
// filing order (cut by the cover totals) and ranges of CUSIP prefixes
// (cut at the quantiles of the first rows' CUSIPs, so that buckets hold
// about as many rows each; a bucket that skew still made too large is
// split by longer prefixes). The zip member is inflated, parsed and
// spilled by three goroutines side by side. Then two goroutines each take
// one set bucket by bucket, sort the bucket's records in memory (by
// integer keys) and write them to holdings and holdings_by_cusip, rows
// decoded a batch at a time as views of the bucket's bytes. At most one
// bucket per set (some 25Ki-250Ki rows, a few tens of MB; one filing's
// rows are never cut) is in memory at a time. value_usd is computed per
// row by its own filing's date (x1000 when filed before 2023-01-03).
//
// The partition is built under <dir>/.staging and renamed into place: the
// old window's commit record and table partitions are first moved aside,
// the new table partitions moved in, and the new commit record renamed in
// last; then the old files are removed. Every file is synced before its
// rename. Open rolls an interrupted replacement back (or finishes its
// clean-up once committed), so this package only ever reads a whole
// window, old or new. Engines do the same by reading only the windows
// whose commit record is present (sql/duckdb_views.sql does); one that
// globs the table directories alone may, for the milliseconds of an
// import, see one table's partition without the others. Re-importing a
// window replaces that window and nothing else.
//
// # Damage
//
// A partition whose files are damaged (cut short, overwritten at either
// end, deleted, a footer that does not parse) is moved aside into
// <dir>/.quarantine/<name>-<n>/, commit record first, and is no longer
// imported: the next import of the window restores it. Damage is looked
// for when a partition is first listed (each file's size against the one
// recorded in its commit record, and the Parquet magic bytes and footer
// length at its ends: a few bytes read per file) and when it is opened
// (footers parsed, the filings table read); [Store.OpenWindows] opens the
// windows a question reads and moves the damaged ones aside before the
// caller reads the coverage.
//
// # Queries
//
// Rows are read from the Parquet files column by column, a page at a time,
// straight into the fields of a batch of [Row] values; their strings are
// ordinary Go strings (copied out of each page or dictionary once, shared
// by the rows that repeat them), valid for as long as the caller keeps
// them. cusip_key is not read but derived from cusip, as it was written.
//
// Filings, PeriodFilings, Rows and CUSIPRows are the primitives: every one
// takes asOf, reads only windows beginning on or before it and returns only
// filings (and rows of filings) dated on or before it. Holdings, Holders
// and Panel apply a caller-supplied amendment rule ([Resolver]) per (CIK,
// period) on top of them. Coverage reports the imported windows and the
// span of filing dates they cover without a gap: data_from, the first
// filing date of the first imported window, through data_through, the last
// one covered without a gap from it. These primitives read whatever is
// imported; whether that is every filing an answer rests on is the
// caller's question (Coverage.Covers).
package bulkstore
