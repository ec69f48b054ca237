package search

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/companies"
	"github.com/edgar13f/edgar13f/internal/bounds"
	"github.com/edgar13f/edgar13f/internal/check"
	"github.com/edgar13f/edgar13f/internal/civil"
	"github.com/edgar13f/edgar13f/internal/edgarid"
	"github.com/edgar13f/edgar13f/internal/sections"
	"github.com/edgar13f/edgar13f/internal/tickers"
	"github.com/edgar13f/edgar13f/search/internal/chunk"
	"github.com/edgar13f/edgar13f/search/store"
)

// This file indexes filings: companies resolved to CIKs, their newest
// reports of the kinds asked for (original filings and their amendments)
// listed through the Client, each filing's
// Items read (one request for its primary document, through the Client's
// access layer and cache), chunked, embedded and stored in one Put.

var errNilArgs = errors.New("search: New needs a Client and a Store")

// lastDate is the latest Date: Filings(lastDate) lists every stored filing.
var lastDate = edgar13f.Date{Year: 9999, Month: time.December, Day: 31}

// defaultForms are the report kinds Index reads when given none.
var defaultForms = []edgar13f.Form{"10-K"}

// decline returns a decline of the root package's kind.
func decline(r edgar13f.Reason, format string, args ...any) error {
	return edgar13f.Decline(r, format, args...)
}

// declineOfCheck is a failed argument check as the root package's decline.
func declineOfCheck(f *check.Failure) error {
	return edgar13f.Decline(edgar13f.Reason(f.Reason), "%s", f.Message)
}

// checkAsOf declines a zero or impossible date.
func checkAsOf(asOf edgar13f.Date) error {
	if f := check.Day("asOf", check.Date{Year: asOf.Year, Month: asOf.Month, Day: asOf.Day}); f != nil {
		return declineOfCheck(f)
	}
	return nil
}

// itemText is one Item of a filing, whole, as the engine chunks it.
type itemText struct {
	item  string // "1A", "II-1A"
	title string
	text  string
}

// itemReader returns every Item of the filing accession of cik, visible on
// asOf, in document order. A filing whose document has no Item headings is
// a decline [edgar13f.SectionNotFound]; a document that cannot be fetched
// or read is an error.
type itemReader func(ctx context.Context, cik, accession string, asOf edgar13f.Date) ([]itemText, error)

// target is one company of an Index call.
type target struct {
	arg    string // as given
	cik    string // without leading zeros
	ticker string // EDGAR's form of the ticker given; "" for a CIK until looked up
	byCIK  bool
}

