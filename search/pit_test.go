package search

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/edgartest"
	"github.com/edgar13f/edgar13f/search/internal/chunk"
	"github.com/edgar13f/edgar13f/search/store"
	"github.com/edgar13f/edgar13f/search/store/embedded"
)

// This file holds the point-in-time property of the engine: on any corpus,
// for any query, filter and mode, the answer on asOf equals the answer of
// a store that only ever saw the filings made by asOf, and Chunk shows
// nothing of a later filing.

// pitVocabulary is small, so that queries often match several chunks and
// scores tie.
var pitVocabulary = []string{"export", "controls", "china", "revenue", "margin", "supply", "chain", "risk", "tariff", "chips", "data", "center"}

var pitCompanies = []struct{ cik, ticker, name string }{
	{"1", "AAA", "Alpha Corp"}, {"2", "BBB", "Beta Inc"}, {"20", "CCC", "Gamma Holdings"},
}

// pitCorpus draws filings with random filing dates around 2024-03-01.
func pitCorpus(t *rapid.T) []synthFiling {
	base := day("2024-03-01")
	n := rapid.IntRange(1, 8).Draw(t, "filings")
	out := make([]synthFiling, n)
	for i := range out {
		co := pitCompanies[rapid.IntRange(0, len(pitCompanies)-1).Draw(t, "company")]
		form := rapid.SampledFrom([]string{"10-K", "10-K/A", "10-Q"}).Draw(t, "form")
		filed := base.AddDays(rapid.IntRange(0, 60).Draw(t, "filed"))
		itemSet := []string{"1A", "7"}
		if form == "10-Q" {
			itemSet = []string{"I-2", "II-1A"}
		}
		items := map[string][]string{}
		for _, it := range itemSet[:rapid.IntRange(1, 2).Draw(t, "items")] {
			for range rapid.IntRange(1, 3).Draw(t, "chunks") {
				words := rapid.SliceOfN(rapid.SampledFrom(pitVocabulary), 2, 8).Draw(t, "words")
				items[it] = append(items[it], strings.Join(words, " "))
			}
		}
		out[i] = synthFiling{
			f: store.Filing{
				Accession: fmt.Sprintf("%010s-24-%06d", co.cik, i), CIK: co.cik, Ticker: co.ticker, Company: co.name,
				Form: form, FilingDate: filed, Period: filed.AddDays(-40),
				FiscalYear: rapid.IntRange(2023, 2024).Draw(t, "fiscal year"), URL: fmt.Sprintf("https://www.sec.gov/doc%d.htm", i),
			},
			items: items,
		}
	}
	return out
}

// pitQuery draws a query, its options and a description of them.
func pitQuery(t *rapid.T) (string, []SearchOption) {
	words := rapid.SliceOfN(rapid.SampledFrom(append(pitVocabulary, "unseen")), 1, 3).Draw(t, "query")
	opts := []SearchOption{
		rapid.SampledFrom([]Mode{BM25, KNN, Hybrid}).Draw(t, "mode"),
		Limit(rapid.IntRange(1, 12).Draw(t, "k")),
	}
	if rapid.Bool().Draw(t, "by company") {
		co := pitCompanies[rapid.IntRange(0, len(pitCompanies)-1).Draw(t, "filter company")]
		if rapid.Bool().Draw(t, "by ticker") {
			opts = append(opts, Ticker(co.ticker))
		} else {
			opts = append(opts, CIK(co.cik))
		}
	}
	if rapid.Bool().Draw(t, "by form") {
		opts = append(opts, FormType(rapid.SampledFrom([]edgar13f.Form{"10-K", "10-K/A", "10-Q"}).Draw(t, "filter form")))
	}
	if rapid.Bool().Draw(t, "by item") {
		opts = append(opts, Item(rapid.SampledFrom([]string{"1A", "7", "I-2", "II-1A"}).Draw(t, "filter item")))
	}
	if rapid.Bool().Draw(t, "by fiscal year") {
		opts = append(opts, FiscalYear(rapid.IntRange(2023, 2024).Draw(t, "filter fiscal year")))
	}
	return strings.Join(words, " "), opts
}

