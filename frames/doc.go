// Package frames answers cross-sectional questions about XBRL financial
// facts point in time: one fact for every company at once ("every
// company's net income for calendar 2023, as it could have been known on
// 2024-03-01"), which EDGAR's own frames API cannot give, since it keeps
// only the latest-filed fact of each period and a restatement filed later
// rewrites history.
//
// A [Store] imports EDGAR's bulk companyfacts.zip ([Store.Sync], or a
// local copy with [Store.ImportFile]), or the companyfacts API documents
// of a list of companies ([Store.SyncCompanies]), as Apache Parquet files
// under the Client's cache directory, laid out for DuckDB, Spark and Trino
// as well ([Store.Dir]). Each import replaces the snapshot atomically: a
// reader, or a process killed mid-import, sees the old snapshot or the
// new one whole. Documents are read one at a time and one JSON token at a
// time, so no document is ever in memory whole; a corrupt zip or
// document, or a fact without end, val, accn, form or filed, fails the
// import naming the file and the byte offset in it, and leaves the store
// as it was.
//
//	c, err := edgar13f.NewClient(edgar13f.WithUserAgent("Jane Quant jane@example.com"))
//	...
//	s, err := frames.Open(c)
//	...
//	if _, err := s.Sync(ctx); err != nil { // about 1.3 GB
//		return err
//	}
//	f, err := s.Frame(ctx, "net_income", "CY2023", edgar13f.MustParseDate("2024-03-01"))
//
// [Store.Frame] applies the rule, documented there: periods CY2023,
// CY2023Q4 and CY2023Q4I; for each company the facts filed on or before
// asOf whose period fits; the period closest to the calendar one; the
// value as known and as first reported, and whether it was restated.
// [Store.Rows] streams a whole frame and [Store.Panel] several periods;
// [WriteCSV] and [WriteParquet] export them.
//
// Every answer states DataThrough, the latest filing date in the store,
// and Complete, whether asOf is on or before it: a fact filed after
// DataThrough is unknown to the store, never guessed.
//
// # Why a package of its own
//
// The Parquet store is large: a program that asks only per-company
// questions imports package edgar13f alone and links none of it.
// Everything else is shared with the Client: one User-Agent, one request
// spacing across processes, one cache directory.
package frames