// Index indexes, for each company (a ticker or a CIK), its newest reports
// of each kind made on or before asOf: for each [FormType] (default
// "10-K"), the [Limit] (default [DefaultFilings]) newest original filings of
// that form, plus every amendment of one of them (a "10-K/A" whose period
// of report is the period of one of those originals) made by asOf. An
// amendment of an older report is never picked, and an amendment alone,
// with no original among those picked, is not indexed; likewise "10-Q"
// with "10-Q/A". An amendment filed since the oldest original picked that
// EDGAR's filing list gives no period of report fails the call with an
// [*IndexError] naming it, before anything is read or stored: which report
// it amends is unknown, and no report is indexed without an amendment it
// may have.
//
// A ticker must be one of EDGAR's current tickers (company_tickers.json,
// matched exactly: "brk.b" is BRK-B); it is not point in time. A CIK is 1
// to 10 digits; the filing is stored under the company's current primary
// ticker when EDGAR lists one. Each filing's primary document is read once
// through the Client (its User-Agent, request spacing, cache and mirror
// apply), split into Items, each Item cut into chunks of at most
// [chunk.MaxTokens] cl100k_base tokens overlapping by [chunk.Overlap],
// embedded in batches of [EmbedBatch] when the Engine has an embedder, and
// stored in one atomic [store.Store.Put]: a search sees all of a filing's
// chunks or none of them.
//
// A filing the store holds already is not read again ([IndexedFiling]
// Reused) unless [Reindex] is given. A filing with no Items is reported
// with Skipped set and not stored. The fiscal year of a 10-K is named by
// its period of report; that of a 10-Q by the company's fiscal year end as
// EDGAR's filing list gives it today ([companies.FilingList]
// FiscalYearEnd), which is current, not point in time.
//
// Before anything is fetched, the embedder is checked against the store:
// a store holding filings embedded by another model or dimension (or
// without vectors, or with vectors when the Engine has no embedder) is
// refused with a [*store.MismatchError] naming both.
//
// It declines [edgar13f.InvalidArgument] for no companies or more than
// [MaxCompanies], a company that is neither a CIK nor a current ticker, a
// form without Items, an option out of range or a zero asOf, and
// [edgar13f.UnknownCIK] for a CIK EDGAR has no filing list for; every
// company's filings are listed before any filing is read or stored, so a
// decline leaves the store as it was. A filing that cannot be
// fetched, read, embedded or stored fails the call with an [*IndexError]
// naming it; the filings stored before it stay stored.
func (e *Engine) Index(ctx context.Context, names []string, asOf edgar13f.Date, opts ...IndexOption) (*IndexResult, error) {
	var o indexOptions
	for _, opt := range opts {
		if opt != nil {
			opt.applyIndex(&o)
		}
	}
	kinds, err := checkIndexArgs(names, asOf, &o)
	if err != nil {
		return nil, err
	}
	given, err := e.embedderMeta(ctx)
	if err != nil {
		return nil, err
	}
	stored, err := e.store.Meta(ctx)
	if err != nil {
		return nil, err
	}
	all, err := e.store.Filings(ctx, lastDate)
	if err != nil {
		return nil, err
	}
	if err := store.Compatible(stored, given, len(all) == 0); err != nil {
		return nil, err
	}
	have := make(map[string]store.Filing, len(all))
	for _, f := range all {
		have[f.Accession] = f
	}
	targets, err := e.resolve(ctx, names)
	if err != nil {
		return nil, err
	}

	res := &IndexResult{AsOf: asOf, Indexed: []IndexedFiling{}}
	if e.embedder != nil {
		m := given
		res.Embedder = &m
	}
	var p Progress
	report := func() {
		if o.progress != nil {
			o.progress(p)
		}
	}
	// List every company's filings first, so that a CIK EDGAR does not know
	// fails the call before anything is stored. One read of a company's
	// filing list (its newest filings of any form) serves every kind asked
	// for, unless the reports are older than those.
	type plan struct {
		t       target
		list    *companies.FilingList
		filings []companies.Filing
	}
	var plans []plan
	done := map[string]bool{} // accessions planned in this call
	for _, t := range targets {
		p.Company, p.Accession = t.arg, ""
		pl := plan{t: t}
		newest, err := e.companies.Filings(ctx, t.cik, asOf, companies.Limit(companies.MaxFilings))
		if err != nil {
			return nil, err
		}
		pl.list = newest
		for _, kind := range kinds {
			reports, ok, err := pickFromNewest(t.cik, newest.Filings, kind, o.limit)
			if err != nil {
				return nil, err
			}
			if !ok {
				if _, reports, err = e.reports(ctx, t.cik, kind, asOf, o.limit); err != nil {
					return nil, err
				}
			}
			for _, f := range reports {
				if !done[f.Accession] {
					done[f.Accession] = true
					pl.filings = append(pl.filings, f)
				}
			}
		}
		if t.byCIK && len(pl.filings) > 0 {
			if pl.t.ticker, err = e.primaryTicker(ctx, t.cik, pl.list.EntityName); err != nil {
				return nil, err
			}
		}
		plans = append(plans, pl)
		p.FilingsPlan += len(pl.filings)
		report()
	}
	now := o.now
	if now == nil {
		now = time.Now
	}
	var (
		start     time.Time
		spent     time.Duration // in filings read (not reused)
		read      int           // filings read
		readChunk int           // their chunks
	)
	for _, pl := range plans {
		p.Company = pl.t.arg
		for _, f := range pl.filings {
			p.Accession = f.Accession
			report()
			t0 := now()
			if start.IsZero() {
				start = t0
			}
			x, err := e.indexFiling(ctx, pl.t, pl.list, f, asOf, given, have, o.reindex)
			if err != nil {
				return nil, &IndexError{CIK: pl.t.cik, Accession: f.Accession, Form: string(f.Form), Err: err}
			}
			t1 := now()
			res.Indexed = append(res.Indexed, x)
			res.ChunksTotal += x.Chunks
			p.Filings++
			p.Chunks += x.Chunks
			if !x.Reused {
				read++
				readChunk += x.Chunks
				spent += t1.Sub(t0)
			}
			p.Elapsed = t1.Sub(start)
			if spent > 0 {
				p.ChunksPerSecond = float64(readChunk) / spent.Seconds()
			}
			if read > 0 {
				p.Left = spent / time.Duration(read) * time.Duration(p.FilingsPlan-p.Filings)
			}
			report()
		}
	}
	return res, nil
}

