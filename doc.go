// Package edgar13f answers questions about SEC Form 13F holdings as they
// could have been known on a given date.
//
// Institutional managers file Form 13F each quarter and often amend it
// later. A tool that returns "the latest" report leaks the future into
// backtests. Every query of this package therefore takes an asOf date,
// shows only filings EDGAR had accepted by then, applies amendments by the
// rules below, and cites the accession numbers behind every row.
//
//	c, err := edgar13f.NewClient(edgar13f.WithUserAgent("Jane Quant jane@example.com"))
//	...
//	snap, err := c.Holdings(ctx, "1067983", edgar13f.MustParseDate("2023-09-30"), edgar13f.MustParseDate("2023-11-15"))
//	var d *edgar13f.DeclineError
//	switch {
//	case errors.As(err, &d):
//		fmt.Println("no answer:", d.Reason, d.Message)
//	case err != nil:
//		return err // EDGAR unreachable, retries exhausted, ...
//	default:
//		fmt.Println(snap.Base.Accession, len(snap.Holdings))
//	}
//
// # Point-in-time queries
//
// A filing is visible on asOf exactly when its EDGAR filing date is on or
// before asOf. Dates are calendar days ([Date]), never times, so no time
// zone can move a query by a day. Only the filing date counts: not the
// period of report, not the signature date, and not EDGAR's acceptance
// timestamp (which is UTC and can fall on the day after the filing date).
// Nothing filed after asOf influences any part of an answer: rows, cited
// accessions, filing lists, which filing counts as latest, declines.
//
// # Amendments
//
// For one manager, period and asOf, the visible 13F-HR and 13F-HR/A filings
// of the period are ordered by filing date, then amendment number (none
// first), then accession number. The base is the last original or
// restatement among them (a 13F-HR/A whose cover names no amendment type
// counts as a restatement). Every new-holdings amendment after the base is a
// supplement; one filed before a later restatement is superseded by it. The
// answer is every row of the base followed by every row of each supplement,
// exactly as filed: never merged, netted, de-duplicated or rescaled. When a
// period has more than one original, the same order applies: the last one
// is the base.
//
// The period of a filing is taken from EDGAR's filing list to choose
// candidates and confirmed from each cover page read; the two agree in
// EDGAR's data.
//
// # Citations
//
// A [Snapshot] cites its base filing and the source list (base, then
// supplements) as [Citation] values with accession, form, filing date and
// the EDGAR index page URL; every [Holding] carries the accession and filing
// date of the filing it came from. A [Comparison] cites both periods.
//
// # Values
//
// [Holding.Value] is the value exactly as filed. Filings made before
// 2023-01-03 report thousands of dollars, later ones whole dollars, keyed on
// the filing date (amendments included): [ValueUnitOf] and
// [Citation.ValueUnit] say which. [Holding].ValueUSD is each row's value
// in whole dollars by its own filing's date, and the documentation of
// [Holding] lists the filer errors it cannot fix. Every sum and ranking
// uses dollars: [Limit] ranks by them, and a [Change] carries ValueUSDA,
// ValueUSDB and ValueUSDDelta beside the values as filed.
//
// # Completeness
//
// Every cited filing's information table is checked against the totals its
// cover states: [Snapshot].Reconciliations and
// [Comparison].ReconciliationsA and ReconciliationsB hold, per source, the
// cover's [Totals] as filed and whether the table, counted before
// redaction, matched them. A table that does not match is reported, never
// repaired.
//
// # Declines
//
// A question without an answer is declined with a [*DeclineError], a normal
// outcome rather than a failure. Its [Reason] is one of nine stable
// strings, listed in precedence order (when several apply, the first wins):
// [InvalidArgument], [InvalidPeriod], [UnsupportedRequest], [UnknownCIK],
// [UnknownConcept], [NoticeOnly], [NotYetFiled], [SectionNotFound],
// [UnknownChunk]; the company questions ([Client.Companies]) use
// InvalidArgument, UnknownCIK, UnknownConcept, NotYetFiled and
// SectionNotFound, and UnknownChunk is the filing search's (package
// github.com/edgar13f/edgar13f/search). A Reason is also what a decline
// matches: branch with errors.Is(err, edgar13f.NotYetFiled) and friends,
// or read the reason and message with errors.As. A [Client.Diff] returns
// the decline of period A before that of period B.
//
// Transport failures are ordinary errors, never declines: a [*FetchError]
// naming the document's URL (wrapping [ErrNotFound] for a missing
// document), a [*ParseError] for a document that cannot be read, or the
// context's error. A failure of one period of a [Client.Diff] names the
// period. [NewClient] fails with an error matching [ErrNoUserAgent] before
// anything is sent when a Client that would read EDGAR over HTTP has no
// plausible User-Agent.
//
// # Company data
//
// Package companies (companies.New(c)) asks the same point-in-time
// questions of any EDGAR filer through a Client: Search (names and
// tickers, current ones), Filings (filings of any form), Facts (annual XBRL
// values as known on asOf and as first reported, with the filings that
// reported them), Section (one Item of a 10-K or 10-Q) and Sections (every
// Item of one, whole). A section of a filing made after asOf is declined
// [NotYetFiled] with nothing of the filing in the answer.
//
// # Finding managers
//
// [Client.FindManager] turns a name into CIK candidates: every CIK whose
// current or former EDGAR name contains the text, 13F filers first. Names
// are EDGAR's current ones, not as of any date; with [FiledBy] only whether a
// candidate has filed a 13F is point in time. The first call on a cache
// builds a compact index from EDGAR's cik-lookup-data.txt and its quarterly
// form.idx files ([ReportProgress] reports progress); later calls answer in
// microseconds, also from other processes sharing the cache.
//
// # Redaction
//
// By default, information-table rows of gold ETFs and trusts, US
// energy-sector ETFs, S&P 500 index funds and ETFs, and UCITS copies of any
// of them are removed while a table is parsed, before anything else sees
// them: they are never returned, cached or counted. Matching is by
// case-insensitive patterns over issuer name and title of class plus a list
// of CUSIPs (see redact.go for the rule and its known over-matches: every
// "SPDR S&P" fund, bonds of fund- or trust-named issuers with ".500"
// coupons, energy and oil royalty trusts). A query for a removed CUSIP is an
// ordinary answer with no rows. [WithRedaction](false) turns redaction off
// and [WithRedactionRule] supplies another rule; rows read under different
// rules are cached apart, so unredacted rows are never served once
// redaction is back on.
//
// # Fair access to EDGAR
//
// SEC asks every client to identify itself and to stay under 10 requests a
// second. The Client sends the User-Agent given with [WithUserAgent], which
// must hold an email address ("Name email@domain"; without one [NewClient]
// fails with [ErrNoUserAgent]); spaces request starts at least
// 250ms apart (see [WithRequestInterval]) across all goroutines and all processes
// sharing the cache directory (a lock file there), counting every request
// that reaches the wire: each retry, each hop of a redirect and each
// request that Go's HTTP transport sends again by itself after a reused
// connection failed takes a start of its own; retries 403, 429, 5xx,
// network errors, truncated bodies and HTML error pages served in place of
// data with exponential backoff, honouring Retry-After ([RetryPolicy]); and
// fails at once on 404 and other 4xx. An HTML page counts as one served in
// place of data only where the URL asks for data (a path with an extension
// other than .htm or .html): a web page such as the Form 13F Data Sets
// landing page is read as it is. It fetches as little as it can:
// a holdings question reads the filing list and one complete submission
// file per holdings report from the latest back to the base, and filing
// documents, which never change once accepted, are cached forever.
//
// The cache lives in $XDG_CACHE_HOME/edgar13f (usually ~/.cache/edgar13f;
// see [WithCacheDir]); nothing is written elsewhere. A cached filing list
// answers for asOf only if it was fetched at least two days after asOf,
// because filings accepted after hours are dated the next business day.
// The Form 13F Data Sets landing page's list of windows is kept for a day.
// Every entry belongs to the source it was read from: live EDGAR, an HTTP
// mirror at a base URL ([WithBaseURL]), a mirror directory (mirror.Dir)
// or a [Fetcher] that names its source; an entry is never served to a Client
// reading another source, so a test fixture never answers a live query. A
// Client over a Fetcher that names no source caches in memory only.
//
// # Offline use and testing
//
// Package [github.com/edgar13f/edgar13f/mirror] reads an EDGAR mirror tree, in which the
// document at https://HOST/PATH is the file HOST/PATH: its Fetcher, plugged
// in [WithFetcher], serves offline work; its Handler serves the same tree
// over HTTP so that tests can run the Client's real HTTP path against an httptest server with
// [WithBaseURL]. The repository's testdata/mirror holds recorded EDGAR
// filings (Berkshire Hathaway's 2022–2023 amendment chains among them) and
// the examples in this documentation run against it. It does not hold every
// document its filing lists name (Berkshire's 2023Q2 report, for one): a
// question that needs a missing document fails with a [*FetchError] naming
// the document and its mirror file, never with a partial answer.
//
// # What is where
//
// This package asks every question of one [Client], and every question
// reads through the Client's one access layer: one User-Agent, one request
// spacing shared across processes, one cache, so a program has one rate
// limit and one cache whatever it asks.
//
//   - 13F per manager: [Client.Filings], [Client.Holdings], [Client.Diff],
//     [Client.FindManager].
//   - Any company's filings, financial facts and report sections:
//     [Client.Companies].
//   - Every manager at once, from SEC's Form 13F Data Sets: package
//     github.com/edgar13f/edgar13f/datasets (see below).
//   - Search across 10-K and 10-Q Items: package
//     github.com/edgar13f/edgar13f/search, with its stores under search/store
//     and an OpenSearch store in a module of its own.
//   - Questions answered by a language model, every figure grounded in a
//     cited source: package github.com/edgar13f/edgar13f/agent.
//
// The Parquet store, the search engine and the model clients live in
// their own packages so that a program asking only for holdings links
// none of them. Options follow one pattern: a Client option is With...;
// each question has its own option type, so an option a question does not
// take does not compile; [Limit] is "at most n" wherever a question has a
// limit, and [ReportProgress] reports long work.
//
// # Every manager at once
//
// Package github.com/edgar13f/edgar13f/datasets answers from SEC's Form
// 13F Data Sets, imported as Apache Parquet under the Client's cache
// directory: who held a security, a manager's holdings (the same answer
// as [Client.Holdings] for the filings both hold) and every manager's
// holdings for a period, streamed, by the same rules and through the same
// Client. Every answer states the span of filing dates imported without a
// gap and whether every filing date it rests on lies in it.
package edgar13f