// checkPointInTime is the property: the engine over a store holding every
// filing of a random corpus (with planted faults fl) answers on asOf
// exactly as an engine over a store that was given only the filings made
// by asOf.
func checkPointInTime(t *rapid.T, open func() store.Store, fl faults) {
	ctx := context.Background()
	corpus := pitCorpus(t)
	asOf := day("2024-03-01").AddDays(rapid.IntRange(-5, 65).Draw(t, "asOf"))
	emb := HashEmbedder{Dim: 32}

	full, seen := open(), open()
	defer full.Close()
	defer seen.Close()
	order := rapid.Permutation(corpus).Draw(t, "order")
	for _, sf := range order {
		putSynth(t, full, emb, sf)
	}
	for i := len(corpus) - 1; i >= 0; i-- { // another order
		if !asOf.Before(corpus[i].f.FilingDate) {
			putSynth(t, seen, emb, corpus[i])
		}
	}
	a := &Engine{companies: nil, store: full, embedder: emb, faults: fl}
	b := &Engine{companies: nil, store: seen, embedder: emb}

	for range 3 {
		q, opts := pitQuery(t)
		ra, errA := a.Search(ctx, q, asOf, opts...)
		rb, errB := b.Search(ctx, q, asOf, opts...)
		if errB != nil {
			// A filter of an Item the form cannot have ("II-1A" of a
			// 10-K) declines alike on both stores.
			if errors.Is(errB, edgar13f.InvalidArgument) && errA != nil && errA.Error() == errB.Error() {
				continue
			}
			t.Fatalf("search %q on the store of visible filings: %v", q, errB)
		}
		if errA != nil {
			t.Fatalf("search %q on the full store: %v", q, errA)
		}
		if d := cmp.Diff(rb, ra); d != "" {
			t.Fatalf("search %q on %s differs on the full store (-visible only +full):\n%s", q, asOf, d)
		}
	}

	// Chunk: a visible chunk is the same; a later one is declined
	// not_yet_filed and the decline shows nothing of its filing.
	sf := rapid.SampledFrom(corpus).Draw(t, "chunk of")
	items := sortedKeys(sf.items)
	item := rapid.SampledFrom(items).Draw(t, "chunk item")
	id := chunk.ID(sf.f.Accession, item, rapid.IntRange(0, len(sf.items[item])-1).Draw(t, "chunk index"))
	span := rapid.IntRange(0, MaxSpan).Draw(t, "span")
	ca, errA := a.Chunk(ctx, id, asOf, Span(span))
	if !asOf.Before(sf.f.FilingDate) {
		cb, errB := b.Chunk(ctx, id, asOf, Span(span))
		if errA != nil || errB != nil {
			t.Fatalf("Chunk(%s) of a visible filing: %v, %v", id, errA, errB)
		}
		if d := cmp.Diff(cb, ca); d != "" {
			t.Fatalf("Chunk(%s) differs on the full store (-visible only +full):\n%s", id, d)
		}
		return
	}
	if edgartest.Reason(errA) != edgar13f.NotYetFiled || ca != nil {
		t.Fatalf("Chunk(%s) of a filing made after %s: %+v, %v; want not_yet_filed", id, asOf, ca, errA)
	}
	secrets := []string{sf.f.Accession, sf.f.FilingDate.String(), sf.f.Form, sf.f.Company, sf.f.Ticker, sf.f.URL, item}
	for _, texts := range sf.items {
		secrets = append(secrets, texts...)
	}
	for _, s := range secrets {
		if strings.Contains(strings.TrimPrefix(errA.Error(), "edgar13f: not_yet_filed: "), s) && !strings.Contains(id+" "+asOf.String(), s) {
			t.Fatalf("the decline of Chunk(%s) shows %q: %v", id, s, errA)
		}
	}
}

func openMem() store.Store { return newMemStore() }

// openEmbedded returns a function opening new embedded stores under t's
// temporary directory.
func openEmbedded(t *testing.T) func() store.Store {
	root := t.TempDir()
	n := 0
	return func() store.Store {
		n++
		s, err := embedded.Open(filepath.Join(root, strconv.Itoa(n)))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
}

// TestSearchPointInTime checks the property on the embedded store, the
// default, and on the in-memory store of these tests.
func TestSearchPointInTime(t *testing.T) {
	t.Run("embedded", func(t *testing.T) {
		open := openEmbedded(t)
		rapid.Check(t, func(t *rapid.T) { checkPointInTime(t, open, faults{}) })
	})
	t.Run("memory", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) { checkPointInTime(t, openMem, faults{}) })
	})
}

// TestPointInTimeCatchesPlantedLeaks plants each leak the property guards
// against and checks that the property fails.
func TestPointInTimeCatchesPlantedLeaks(t *testing.T) {
	f := flag.Lookup("rapid.nofailfile")
	if f == nil {
		t.Fatal("rapid has no -rapid.nofailfile flag")
	}
	old := f.Value.String()
	if err := flag.Set("rapid.nofailfile", "true"); err != nil {
		t.Fatal(err)
	}
	defer flag.Set("rapid.nofailfile", old)

	for _, tc := range []struct {
		name string
		fl   faults
	}{
		{"store queried without asOf, later chunks kept", faults{noAsOfFilter: true, noAsOfCheck: true}},
		{"store queried without asOf (the check refuses the answer)", faults{noAsOfFilter: true}},
		{"coverage of every stored filing", faults{coverageAll: true}},
		{"Chunk of a later filing answered", faults{noAsOfCheck: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !failsProperty(func(rt *rapid.T) { checkPointInTime(rt, openMem, tc.fl) }) {
				t.Errorf("the point-in-time property passes with the leak planted")
			}
		})
	}
}

// failsProperty reports whether rapid finds a counterexample to prop.
func failsProperty(prop func(*rapid.T)) (failed bool) {
	tb := &quietTB{}
	defer func() {
		if r := recover(); r != nil && r != errFailNow {
			panic(r)
		}
		failed = tb.failed
	}()
	rapid.Check(tb, prop)
	return tb.failed
}

var errFailNow = fmt.Errorf("quietTB: FailNow")

// quietTB is a rapid.TB that records failure without failing the test.
type quietTB struct{ failed bool }

func (q *quietTB) Helper()               {}
func (q *quietTB) Name() string          { return "TestPointInTimeCatchesPlantedLeaks" }
func (q *quietTB) Logf(string, ...any)   {}
func (q *quietTB) Log(...any)            {}
func (q *quietTB) Skipf(string, ...any)  { panic("quietTB: skip") }
func (q *quietTB) Skip(...any)           { panic("quietTB: skip") }
func (q *quietTB) SkipNow()              { panic("quietTB: skip") }
func (q *quietTB) Errorf(string, ...any) { q.failed = true }
func (q *quietTB) Error(...any)          { q.failed = true }
func (q *quietTB) Fatalf(string, ...any) { q.failed = true; panic(errFailNow) }
func (q *quietTB) Fatal(...any)          { q.failed = true; panic(errFailNow) }
func (q *quietTB) FailNow()              { q.failed = true; panic(errFailNow) }
func (q *quietTB) Fail()                 { q.failed = true }
func (q *quietTB) Failed() bool          { return q.failed }

var _ rapid.TB = (*quietTB)(nil)