// pickFromNewest picks the reports of one kind ("10-K") as [Engine.reports]
// does, from newest, a company's newest filings of any form (at most
// [companies.MaxFilings], newest first), so that one read of its filing
// list serves every kind Index is asked for. It reports false when newest
// cannot decide: it is a whole list (more filings may be older) and
// either holds fewer than n originals of the kind or may not hold every
// filing made since the oldest original picked.
func pickFromNewest(cik string, newest []companies.Filing, kind string, n int) ([]companies.Filing, bool, error) {
	var originals []companies.Filing
	for _, f := range newest {
		if len(originals) < n && strings.EqualFold(string(f.Form), kind) {
			originals = append(originals, f)
		}
	}
	whole := len(newest) < companies.MaxFilings // every filing made by asOf
	if len(originals) == 0 {
		return nil, whole, nil
	}
	since := originals[len(originals)-1].FilingDate
	if !whole && (len(originals) < n || !newest[len(newest)-1].FilingDate.Before(since)) {
		return nil, false, nil
	}
	var amendments []companies.Filing
	for _, f := range newest {
		if strings.EqualFold(string(f.Form), kind+"/A") && !f.FilingDate.Before(since) {
			amendments = append(amendments, f)
		}
	}
	picked, err := pickReports(cik, originals, amendments)
	return picked, err == nil, err
}

// reports lists the reports of one kind ("10-K") that Index picks for
// cik when the company's newest filings cannot decide ([pickFromNewest]):
// the n newest original filings of that form made on or before asOf,
// and every amendment of one of them ([pickReports]). Amendments are
// listed only when there is an original, and only those filed on or after
// the oldest original picked (an amendment follows its report), so that
// the older pages of the filing list are read only when they can hold
// one. It returns the filing list of the originals with them.
func (e *Engine) reports(ctx context.Context, cik, kind string, asOf edgar13f.Date, n int) (*companies.FilingList, []companies.Filing, error) {
	orig, err := e.companies.Filings(ctx, cik, asOf, companies.FormType(edgar13f.Form(kind)), companies.Limit(n))
	if err != nil {
		return nil, nil, err
	}
	if len(orig.Filings) == 0 {
		return orig, nil, nil
	}
	since := orig.Filings[len(orig.Filings)-1].FilingDate
	a, err := e.companies.Filings(ctx, cik, asOf, companies.FormType(edgar13f.Form(kind+"/A")), companies.Since(since), companies.Limit(companies.MaxFilings))
	if err != nil {
		return nil, nil, err
	}
	amendments := a.Filings
	if len(amendments) == companies.MaxFilings {
		// The list is cut at its oldest end: an amendment of an original
		// picked could be among those left out. Fail rather than index
		// a report without it.
		return nil, nil, fmt.Errorf("edgar13f/search: CIK %s filed %d or more %s/A since %s, more than can be listed at once: its reports cannot be indexed with all their amendments",
			cik, companies.MaxFilings, kind, since)
	}
	picked, err := pickReports(cik, orig.Filings, amendments)
	if err != nil {
		return nil, nil, err
	}
	return orig, picked, nil
}

