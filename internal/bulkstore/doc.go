// Package bulkstore keeps SEC Form 13F Data Sets windows as Apache Parquet
// files, laid out for engines (DuckDB, Spark, Trino) and for point-in-time
// lookups from Go.
//
// # Layout
//
// A store is a directory with one partition (directory) per imported
// window, named Hive-style so engines read the window as a column:
//
//	<dir>/window=<name>/filings.parquet
//	<dir>/window=<name>/holdings.parquet
//	<dir>/window=<name>/holdings_by_cusip.parquet
//	<dir>/window=<name>/_partition.json
//
// filings.parquet has one row per submission (SUBMISSION joined with
// COVERPAGE and SUMMARYPAGE; see [Filing]), notices included, sorted in
// "filing order": (period, CIK, filing date, amendment number, accession).
//
// holdings.parquet has one row per stored information-table row (see
// [Row]): the filing's period, CIK, filing date and accession are repeated
// on every row, with row_no (the row's 1-based position in its filing's
// table) and value_usd. It is sorted by filing order then row_no, in row
// groups of 64Ki rows: a (period, CIK) lookup or a period scan reads only
// the row groups whose period/CIK statistics hold it, and a period's rows
// come in CIK order.
//
// holdings_by_cusip.parquet holds the same rows sorted by cusip_key (the
// CUSIP in upper case), then filing order and row_no, in row groups of
// 16Ki rows with a page index: a CUSIP lookup reads the one or two row
// groups (and only the pages) whose CUSIP range holds it. The rows are
// stored twice because no single order serves both "one manager" and "one
// security" lookups; the files compress well (dictionary and Snappy).
//
// _partition.json ([Meta]) is written last and names the window, its
// filing-date range, the layout version, the redaction rule applied at
// import, row counts and a content hash. A partition made under another
// rule or version is never read.
//
// # Import
//
// [Store.Import] streams a window zip: the one-row-per-filing tables are
// read into memory; INFOTABLE rows are normalised (see package datasets),
// redacted with the caller's predicate (removed rows are never written)
// and spilled to bucket files of consecutive filing-order ranges; each
// bucket is then sorted in memory and appended to holdings.parquet while
// its rows are routed to buckets of consecutive CUSIP ranges, which are in
// turn sorted into holdings_by_cusip.parquet. At most one bucket (about
// 192Ki rows) is in memory at a time. value_usd is computed per row by its
// own filing's date (x1000 when filed before 2023-01-03).
//
// The partition is built under <dir>/.staging and renamed into place; a
// replaced partition is first moved aside and removed once the new one is
// in place. Open rolls an interrupted replacement back, so readers and
// engines only ever see a whole partition, old or new. Re-importing a
// window replaces that window's partition and nothing else.
//
// # Queries
//
// Filings, PeriodFilings, Rows and CUSIPRows are the primitives: every one
// takes asOf, reads only windows beginning on or before it and returns only
// filings (and rows of filings) dated on or before it. Holdings, Holders
// and Panel apply a caller-supplied amendment rule ([Resolver]) per (CIK,
// period) on top of them. Coverage reports the imported windows and
// data_through, the last filing date covered without a gap from the first
// imported window.
package bulkstore
