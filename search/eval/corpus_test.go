package eval

import (
	"github.com/edgar13f/edgar13f/internal/edgartest/edgarfiles"

	"bytes"
	"context"
	"flag"
	"testing"

	"github.com/edgar13f/edgar13f/search"
	"github.com/edgar13f/edgar13f/search/store/embedded"
)

var evalTable = flag.Bool("evaltable", false, "print the evaluation table of TestReferenceQueriesOnCorpus")

// indexCorpus indexes the corpus into a new embedded store (BM25 only) and
// returns the Engine.
func indexCorpus(t testing.TB, opts ...search.Option) *search.Engine {
	t.Helper()
	st, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	e, res, err := IndexCorpus(context.Background(), edgarfiles.Testdata, st, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("corpus: %d filings, %d chunks", len(res.Indexed), res.ChunksTotal)
	return e
}

// TestReferenceQueriesOnCorpus runs the reference system's published query
// set by BM25 over every report of the corpus (ten filings of five
// companies, more than the reference's eight) and requires at least the
// reference's own BM25 figures, unfiltered and filtered to the label's
// ticker. Run with -v -evaltable to see the table.
func TestReferenceQueriesOnCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes ten reports")
	}
	qs := shippedQueries(t)
	e := indexCorpus(t)
	rep, err := Run(context.Background(), e, qs, CorpusAsOf, []search.Mode{search.BM25})
	if err != nil {
		t.Fatal(err)
	}
	var table bytes.Buffer
	if err := WriteTable(&table, rep); err != nil {
		t.Fatal(err)
	}
	if *evalTable {
		t.Log("\n" + table.String())
		for _, r := range rep.Rows {
			for _, i := range r.Misses {
				t.Logf("%s %s: no relevant hit within 10 for %q (%s, Item %q, %q)", r.Setting(), r.Mode, qs[i].Q, qs[i].Ticker, qs[i].Item, qs[i].Must)
			}
		}
	}
	for _, r := range rep.Rows {
		ref := Reference[r.Setting()][r.Mode]
		if r.Queries != len(qs) {
			t.Errorf("%s %s: %d queries run; want %d", r.Setting(), r.Mode, r.Queries, len(qs))
		}
		if r.Hit1 < ref[0] || r.Hit5 < ref[1] || r.MRR10 < ref[2] {
			t.Errorf("%s %s: hit@1 %.3f, hit@5 %.3f, MRR@10 %.3f; the reference has %.3f / %.3f / %.3f\n%s",
				r.Setting(), r.Mode, r.Hit1, r.Hit5, r.MRR10, ref[0], ref[1], ref[2], table.String())
		}
	}
}