// pickReports returns originals (a company's newest original filings of
// one report kind) and those of amendments (filings of its amendment form
// made since the oldest of them) whose period of report is the period of
// one of the originals, newest first (filing date, then accession, both
// descending). An amendment without a period of report may amend one of
// the originals or an older report: which, the filing list does not say,
// and the rule of the search (an amendment belongs to the report of its
// period) cannot tell. Rather than index the reports without it, or with
// an amendment of another report, it fails with an [*IndexError] naming
// the amendment.
func pickReports(cik string, originals, amendments []companies.Filing) ([]companies.Filing, error) {
	periods := map[edgar13f.Date]bool{}
	for _, f := range originals {
		if !f.Period.IsZero() {
			periods[f.Period] = true
		}
	}
	out := slices.Clone(originals)
	for _, f := range amendments {
		if f.Period.IsZero() {
			return nil, &IndexError{CIK: cik, Accession: f.Accession, Form: string(f.Form), Err: fmt.Errorf(
				"EDGAR's filing list gives this amendment, filed %s, no period of report, so which report it amends is unknown; no report of this kind is indexed without it", f.FilingDate)}
		}
		if periods[f.Period] {
			out = append(out, f)
		}
	}
	slices.SortStableFunc(out, func(a, b companies.Filing) int {
		return cmp.Or(b.FilingDate.Compare(a.FilingDate), cmp.Compare(b.Accession, a.Accession))
	})
	return slices.CompactFunc(out, func(a, b companies.Filing) bool { return a.Accession == b.Accession }), nil
}

// checkIndexArgs checks what Index is given before anything is read and
// returns the report kinds, upper case, without duplicates: the forms
// given, an amendment form ("10-K/A") taken as its report's ("10-K"). It
// sets the defaults of the options not given.
func checkIndexArgs(names []string, asOf edgar13f.Date, o *indexOptions) ([]string, error) {
	if err := checkAsOf(asOf); err != nil {
		return nil, err
	}
	if len(names) == 0 || len(names) > MaxCompanies {
		return nil, decline(edgar13f.InvalidArgument, "Index takes 1 to %d companies, not %d", MaxCompanies, len(names))
	}
	if !o.limitSet {
		o.limit = DefaultFilings
	} else if err := bounds.Check("Limit", o.limit, 1, MaxFilings); err != nil {
		return nil, decline(edgar13f.InvalidArgument, "%v filings of each report kind", err)
	}
	given := o.forms
	if len(given) == 0 {
		given = defaultForms
	}
	var forms []string
	for _, f := range given {
		form, err := checkForm(string(f))
		if err != nil {
			return nil, err
		}
		form = strings.TrimSuffix(form, "/A")
		if !contains(forms, form) {
			forms = append(forms, form)
		}
	}
	return forms, nil
}

// checkForm returns form in upper case if it is a form with 10-K or 10-Q
// Items.
func checkForm(form string) (string, error) {
	f := strings.ToUpper(strings.TrimSpace(form))
	if sections.FormKind(f) == sections.Unsupported {
		return "", decline(edgar13f.InvalidArgument, "form %q has no Items: the filing search reads 10-K and 10-Q reports (10-K, 10-K/A, 10-KT, 10-Q, 10-Q/A, ...)", form)
	}
	return f, nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// resolve turns every company argument into a CIK, looking tickers up in
// EDGAR's current ticker list. Every argument is checked before any
// filing is listed.
func (e *Engine) resolve(ctx context.Context, names []string) ([]target, error) {
	out := make([]target, 0, len(names))
	seen := map[string]bool{}
	for _, arg := range names {
		a := strings.TrimSpace(arg)
		var t target
		switch {
		case a != "" && strings.Trim(a, "0123456789") == "":
			cik, f := check.TrimmedCIK(arg)
			if f != nil {
				return nil, declineOfCheck(f)
			}
			t = target{arg: a, cik: cik, byCIK: true}
		case isTicker(a):
			want := tickers.Norm(a)
			s, err := e.companies.Search(ctx, a, companies.Limit(1))
			if err != nil {
				return nil, err
			}
			if len(s.Matches) == 0 || s.Matches[0].Rank != "exact_ticker" {
				return nil, decline(edgar13f.InvalidArgument, "%q is none of EDGAR's current tickers (company_tickers.json); give the company's CIK instead", arg)
			}
			n, _ := edgarid.ParseCIK(s.Matches[0].CIK)
			t = target{arg: a, cik: strconv.FormatUint(n, 10), ticker: want}
		default:
			return nil, decline(edgar13f.InvalidArgument, "company %q is neither a CIK (1 to 10 digits) nor a ticker (letters, digits, '.' or '-', at most 10)", arg)
		}
		if !seen[t.cik] {
			seen[t.cik] = true
			out = append(out, t)
		}
	}
	return out, nil
}

// isTicker reports whether s looks like a ticker: 1 to 10 letters, digits
// and class separators, starting with a letter.
func isTicker(s string) bool {
	if s == "" || len(s) > 10 || !unicode.IsLetter(rune(s[0])) {
		return false
	}
	for _, r := range s {
		if !(r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) || r == '.' || r == '-' || r == '/') {
			return false
		}
	}
	return true
}

