// Package datasets answers 13F questions about every manager at once from
// SEC's Form 13F Data Sets, point in time: who held a security
// ([Store.Holders]), one manager's holdings ([Store.Holdings], the answer
// of [edgar13f.Client.Holdings] for the filings both hold) and every
// manager's holdings for a period ([Store.Panel], streamed).
//
// The Data Sets republish every 13F filing as tab-separated tables, one
// zip of about 100 MB per window of filing dates since 2013. A [Store]
// imports windows ([Store.SyncFor], [Store.Sync], [Store.Import],
// [Store.ImportFile]) as Apache Parquet files under the Client's cache
// directory, laid out for DuckDB, Spark and Trino as well ([Store.Dir]),
// and answers from them by the rules of package edgar13f, running that
// package's own code: visibility by filing date, the amendment rule,
// redaction (applied while importing: removed rows are never stored),
// value_usd, the options and declines of Holdings, citations and
// reconciliations.
//
//	c, err := edgar13f.NewClient(edgar13f.WithUserAgent("Jane Quant jane@example.com"))
//	...
//	ds, err := datasets.Open(c)
//	...
//	period, asOf := edgar13f.MustParseDate("2023-09-30"), edgar13f.MustParseDate("2024-05-15")
//	if _, err := ds.SyncFor(ctx, period, asOf); err != nil { // about 100 MB a window
//		return err
//	}
//	hl, err := ds.Holders(ctx, "037833100", period, asOf, datasets.Limit(20))
//
// # Coverage
//
// Every answer states DataFrom and DataThrough, the span of filing dates
// the imported windows cover without a gap ([Coverage]), and Complete,
// whether every filing date the answer rests on lies in it. A question
// whose filings may precede the span fails with a [*CoverageError] rather
// than answer from part of them; [Store.SyncFor] imports what it needs.
// A filing dated after DataThrough is unknown to the bulk source, never
// guessed: an answer for a later asOf is the one known on DataThrough.
//
// # Why a package of its own
//
// The Parquet store is large: a program that asks only per-manager
// questions imports package edgar13f alone and links none of it.
// Everything else is shared with the Client: one User-Agent, one request
// spacing across processes, one cache directory, one redaction rule.
package datasets