// primaryTicker returns the current primary ticker of cik, found by its
// name in EDGAR's ticker list, or "" when the list has none.
func (e *Engine) primaryTicker(ctx context.Context, cik, name string) (string, error) {
	if strings.TrimSpace(name) == "" {
		return "", nil
	}
	if len([]rune(name)) > companies.MaxQueryLen {
		name = string([]rune(name)[:companies.MaxQueryLen])
	}
	s, err := e.companies.Search(ctx, name, companies.Limit(companies.MaxMatches))
	if err != nil {
		return "", err
	}
	for _, m := range s.Matches {
		if n, ok := edgarid.ParseCIK(m.CIK); ok && strconv.FormatUint(n, 10) == cik && len(m.Tickers) > 0 {
			return m.Tickers[0], nil
		}
	}
	return "", nil
}

// indexFiling reads, chunks, embeds and stores one filing, or reports it
// reused or skipped.
func (e *Engine) indexFiling(ctx context.Context, t target, list *companies.FilingList, f companies.Filing, asOf edgar13f.Date, meta store.Meta, have map[string]store.Filing, reindex bool) (IndexedFiling, error) {
	x := IndexedFiling{
		Ticker: t.ticker, CIK: t.cik, Accession: f.Accession, Form: string(f.Form),
		FilingDate: f.FilingDate, Period: f.Period,
		FiscalYear: fiscalYear(string(f.Form), f.Period, list.FiscalYearEnd),
	}
	if asOf.Before(f.FilingDate) {
		// Companies.Filings lists only filings visible on asOf; anything
		// else is a bug that must not reach the store.
		return x, fmt.Errorf("listed although filed after %s", asOf)
	}
	if old, ok := have[f.Accession]; ok && !reindex {
		x.Ticker, x.Chunks, x.Reused = old.Ticker, old.Chunks, true
		x.FiscalYear, x.Period = old.FiscalYear, old.Period
		return x, nil
	}
	items, err := e.items(ctx, t.cik, f.Accession, asOf)
	if errors.Is(err, edgar13f.SectionNotFound) {
		x.Skipped = "no Items found: " + declineMessage(err)
		return x, nil
	}
	if err != nil {
		return x, err
	}
	var chunks []store.Chunk
	for _, it := range items {
		for _, p := range chunk.Split(it.text, chunk.MaxTokens, chunk.Overlap) {
			chunks = append(chunks, store.Chunk{
				ID: chunk.ID(f.Accession, it.item, p.Index), Accession: f.Accession,
				Item: it.item, ItemTitle: it.title, Index: p.Index, Tokens: p.Tokens, Text: p.Text,
			})
		}
	}
	if len(chunks) == 0 {
		x.Skipped = fmt.Sprintf("its %d Items hold no text", len(items))
		return x, nil
	}
	var vectors [][]float32
	if e.embedder != nil {
		if vectors, err = e.embedChunks(ctx, chunks, meta); err != nil {
			return x, err
		}
	}
	sf := store.Filing{
		Accession: f.Accession, CIK: t.cik, Ticker: t.ticker, Company: list.EntityName,
		Form: string(f.Form), FilingDate: f.FilingDate, Period: f.Period,
		FiscalYear: x.FiscalYear, URL: f.DocumentURL, Chunks: len(chunks),
	}
	if err := e.store.Put(ctx, sf, chunks, vectors, meta); err != nil {
		return x, err
	}
	x.Chunks = len(chunks)
	return x, nil
}

// declineMessage is the message of a decline, or the error's text.
func declineMessage(err error) string {
	var d *edgar13f.DeclineError
	if errors.As(err, &d) {
		return d.Message
	}
	return err.Error()
}

// embedderMeta returns the Meta the Engine's embedder writes: its model and
// dimension, learnt by embedding a short text once. Without an embedder it
// is the zero Meta.
func (e *Engine) embedderMeta(ctx context.Context) (store.Meta, error) {
	if e.embedder == nil {
		return store.Meta{}, nil
	}
	e.mu.Lock()
	dim := e.dim
	e.mu.Unlock()
	if dim == 0 {
		v, err := e.embed(ctx, []string{"dimension probe"}, 0, 0)
		if err != nil {
			return store.Meta{}, err
		}
		dim = len(v[0])
		e.mu.Lock()
		e.dim = dim
		e.mu.Unlock()
	}
	return store.Meta{Model: e.embedder.Model(), Dim: dim}, nil
}

// embedChunks embeds the chunks' texts in batches of EmbedBatch.
func (e *Engine) embedChunks(ctx context.Context, chunks []store.Chunk, meta store.Meta) ([][]float32, error) {
	out := make([][]float32, 0, len(chunks))
	texts := make([]string, 0, EmbedBatch)
	for start := 0; start < len(chunks); start += EmbedBatch {
		texts = texts[:0]
		for _, c := range chunks[start:min(start+EmbedBatch, len(chunks))] {
			texts = append(texts, c.Text)
		}
		if w := e.windowTokens(); w > 0 {
			v, err := e.embedWindows(ctx, texts, w, meta.Dim, start)
			if err != nil {
				return nil, err
			}
			out = append(out, v...)
			continue
		}
		v, err := e.embed(ctx, texts, meta.Dim, start)
		if err != nil {
			return nil, err
		}
		out = append(out, v...)
	}
	return out, nil
}

// embedWindows embeds each text as the mean of its windows of at most w
// cl100k_base tokens (see [WithWindows]), scaled to length 1.
func (e *Engine) embedWindows(ctx context.Context, texts []string, w, dim, first int) ([][]float32, error) {
	pieces, spans := windowed(texts, w)
	var pv [][]float32
	for s := 0; s < len(pieces); s += EmbedBatch {
		v, err := e.embed(ctx, pieces[s:min(s+EmbedBatch, len(pieces))], dim, first)
		if err != nil {
			return nil, err
		}
		if dim == 0 && len(v) > 0 {
			dim = len(v[0])
		}
		pv = append(pv, v...)
	}
	out := make([][]float32, len(texts))
	for i, sp := range spans {
		if sp[1]-sp[0] == 1 {
			out[i] = pv[sp[0]]
			continue
		}
		sum := make([]float64, dim)
		for _, v := range pv[sp[0]:sp[1]] {
			var n float64
			for _, x := range v {
				n += float64(x) * float64(x)
			}
			n = math.Sqrt(n)
			for j, x := range v {
				sum[j] += float64(x) / n
			}
		}
		var n float64
		for _, x := range sum {
			n += x * x
		}
		n = math.Sqrt(n)
		if n == 0 { // windows pointing opposite ways: keep the first
			out[i] = pv[sp[0]]
			continue
		}
		v := make([]float32, dim)
		for j, x := range sum {
			v[j] = float32(x / n)
		}
		out[i] = v
	}
	return out, nil
}

// embed calls the embedder and checks its answer: one finite vector per
// text, each of dimension dim (when dim is not 0), all of one dimension,
// none all zeros (a vector without direction, whose cosine similarity to
// anything is undefined). first is the place of texts[0] among the texts
// being embedded (a filing's chunks), by which an error names a text.
func (e *Engine) embed(ctx context.Context, texts []string, dim, first int) ([][]float32, error) {
	return e.checkVectors(ctx, e.embedder.Embed, texts, dim, first)
}

// embedQuery embeds a search query: with the embedder's EmbedQuery when it
// is a [QueryEmbedder], else as a passage after the query prefix
// [KnownModel] gives for the embedder's model (an HTTP embedder serving
// bge-small-en-v1.5, say). The vector is checked as embed
// checks a chunk's.
func (e *Engine) embedQuery(ctx context.Context, q string) ([][]float32, error) {
	if qe, ok := e.embedder.(QueryEmbedder); ok {
		return e.checkVectors(ctx, qe.EmbedQuery, []string{q}, 0, 0)
	}
	if m, ok := KnownModel(e.embedder.Model()); ok {
		q = m.QueryPrefix + q
	}
	return e.embed(ctx, []string{q}, 0, 0)
}

// checkVectors calls f (the embedder's Embed or EmbedQuery) and checks its
// answer as embed says.
func (e *Engine) checkVectors(ctx context.Context, f func(context.Context, []string) ([][]float32, error), texts []string, dim, first int) ([][]float32, error) {
	v, err := f(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("search: embedder %s: %w", e.embedder.Model(), err)
	}
	if len(v) != len(texts) {
		return nil, fmt.Errorf("search: embedder %s returned %d vectors for %d texts", e.embedder.Model(), len(v), len(texts))
	}
	if dim == 0 && len(v) > 0 {
		dim = len(v[0])
	}
	for i, x := range v {
		if len(x) != dim || dim == 0 {
			return nil, fmt.Errorf("search: embedder %s returned a vector of dimension %d where %d was expected (text %d)", e.embedder.Model(), len(x), dim, first+i)
		}
		zero := true
		for _, f := range x {
			if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
				return nil, fmt.Errorf("search: embedder %s returned a vector with NaN or infinite values (text %d)", e.embedder.Model(), first+i)
			}
			zero = zero && f == 0
		}
		if zero {
			return nil, fmt.Errorf("search: embedder %s returned an all-zero vector for text %d: it has no direction, so its cosine similarity to anything is undefined", e.embedder.Model(), first+i)
		}
	}
	return v, nil
}

// fiscalYear names the company's fiscal year of a report with this period
// of report, as internal/companyfacts names fiscal years: the calendar year
// in which the fiscal year ends, except that a fiscal year ending in the
// first seven days of January (a 52/53-week year closing near December 31)
// is named for the year before. A 10-K's fiscal year ends at its period of
// report; a 10-Q's at the first fye ("MMDD") on or after it. 0 when the
// period is unknown, or for a 10-Q when fye is.
func fiscalYear(form string, report edgar13f.Date, fye string) int {
	if report.IsZero() {
		return 0
	}
	end := report
	if sections.FormKind(form) != sections.Annual {
		if len(fye) != 4 {
			return 0
		}
		m, err1 := strconv.Atoi(fye[:2])
		d, err2 := strconv.Atoi(fye[2:])
		if err1 != nil || err2 != nil || m < 1 || m > 12 || d < 1 || d > 31 {
			return 0
		}
		end = monthDay(report.Year, time.Month(m), d)
		if end.Before(report) {
			end = monthDay(report.Year+1, time.Month(m), d)
		}
	}
	if end.Month == time.January && end.Day <= 7 {
		return end.Year - 1
	}
	return end.Year
}

// monthDay returns the day d of month m in year y, or the month's last day
// when it is shorter (February 29 in a common year is February 28).
func monthDay(y int, m time.Month, d int) edgar13f.Date {
	return edgar13f.Date{Year: y, Month: m, Day: min(d, civil.DaysIn(y, m))}
}
