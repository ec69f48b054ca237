// Package storetest is the conformance test kit of the filing search's
// stores: one table of cases that every implementation of [store.Store]
// must pass, the embedded store and the OpenSearch store alike.
//
// A store's own test calls [Run] with a function that opens a new, empty
// store:
//
//	func TestConformance(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) store.Store {
//			s, err := embedded.Open(t.TempDir())
//			if err != nil {
//				t.Fatal(err)
//			}
//			return s
//		})
//	}
//
// The cases check the round trip of filings and chunks, replacement per
// accession, exact filters, the asOf rule in every query, English analysis
// and BM25 ranking, cosine similarity, deterministic ties, k, the embedder
// check, atomic replacement under concurrent queries and, as a property
// over random corpora, point-in-time answers: a query on asOf gets the same
// chunks, in the same order and with the same scores, from a store that
// also holds filings made after asOf as from a store that only ever held
// the filings made by asOf.
package storetest

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/search/internal/bm25"
	"github.com/edgar13f/edgar13f/search/store"
)

// Run runs every conformance case as a subtest of t. open must return a
// new, empty store each time it is called; Run closes every store it opens
// (open may register its own cleanups with t, such as removing a
// directory or an index). Some cases open many stores (the point-in-time
// property opens two per example).
func Run(t *testing.T, open func(t *testing.T) store.Store) {
	k := &kit{open: open}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { c.run(t, k) })
	}
}

// RunParallel runs every conformance case as Run does, but side by side:
// each case's subtest calls t.Parallel, so go test's -parallel flag bounds
// how many run at once. It is for a store whose calls mostly wait on a
// server (a search cluster), where the cases one after another spend
// their time waiting. open is then called from several goroutines at
// once, and the stores it returns must not share anything a case could
// see.
func RunParallel(t *testing.T, open func(t *testing.T) store.Store) {
	k := &kit{open: open}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.run(t, k)
		})
	}
}

// cases is the conformance table, named after the rule each case checks.
var cases = []struct {
	name string
	run  func(t *testing.T, k *kit)
}{
	{"RoundTrip", testRoundTrip},
	{"FilingWithoutChunks", testFilingWithoutChunks},
	{"ReplacePerAccession", testReplace},
	{"FiltersExact", testFilters},
	{"AsOfInEveryQuery", testAsOf},
	{"EnglishAnalysis", testEnglish},
	{"BM25Ranking", testBM25Ranking},
	{"BM25Scores", testBM25Scores},
	{"LexicalCompanyAndTitle", testLexicalFields},
	{"CosineSimilarity", testCosine},
	{"TiesByChunkID", testTies},
	{"KRespected", testK},
	{"MetaMismatch", testMeta},
	{"NoVectors", testNoVectors},
	{"InvalidPut", testInvalidPut},
	{"AtomicReplaceUnderQueries", testAtomicReplace},
	{"PointInTime", testPointInTime},
}

// kit opens the stores of the cases.
type kit struct {
	open func(t *testing.T) store.Store
}

// store opens a store that is closed when the test ends.
func (k *kit) store(t *testing.T) store.Store {
	t.Helper()
	s := k.open(t)
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

var ctx = context.Background()

// Fixtures.

// meta4 is the embedder of the cases with vectors.
var meta4 = store.Meta{Model: "storetest-embed", Dim: 4}

func date(s string) edgar13f.Date { return edgar13f.MustParseDate(s) }

// farFuture is an asOf after every fixture.
var farFuture = date("2099-12-31")

// chunkID is the chunk id rule of the filing search:
// hex sha1(accession|item|index), first 16 characters.
func chunkID(accession, item string, index int) string {
	sum := sha1.Sum([]byte(accession + "|" + item + "|" + strconv.Itoa(index)))
	return hex.EncodeToString(sum[:])[:16]
}

func filing(acc, cik, ticker, form, filed string, fy int) store.Filing {
	return store.Filing{
		Accession:  acc,
		CIK:        cik,
		Ticker:     ticker,
		Company:    "Registrant " + cik, // no word of the chunk texts: see testLexicalFields
		Form:       form,
		FilingDate: date(filed),
		Period:     date(filed).AddDays(-40),
		FiscalYear: fy,
		URL:        "https://www.sec.gov/Archives/edgar/data/" + cik + "/" + strings.ReplaceAll(acc, "-", "") + "/doc.htm",
	}
}

// chunksOf returns the chunks of one Item of a filing, one per text.
func chunksOf(acc, item string, texts ...string) []store.Chunk {
	out := make([]store.Chunk, len(texts))
	for i, text := range texts {
		out[i] = store.Chunk{
			ID:        chunkID(acc, item, i),
			Accession: acc,
			Item:      item,
			ItemTitle: "Title of Item " + item,
			Index:     i,
			Tokens:    len(strings.Fields(text)),
			Text:      text,
		}
	}
	return out
}

// concat joins chunk lists.
func concat(lists ...[]store.Chunk) []store.Chunk {
	var out []store.Chunk
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// vectorsFor returns a vector per chunk, made by a fixed rule of its ID so
// that every case with vectors has some.
func vectorsFor(chunks []store.Chunk) [][]float32 {
	out := make([][]float32, len(chunks))
	for i, c := range chunks {
		v := make([]float32, meta4.Dim)
		key := c.ID + "0000"
		for j := range v {
			v[j] = float32(int(key[j])%7) - 3
		}
		out[i] = v
	}
	return out
}

// stored returns f as a store returns it: with its chunk count.
func stored(f store.Filing, chunks []store.Chunk) store.Filing {
	f.Chunks = len(chunks)
	return f
}

// put stores a filing with vectors by [vectorsFor] and meta4, failing the
// test on error.
func put(t testing.TB, s store.Store, f store.Filing, chunks []store.Chunk) {
	t.Helper()
	if err := s.Put(ctx, f, chunks, vectorsFor(chunks), meta4); err != nil {
		t.Fatalf("Put(%s): %v", f.Accession, err)
	}
}

// putLexical stores a filing without vectors.
func putLexical(t testing.TB, s store.Store, f store.Filing, chunks []store.Chunk) {
	t.Helper()
	if err := s.Put(ctx, f, chunks, nil, store.Meta{}); err != nil {
		t.Fatalf("Put(%s): %v", f.Accession, err)
	}
}

func lexical(t testing.TB, s store.Store, query string, f store.Filter, k int) []store.Match {
	t.Helper()
	m, err := s.Lexical(ctx, query, f, k)
	if err != nil {
		t.Fatalf("Lexical(%q, %+v, %d): %v", query, f, k, err)
	}
	return m
}

func nearest(t testing.TB, s store.Store, v []float32, f store.Filter, k int) []store.Match {
	t.Helper()
	m, err := s.Nearest(ctx, v, f, k)
	if err != nil {
		t.Fatalf("Nearest(%v, %+v, %d): %v", v, f, k, err)
	}
	return m
}

func filings(t testing.TB, s store.Store, asOf edgar13f.Date) []store.Filing {
	t.Helper()
	fs, err := s.Filings(ctx, asOf)
	if err != nil {
		t.Fatalf("Filings(%s): %v", asOf, err)
	}
	return fs
}

// ids returns the chunk ids of matches, in order.
func ids(ms []store.Match) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Chunk.ID
	}
	return out
}

// idsOf returns the ids of chunks, sorted.
func idsOf(chunks ...[]store.Chunk) []string {
	var out []string
	for _, l := range chunks {
		for _, c := range l {
			out = append(out, c.ID)
		}
	}
	slices.Sort(out)
	return out
}

// sortedIDs returns the chunk ids of matches, sorted.
func sortedIDs(ms []store.Match) []string {
	out := ids(ms)
	slices.Sort(out)
	return out
}

// checkRanked checks that matches are best first with ties by chunk ID.
func checkRanked(t testing.TB, what string, ms []store.Match) {
	t.Helper()
	for i := 1; i < len(ms); i++ {
		a, b := ms[i-1], ms[i]
		if a.Score < b.Score || (a.Score == b.Score && a.Chunk.ID >= b.Chunk.ID) {
			t.Errorf("%s: match %d (%s, %g) before match %d (%s, %g): not best first, ties by chunk ID", what, i-1, a.Chunk.ID, a.Score, i, b.Chunk.ID, b.Score)
		}
	}
}

// The cases.

// testRoundTrip: what Put stores, Filings, Chunk and ItemChunks return,
// and Filings' order (CIK as a number, filing date, accession) and asOf.
func testRoundTrip(t *testing.T, k *kit) {
	s := k.store(t)
	if m, err := s.Meta(ctx); err != nil || m != (store.Meta{}) {
		t.Fatalf("Meta of an empty store = %v, %v; want the zero Meta", m, err)
	}
	if fs := filings(t, s, farFuture); len(fs) != 0 {
		t.Fatalf("Filings of an empty store = %v", fs)
	}

	a := filing("0000000001-24-000010", "1", "AAA", "10-K", "2024-02-01", 2023)
	aChunks := concat(
		chunksOf(a.Accession, "1", "Business overview of the company.", "Products and services.", "Employees and culture."),
		chunksOf(a.Accession, "7", "Management discussion of results.", "Liquidity and capital resources."),
	)
	a0 := filing("0000000001-23-000004", "1", "AAA", "10-K", "2023-02-01", 2022)
	a0Chunks := chunksOf(a0.Accession, "1", "An older business overview.")
	b := filing("0000000020-24-000001", "20", "BBB", "10-Q", "2024-05-01", 2024)
	bChunks := chunksOf(b.Accession, "I-2", "Quarterly discussion.", "More quarterly discussion.")
	c := filing("0000000003-24-000002", "3", "", "10-K", "2024-03-01", 2023)
	c.Period = edgar13f.Date{} // unknown: a zero date round-trips too
	c.FiscalYear = 0
	c.URL = ""
	cChunks := chunksOf(c.Accession, "1A", "Risk factors.")

	// The chunks of a go in reverse: ItemChunks must sort them.
	rev := slices.Clone(aChunks)
	slices.Reverse(rev)
	if err := s.Put(ctx, a, rev, vectorsFor(rev), meta4); err != nil {
		t.Fatal(err)
	}
	put(t, s, b, bChunks)
	put(t, s, c, cChunks)
	put(t, s, a0, a0Chunks)

	if m, err := s.Meta(ctx); err != nil || m != meta4 {
		t.Errorf("Meta = %v, %v; want %v", m, err, meta4)
	}
	all := []store.Filing{stored(a0, a0Chunks), stored(a, aChunks), stored(c, cChunks), stored(b, bChunks)}
	for _, tc := range []struct {
		asOf string
		want []store.Filing
	}{
		{"2099-12-31", all},
		{"2024-05-01", all},
		{"2024-04-30", all[:3]},
		{"2024-02-01", all[:2]},
		{"2024-01-31", all[:1]},
		{"2023-01-31", nil},
	} {
		got := filings(t, s, date(tc.asOf))
		if diff := cmp.Diff(tc.want, got, cmp.Comparer(sameFilingList)); diff != "" {
			t.Errorf("Filings(%s) mismatch (-want +got):\n%s", tc.asOf, diff)
		}
	}

	for _, tc := range []struct {
		f      store.Filing
		chunks []store.Chunk
	}{{a, aChunks}, {a0, a0Chunks}, {b, bChunks}, {c, cChunks}} {
		for _, want := range tc.chunks {
			got, f, ok, err := s.Chunk(ctx, want.ID)
			if err != nil || !ok {
				t.Fatalf("Chunk(%s) = ok %v, %v", want.ID, ok, err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Chunk(%s) mismatch (-want +got):\n%s", want.ID, diff)
			}
			if diff := cmp.Diff(stored(tc.f, tc.chunks), f); diff != "" {
				t.Errorf("Chunk(%s) filing mismatch (-want +got):\n%s", want.ID, diff)
			}
		}
	}
	if _, _, ok, err := s.Chunk(ctx, "0123456789abcdef"); ok || err != nil {
		t.Errorf("Chunk(unknown) = ok %v, %v; want ok false, no error", ok, err)
	}

	for _, tc := range []struct {
		acc, item string
		want      []store.Chunk
	}{
		{a.Accession, "1", aChunks[:3]},
		{a.Accession, "7", aChunks[3:]},
		{a.Accession, "1A", nil},
		{b.Accession, "I-2", bChunks},
		{"0000000099-24-000001", "1", nil},
	} {
		got, err := s.ItemChunks(ctx, tc.acc, tc.item)
		if err != nil {
			t.Fatalf("ItemChunks(%s, %s): %v", tc.acc, tc.item, err)
		}
		if diff := cmp.Diff(tc.want, got, cmp.Comparer(sameChunkList)); diff != "" {
			t.Errorf("ItemChunks(%s, %s) mismatch (-want +got):\n%s", tc.acc, tc.item, diff)
		}
	}

	// A match carries its whole chunk and filing.
	ms := lexical(t, s, "liquidity", store.Filter{AsOf: farFuture}, 10)
	want := []store.Chunk{aChunks[4]}
	if len(ms) != 1 || !cmp.Equal(want[0], ms[0].Chunk) || !cmp.Equal(stored(a, aChunks), ms[0].Filing) || ms[0].Score <= 0 {
		t.Errorf("Lexical(liquidity) = %+v; want chunk %+v of filing %s with a positive score", ms, want[0], a.Accession)
	}
}

// sameFilingList treats nil and empty lists alike.
func sameFilingList(a, b []store.Filing) bool {
	if len(a) == 0 && len(b) == 0 {
		return true
	}
	return cmp.Equal([]store.Filing(a), []store.Filing(b))
}

// sameChunkList treats nil and empty lists alike.
func sameChunkList(a, b []store.Chunk) bool {
	if len(a) == 0 && len(b) == 0 {
		return true
	}
	return cmp.Equal([]store.Chunk(a), []store.Chunk(b))
}

// testFilingWithoutChunks: a filing in which no Item was found is stored
// and covered, with no chunks.
func testFilingWithoutChunks(t *testing.T, k *kit) {
	s := k.store(t)
	f := filing("0000000001-24-000001", "1", "AAA", "10-K", "2024-02-01", 2023)
	if err := s.Put(ctx, f, nil, nil, meta4); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]store.Filing{stored(f, nil)}, filings(t, s, farFuture)); diff != "" {
		t.Errorf("Filings mismatch (-want +got):\n%s", diff)
	}
	if ms := lexical(t, s, "business", store.Filter{AsOf: farFuture}, 10); len(ms) != 0 {
		t.Errorf("Lexical = %v; want no match", ms)
	}
}

// testReplace: putting an accession again replaces exactly its chunks,
// and its filing's facts, in every query; other filings keep theirs.
func testReplace(t *testing.T, k *kit) {
	s := k.store(t)
	a := filing("0000000001-24-000001", "1", "AAA", "10-K", "2024-02-01", 2023)
	v1 := concat(
		chunksOf(a.Accession, "1", "alpha one", "alpha two", "alpha three", "alpha four"),
		chunksOf(a.Accession, "7", "alpha seven"),
	)
	b := filing("0000000002-24-000001", "2", "BBB", "10-K", "2024-02-02", 2023)
	bChunks := chunksOf(b.Accession, "1", "alpha of another company", "omega of another company")
	put(t, s, a, v1)
	put(t, s, b, bChunks)

	a2 := a
	a2.Company = "Renamed Company"
	v2 := chunksOf(a.Accession, "1", "omega one", "omega two")
	put(t, s, a2, v2)

	wantFilings := []store.Filing{stored(a2, v2), stored(b, bChunks)}
	if diff := cmp.Diff(wantFilings, filings(t, s, farFuture)); diff != "" {
		t.Errorf("Filings after replacement mismatch (-want +got):\n%s", diff)
	}
	for _, c := range v1[2:] {
		if _, _, ok, err := s.Chunk(ctx, c.ID); ok || err != nil {
			t.Errorf("Chunk(%s) of the replaced version = ok %v, %v; want gone", c.ID, ok, err)
		}
	}
	got, f, ok, err := s.Chunk(ctx, v2[0].ID)
	if err != nil || !ok || !cmp.Equal(v2[0], got) || !cmp.Equal(stored(a2, v2), f) {
		t.Errorf("Chunk(%s) = %+v, %+v, %v, %v; want the new version", v2[0].ID, got, f, ok, err)
	}
	if got, err := s.ItemChunks(ctx, a.Accession, "7"); err != nil || len(got) != 0 {
		t.Errorf("ItemChunks(7) = %v, %v; want none", got, err)
	}
	all := store.Filter{AsOf: farFuture}
	if diff := cmp.Diff(idsOf(bChunks[:1]), sortedIDs(lexical(t, s, "alpha", all, 50))); diff != "" {
		t.Errorf("Lexical(alpha) after replacement mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(idsOf(v2, bChunks[1:]), sortedIDs(lexical(t, s, "omega", all, 50))); diff != "" {
		t.Errorf("Lexical(omega) after replacement mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(idsOf(v2, bChunks), sortedIDs(nearest(t, s, []float32{1, 0, 0, 0}, all, 50))); diff != "" {
		t.Errorf("Nearest after replacement mismatch (-want +got):\n%s", diff)
	}
	for _, m := range lexical(t, s, "omega", all, 50) {
		if m.Chunk.Accession == a.Accession && !cmp.Equal(stored(a2, v2), m.Filing) {
			t.Errorf("Lexical(omega) match of %s has filing %+v; want the new one", m.Chunk.ID, m.Filing)
		}
	}

	// A replacement that moves the filing date moves the filing in time.
	a3 := a2
	a3.FilingDate = date("2024-06-01")
	put(t, s, a3, v2)
	asOf := store.Filter{AsOf: date("2024-05-01")}
	if diff := cmp.Diff([]store.Filing{stored(b, bChunks)}, filings(t, s, asOf.AsOf)); diff != "" {
		t.Errorf("Filings(%s) after the date moved mismatch (-want +got):\n%s", asOf.AsOf, diff)
	}
	if diff := cmp.Diff(idsOf(bChunks[1:]), sortedIDs(lexical(t, s, "omega", asOf, 50))); diff != "" {
		t.Errorf("Lexical(omega, %s) after the date moved mismatch (-want +got):\n%s", asOf.AsOf, diff)
	}
}

// filterCorpus is the corpus of the filter and asOf cases: two companies,
// a 10-K and its 10-K/A, a 10-Q, Items that share a suffix.
type filterCorpus struct {
	f1, f2, f3, f4      store.Filing
	f1i1, f1i1a, f2i1a  []store.Chunk
	f3i1a, f3i7, f4ii1a []store.Chunk
	query               string
	vector              []float32
}

func newFilterCorpus(t *testing.T, s store.Store) *filterCorpus {
	c := &filterCorpus{query: "risk", vector: []float32{1, 1, 1, 1}}
	c.f1 = filing("0000000001-24-000001", "1", "AAA", "10-K", "2024-02-01", 2023)
	c.f2 = filing("0000000001-24-000009", "1", "AAA", "10-K/A", "2024-04-01", 2023)
	c.f3 = filing("0000000002-25-000001", "2", "BBB", "10-K", "2025-02-01", 2024)
	c.f4 = filing("0000000002-25-000005", "2", "BBB", "10-Q", "2025-05-01", 2025)
	c.f1i1 = chunksOf(c.f1.Accession, "1", "business risk one", "business risk two")
	c.f1i1a = chunksOf(c.f1.Accession, "1A", "risk factors one", "risk factors two", "risk factors three")
	c.f2i1a = chunksOf(c.f2.Accession, "1A", "amended risk factors")
	c.f3i1a = chunksOf(c.f3.Accession, "1A", "risk factors of another year")
	c.f3i7 = chunksOf(c.f3.Accession, "7", "discussion of risk", "more discussion of risk")
	c.f4ii1a = chunksOf(c.f4.Accession, "II-1A", "quarterly risk factors")
	put(t, s, c.f1, concat(c.f1i1, c.f1i1a))
	put(t, s, c.f2, c.f2i1a)
	put(t, s, c.f3, concat(c.f3i1a, c.f3i7))
	put(t, s, c.f4, c.f4ii1a)
	return c
}

// both runs a query by Lexical and by Nearest (k 50) and checks that each
// returns exactly the chunks want.
func (c *filterCorpus) both(t *testing.T, s store.Store, f store.Filter, want []string) {
	t.Helper()
	if want == nil {
		want = []string{}
	}
	lex := lexical(t, s, c.query, f, 50)
	checkRanked(t, "Lexical", lex)
	if diff := cmp.Diff(want, sortedIDs(lex)); diff != "" {
		t.Errorf("Lexical(%q, %+v) mismatch (-want +got):\n%s", c.query, f, diff)
	}
	near := nearest(t, s, c.vector, f, 50)
	checkRanked(t, "Nearest", near)
	if diff := cmp.Diff(want, sortedIDs(near)); diff != "" {
		t.Errorf("Nearest(%+v) mismatch (-want +got):\n%s", f, diff)
	}
}

// testFilters: each Filter field is exact, alone and combined.
func testFilters(t *testing.T, k *kit) {
	s := k.store(t)
	c := newFilterCorpus(t, s)
	asOf := farFuture
	for _, tc := range []struct {
		name string
		f    store.Filter
		want []string
	}{
		{"none", store.Filter{}, idsOf(c.f1i1, c.f1i1a, c.f2i1a, c.f3i1a, c.f3i7, c.f4ii1a)},
		{"ticker", store.Filter{Ticker: "AAA"}, idsOf(c.f1i1, c.f1i1a, c.f2i1a)},
		{"unknown ticker", store.Filter{Ticker: "AA"}, nil},
		{"cik", store.Filter{CIK: "2"}, idsOf(c.f3i1a, c.f3i7, c.f4ii1a)},
		{"form 10-K is not 10-K/A", store.Filter{Form: "10-K"}, idsOf(c.f1i1, c.f1i1a, c.f3i1a, c.f3i7)},
		{"form 10-K/A", store.Filter{Form: "10-K/A"}, idsOf(c.f2i1a)},
		{"form 10-Q", store.Filter{Form: "10-Q"}, idsOf(c.f4ii1a)},
		{"item 1A is not II-1A", store.Filter{Item: "1A"}, idsOf(c.f1i1a, c.f2i1a, c.f3i1a)},
		{"item 1", store.Filter{Item: "1"}, idsOf(c.f1i1)},
		{"item II-1A", store.Filter{Item: "II-1A"}, idsOf(c.f4ii1a)},
		{"fiscal year", store.Filter{FiscalYear: 2023}, idsOf(c.f1i1, c.f1i1a, c.f2i1a)},
		{"fiscal year 2024", store.Filter{FiscalYear: 2024}, idsOf(c.f3i1a, c.f3i7)},
		{"ticker, form and item", store.Filter{Ticker: "AAA", Form: "10-K", Item: "1A"}, idsOf(c.f1i1a)},
		{"cik and fiscal year", store.Filter{CIK: "2", FiscalYear: 2025}, idsOf(c.f4ii1a)},
		{"ticker and another company's year", store.Filter{Ticker: "BBB", FiscalYear: 2023}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := tc.f
			f.AsOf = asOf
			c.both(t, s, f, tc.want)
		})
	}
}

// testAsOf: no query returns a chunk of a filing made after asOf; a
// filing made on asOf is visible; asOf is required.
func testAsOf(t *testing.T, k *kit) {
	s := k.store(t)
	c := newFilterCorpus(t, s)
	for _, tc := range []struct {
		asOf string
		f    store.Filter
		want []string
	}{
		{"2024-01-31", store.Filter{}, nil},
		{"2024-02-01", store.Filter{}, idsOf(c.f1i1, c.f1i1a)},
		{"2024-03-31", store.Filter{}, idsOf(c.f1i1, c.f1i1a)},
		{"2024-04-01", store.Filter{}, idsOf(c.f1i1, c.f1i1a, c.f2i1a)},
		{"2025-04-30", store.Filter{}, idsOf(c.f1i1, c.f1i1a, c.f2i1a, c.f3i1a, c.f3i7)},
		{"2025-05-01", store.Filter{}, idsOf(c.f1i1, c.f1i1a, c.f2i1a, c.f3i1a, c.f3i7, c.f4ii1a)},
		{"2024-03-31", store.Filter{Form: "10-K/A"}, nil},
		{"2025-01-31", store.Filter{Ticker: "BBB"}, nil},
		{"2025-02-01", store.Filter{Item: "1A"}, idsOf(c.f1i1a, c.f2i1a, c.f3i1a)},
	} {
		t.Run(tc.asOf, func(t *testing.T) {
			f := tc.f
			f.AsOf = date(tc.asOf)
			c.both(t, s, f, tc.want)
		})
	}
	if _, err := s.Lexical(ctx, "risk", store.Filter{}, 10); err == nil {
		t.Error("Lexical without AsOf: no error")
	}
	if _, err := s.Nearest(ctx, c.vector, store.Filter{}, 10); err == nil {
		t.Error("Nearest without AsOf: no error")
	}
}

// testEnglish: the lexical query and the chunks are analysed alike in
// English: lower case, possessives, stop words, Porter stemming.
func testEnglish(t *testing.T, k *kit) {
	s := k.store(t)
	f := filing("0000000001-24-000001", "1", "AAA", "10-K", "2024-02-01", 2023)
	chunks := chunksOf(f.Accession, "1",
		"The company earned regulatory credits from vehicle sales.",     // 0
		"Manufactured goods were shipped to customers.",                 // 1
		"The of and to in a is it that this was with be by.",            // 2: stop words only
		"TESLA'S battery supply chain.",                                 // 3
		"Exports to China face new export controls.",                    // 4
		"Quarterly revenue grew as the company expanded distributions.", // 5
	)
	putLexical(t, s, f, chunks)
	id := func(i ...int) []string {
		out := []string{}
		for _, j := range i {
			out = append(out, chunks[j].ID)
		}
		slices.Sort(out)
		return out
	}
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"credit", id(0)},
		{"CREDITS", id(0)},
		{"Credit", id(0)},
		{"vehicles", id(0)},
		{"manufacturing", id(1)},
		{"manufacture", id(1)},
		{"ship", id(1)},
		{"customer", id(1)},
		{"tesla", id(3)},
		{"Tesla's", id(3)},
		{"batteries", id(3)},
		{"exported", id(4)},
		{"controlling", id(4)},
		{"the credits", id(0)},        // "the" would match the stop-word chunk
		{"the of and to in", id()},    // nothing but stop words
		{"with credit be", id(0)},     // stop words ignored around a term
		{"distribution", id(5)},       // plural
		{"expanding revenues", id(5)}, // both stems
		{"company", id(0, 5)},
		{"zebra", id()},
		{"", id()},
	} {
		ms := lexical(t, s, tc.query, store.Filter{AsOf: farFuture}, 50)
		checkRanked(t, "Lexical("+tc.query+")", ms)
		if diff := cmp.Diff(tc.want, sortedIDs(ms)); diff != "" {
			t.Errorf("Lexical(%q) mismatch (-want +got):\n%s", tc.query, diff)
		}
	}
}

// testLexicalFields: a chunk is scored by [store.LexicalText], its
// filing's company name and its Item title as well as its text, and a
// match still returns the chunk's text alone.
func testLexicalFields(t *testing.T, k *kit) {
	s := k.store(t)
	zephyr := filing("0000000001-24-000001", "1", "ZPH", "10-K", "2024-02-01", 2023)
	zephyr.Company = "Zephyr Motors Inc."
	acme := filing("0000000002-24-000001", "2", "ACM", "10-K", "2024-02-01", 2023)
	acme.Company = "Acme Foods Corp."
	risks := func(f store.Filing, texts ...string) []store.Chunk {
		cs := chunksOf(f.Accession, "1A", texts...)
		for i := range cs {
			cs[i].ItemTitle = "Risk Factors"
		}
		return cs
	}
	props := func(f store.Filing, texts ...string) []store.Chunk {
		cs := chunksOf(f.Accession, "2", texts...)
		for i := range cs {
			cs[i].ItemTitle = "Properties"
		}
		return cs
	}
	// Each report calls itself "the Company": its name is in no text.
	zc := concat(risks(zephyr, "The Company depends on battery suppliers.", "Demand for vehicles may fall."),
		props(zephyr, "The Company owns three plants."))
	ac := concat(risks(acme, "The Company depends on battery suppliers for its trucks and battery packs for its refrigeration units.", "Crop prices may rise."),
		props(acme, "The Company leases warehouses."))
	putLexical(t, s, zephyr, zc)
	putLexical(t, s, acme, ac)
	all := store.Filter{AsOf: farFuture}
	ids := func(cs ...store.Chunk) []string {
		out := []string{}
		for _, c := range cs {
			out = append(out, c.ID)
		}
		slices.Sort(out)
		return out
	}
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"zephyr", ids(zc...)},            // the company name alone
		{"acme foods", ids(ac...)},        // every word of it
		{"properties", ids(zc[2], ac[2])}, // the Item title alone
		{"risk factors", ids(zc[0], zc[1], ac[0], ac[1])},
		{"warehouses", ids(ac[2])}, // the text, as before
	} {
		ms := lexical(t, s, tc.query, all, 50)
		checkRanked(t, "Lexical("+tc.query+")", ms)
		if diff := cmp.Diff(tc.want, sortedIDs(ms)); diff != "" {
			t.Errorf("Lexical(%q) mismatch (-want +got):\n%s", tc.query, diff)
		}
		for _, m := range ms {
			if want := chunkText(zc, ac, m.Chunk.ID); m.Chunk.Text != want {
				t.Errorf("Lexical(%q) returned text %q for chunk %s; want its own text %q", tc.query, m.Chunk.Text, m.Chunk.ID, want)
			}
		}
	}
	// Naming the company puts its chunk first, ahead of another company's
	// chunk that matches the topic words more often.
	ms := lexical(t, s, "Zephyr battery suppliers", all, 50)
	if len(ms) < 2 || ms[0].Chunk.ID != zc[0].ID {
		t.Errorf("Lexical(Zephyr battery suppliers) ranks %v first; want %s (Zephyr's battery risk)", sortedIDs(ms[:min(1, len(ms))]), zc[0].ID)
	}
}

// chunkText returns the text of the chunk id among lists.
func chunkText(a, b []store.Chunk, id string) string {
	for _, c := range concat(a, b) {
		if c.ID == id {
			return c.Text
		}
	}
	return ""
}

// testBM25Ranking: the three effects of BM25, each with the others held
// equal: term frequency (saturating), document length, and term rarity;
// and a chunk matching more query terms ranks above one matching fewer.
func testBM25Ranking(t *testing.T, k *kit) {
	s := k.store(t)
	f := filing("0000000001-24-000001", "1", "AAA", "10-K", "2024-02-01", 2023)
	chunks := chunksOf(f.Accession, "1",
		"zinc zinc zinc nickel",   // 0: tf 3, length 4
		"zinc nickel copper iron", // 1: tf 1, length 4
		"cobalt lithium",          // 2: length 2
		"cobalt lithium graphite manganese silicon tin titanium tungsten", // 3: length 8
		"uranium",             // 4: a common term...
		"uranium",             // 5
		"uranium",             // 6
		"thorium",             // 7: ...and a rare one, both length 1
		"helium neon argon",   // 8: matches three of three terms
		"helium neon krypton", // 9: matches two
		"helium xenon radon",  // 10: matches one
	)
	putLexical(t, s, f, chunks)
	all := store.Filter{AsOf: farFuture}
	score := func(query string, i int) float64 {
		t.Helper()
		for _, m := range lexical(t, s, query, all, 50) {
			if m.Chunk.ID == chunks[i].ID {
				return m.Score
			}
		}
		t.Fatalf("Lexical(%q) misses chunk %d", query, i)
		return 0
	}
	for _, tc := range []struct {
		name, query   string
		better, worse int
	}{
		{"term frequency", "zinc", 0, 1},
		{"document length", "cobalt", 2, 3},
		{"rarity", "uranium thorium", 7, 4},
		{"more terms matched", "helium neon argon", 8, 9},
		{"more terms matched again", "helium neon argon", 9, 10},
	} {
		b, w := score(tc.query, tc.better), score(tc.query, tc.worse)
		if !(b > w) || w <= 0 {
			t.Errorf("%s: Lexical(%q) scores chunk %d %g and chunk %d %g; want the first higher, both positive", tc.name, tc.query, tc.better, b, tc.worse, w)
		}
	}
	// Saturation: three times the term is not three times the score.
	if b, w := score("zinc", 0), score("zinc", 1); b >= 3*w {
		t.Errorf("term frequency does not saturate: %g for tf 3, %g for tf 1", b, w)
	}
}

// testBM25Scores: every Lexical answer is the one BM25 as the store
// contract states it gives, chunk for chunk and score for score (to 1e-9
// relative): terms of bleve's "en" analyzer (its stop words, which are
// more than Lucene's English ones, and its stemming) over
// [store.LexicalText]; each distinct query term once, however often the
// query repeats it; idf = ln(1 + (N − df + 0.5)/(df + 0.5)) and Lucene's
// idf·tf/(tf + k1·(1 − b + b·dl/avgdl)) with k1 1.2, b 0.75, where N, df
// and avgdl count the chunks of the filings visible on asOf, before any
// other filter; dl counts a chunk's terms, stop words not counted. Two
// stores that pass it score every query alike.
func testBM25Scores(t *testing.T, k *kit) {
	s := k.store(t)
	a := filing("0000000001-24-000001", "1", "AAA", "10-K", "2024-02-01", 2023)
	a.Company = "Alpha Metals Inc."
	b := filing("0000000002-24-000002", "2", "BBB", "10-K", "2024-03-01", 2023)
	b.Company = "Beta Foods Corp."
	c := filing("0000000003-25-000003", "3", "CCC", "10-Q", "2025-03-01", 2025)
	c.Company = "Gamma Exports Co."
	corpus := []struct {
		f      store.Filing
		chunks []store.Chunk
	}{
		{a, concat(
			chunksOf(a.Accession, "1A",
				"We have been subject to export controls, and our exports of metals would be restricted.",
				"Our company's suppliers have raised prices; we would pass them on to our customers.",
				"Export controls. Export licences. Export duties on exported goods about which we know little.",
				"The of and to in a is it that this was with be by.",
			),
			chunksOf(a.Accession, "7", "Revenue grew 12% as metals prices rose; our margins were about 40%."),
		)},
		{b, concat(
			chunksOf(b.Accession, "1A",
				"Food safety regulations could affect our exports and our suppliers' costs.",
				"We depend on a few suppliers of grain, which have long contracts with us.",
			),
			chunksOf(b.Accession, "7", "Revenues rose; margins were lower because grain prices rose faster than our prices."),
		)},
		{c, chunksOf(c.Accession, "II-1A",
			"New export controls restrict our exports of goods to several countries.",
			"Exports, exports and exports: our business is exports.",
		)},
	}
	for _, fc := range corpus {
		for i := range fc.chunks {
			if fc.chunks[i].Item == "7" {
				fc.chunks[i].ItemTitle = "Management's Discussion and Analysis"
			}
		}
		putLexical(t, s, fc.f, fc.chunks)
	}
	// want is the answer by the formula, over every chunk of the corpus.
	want := func(query string, f store.Filter, k int) []store.Match {
		type doc struct {
			f  store.Filing
			c  store.Chunk
			tf map[string]int64
			dl int64
		}
		var visible []doc
		for _, fc := range corpus {
			if f.AsOf.Before(fc.f.FilingDate) {
				continue
			}
			for _, ch := range fc.chunks {
				d := doc{f: stored(fc.f, fc.chunks), c: ch, tf: map[string]int64{}}
				for _, term := range bm25.Terms(store.LexicalText(fc.f, ch)) {
					d.tf[term]++
					d.dl++
				}
				visible = append(visible, d)
			}
		}
		var length int64
		for _, d := range visible {
			length += d.dl
		}
		n := int64(len(visible))
		if n == 0 || length == 0 {
			return nil
		}
		avgdl := float64(length) / float64(n)
		var out []store.Match
		for _, d := range visible {
			if !passes(store.Match{Chunk: d.c, Filing: d.f}, f) {
				continue
			}
			score, hit := 0.0, false
			for _, term := range bm25.QueryTerms(query) {
				tf := d.tf[term]
				if tf == 0 {
					continue
				}
				var df int64
				for _, o := range visible {
					if o.tf[term] > 0 {
						df++
					}
				}
				idf := math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
				x := float64(tf)
				score += idf * x / (x + 1.2*(1-0.75+0.75*float64(d.dl)/avgdl))
				hit = true
			}
			if hit {
				out = append(out, store.Match{Chunk: d.c, Filing: d.f, Score: score})
			}
		}
		slices.SortFunc(out, func(x, y store.Match) int {
			if x.Score != y.Score {
				if x.Score > y.Score {
					return -1
				}
				return 1
			}
			return strings.Compare(x.Chunk.ID, y.Chunk.ID)
		})
		return out[:min(k, len(out))]
	}
	mid, all := date("2024-12-31"), farFuture
	for _, tc := range []struct {
		query string
		f     store.Filter
		k     int
	}{
		{"export controls", store.Filter{AsOf: all}, 50},
		{"export controls", store.Filter{AsOf: mid}, 50},
		{"export controls", store.Filter{AsOf: all}, 2},
		{"export export export controls", store.Filter{AsOf: all}, 50}, // a repeated term counts once
		{"we have our suppliers", store.Filter{AsOf: all}, 50},         // stop words of bleve's list
		{"would about which suppliers", store.Filter{AsOf: mid}, 50},
		{"company's suppliers' prices", store.Filter{AsOf: all}, 50}, // possessives
		{"metals revenues", store.Filter{AsOf: all}, 50},             // the company name and the text
		{"management discussion margins", store.Filter{AsOf: all}, 50},
		{"exports prices", store.Filter{AsOf: all, Ticker: "BBB"}, 50}, // a filter narrows the chunks, not the statistics
		{"exports prices", store.Filter{AsOf: mid, Item: "1A"}, 50},
		{"12% 40%", store.Filter{AsOf: all}, 50},
	} {
		what := fmt.Sprintf("Lexical(%q, asOf %s, ticker %q, item %q, k %d)", tc.query, tc.f.AsOf, tc.f.Ticker, tc.f.Item, tc.k)
		got, exp := lexical(t, s, tc.query, tc.f, tc.k), want(tc.query, tc.f, tc.k)
		if len(exp) == 0 {
			t.Fatalf("%s: the formula finds nothing; the case is wrong", what)
		}
		if diff := cmp.Diff(ids(exp), ids(got)); diff != "" {
			t.Errorf("%s: chunks (-want +got):\n%s", what, diff)
			continue
		}
		for i := range got {
			if w, g := exp[i].Score, got[i].Score; math.Abs(g-w) > 1e-9*w {
				t.Errorf("%s: match %d (%s) scored %.17g; BM25 gives %.17g", what, i, got[i].Chunk.ID, g, w)
			}
			if !cmp.Equal(exp[i].Filing, got[i].Filing) {
				t.Errorf("%s: match %d carries filing %+v; want %+v", what, i, got[i].Filing, exp[i].Filing)
			}
		}
	}
}

// testCosine: Nearest ranks by cosine similarity (the angle, not the
// length), best first, ties by chunk ID.
func testCosine(t *testing.T, k *kit) {
	s := k.store(t)
	f := filing("0000000001-24-000001", "1", "AAA", "10-K", "2024-02-01", 2023)
	chunks := chunksOf(f.Accession, "1", "a", "b", "c", "d", "e", "f")
	vectors := [][]float32{
		{1, 0, 0, 0},  // 0: cos 1
		{1, 1, 0, 0},  // 1: cos 0.7071
		{0, 1, 0, 0},  // 2: cos 0
		{-1, 0, 0, 0}, // 3: cos -1
		{5, 0, 0, 0},  // 4: cos 1, longer
		{3, 0, 4, 0},  // 5: cos 0.6
	}
	if err := s.Put(ctx, f, chunks, vectors, meta4); err != nil {
		t.Fatal(err)
	}
	want := []struct {
		i     int
		score float64
	}{{0, 1}, {4, 1}, {1, math.Sqrt2 / 2}, {5, 0.6}, {2, 0}, {3, -1}}
	if chunks[4].ID < chunks[0].ID {
		want[0], want[1] = want[1], want[0]
	}
	for _, q := range [][]float32{{1, 0, 0, 0}, {0.25, 0, 0, 0}} {
		ms := nearest(t, s, q, store.Filter{AsOf: farFuture}, 10)
		if len(ms) != len(want) {
			t.Fatalf("Nearest(%v) = %d matches; want %d", q, len(ms), len(want))
		}
		for j, w := range want {
			if ms[j].Chunk.ID != chunks[w.i].ID || math.Abs(ms[j].Score-w.score) > 1e-6 {
				t.Errorf("Nearest(%v) match %d = chunk %s score %g; want chunk %d (%s) score %g", q, j, ms[j].Chunk.ID, ms[j].Score, w.i, chunks[w.i].ID, w.score)
			}
		}
	}
	if _, err := s.Nearest(ctx, []float32{1, 0, 0}, store.Filter{AsOf: farFuture}, 10); err == nil {
		t.Error("Nearest with a vector of dimension 3 in a store of dimension 4: no error")
	}
}

// testTies: equal scores are ordered by chunk ID, and k cuts a tie at the
// smallest IDs, in both kinds of query.
func testTies(t *testing.T, k *kit) {
	s := k.store(t)
	f1 := filing("0000000001-24-000001", "1", "AAA", "10-K", "2024-02-01", 2023)
	f2 := filing("0000000002-24-000001", "2", "BBB", "10-K", "2024-02-02", 2023)
	c1 := chunksOf(f1.Accession, "1", "identical words here", "identical words here", "other text")
	c2 := chunksOf(f2.Accession, "7", "identical words here", "identical words here", "identical words here")
	same := []float32{1, 2, 3, 4}
	v1 := [][]float32{same, same, {4, 3, 2, 1}}
	v2 := [][]float32{same, same, same}
	if err := s.Put(ctx, f1, c1, v1, meta4); err != nil {
		t.Fatal(err)
	}
	if err := s.Put(ctx, f2, c2, v2, meta4); err != nil {
		t.Fatal(err)
	}
	tied := idsOf(c1[:2], c2)
	all := store.Filter{AsOf: farFuture}
	for _, kk := range []int{3, 5, 10} {
		n := min(kk, len(tied))
		lex := lexical(t, s, "identical words", all, kk)
		if diff := cmp.Diff(tied[:n], ids(lex)); diff != "" {
			t.Errorf("Lexical k=%d mismatch (-want +got):\n%s", kk, diff)
		}
		for _, m := range lex {
			if m.Score != lex[0].Score {
				t.Errorf("Lexical k=%d: tied chunks scored %g and %g", kk, lex[0].Score, m.Score)
			}
		}
		near := nearest(t, s, same, all, kk)
		wantNear := tied[:n]
		if kk > len(tied) {
			wantNear = append(slices.Clone(tied), c1[2].ID) // cosine 2/3, after the ties
		}
		if diff := cmp.Diff(wantNear, ids(near)); diff != "" {
			t.Errorf("Nearest k=%d mismatch (-want +got):\n%s", kk, diff)
		}
	}
	// The same query twice gives the same answer.
	if a, b := lexical(t, s, "identical other", all, 10), lexical(t, s, "identical other", all, 10); !cmp.Equal(a, b) {
		t.Errorf("Lexical differs between two runs:\n%v\n%v", a, b)
	}
}

// testK: k bounds the matches, and a smaller k returns a prefix of a
// larger one.
func testK(t *testing.T, k *kit) {
	s := k.store(t)
	f := filing("0000000001-24-000001", "1", "AAA", "10-K", "2024-02-01", 2023)
	var texts []string
	for i := range 12 {
		texts = append(texts, "supply "+strings.Repeat("chain ", i%4)+"word"+strconv.Itoa(i))
	}
	chunks := chunksOf(f.Accession, "1", texts...)
	put(t, s, f, chunks)
	all := store.Filter{AsOf: farFuture}
	fullLex := lexical(t, s, "supply chain", all, 50)
	fullNear := nearest(t, s, []float32{1, -1, 2, 0}, all, 50)
	if len(fullLex) != 12 || len(fullNear) != 12 {
		t.Fatalf("k=50: %d lexical and %d nearest matches; want 12", len(fullLex), len(fullNear))
	}
	for _, kk := range []int{1, 2, 5, 12, 13} {
		n := min(kk, 12)
		if diff := cmp.Diff(fullLex[:n], lexical(t, s, "supply chain", all, kk)); diff != "" {
			t.Errorf("Lexical k=%d mismatch (-want +got):\n%s", kk, diff)
		}
		if diff := cmp.Diff(fullNear[:n], nearest(t, s, []float32{1, -1, 2, 0}, all, kk)); diff != "" {
			t.Errorf("Nearest k=%d mismatch (-want +got):\n%s", kk, diff)
		}
	}
}

// testMeta: the embedder is recorded by the first Put; a Put of another
// embedder, another dimension, or without vectors is refused with a
// *MismatchError naming both, and stores nothing.
func testMeta(t *testing.T, k *kit) {
	s := k.store(t)
	f := filing("0000000001-24-000001", "1", "AAA", "10-K", "2024-02-01", 2023)
	chunks := chunksOf(f.Accession, "1", "first text", "second text")
	put(t, s, f, chunks)
	if m, err := s.Meta(ctx); err != nil || m != meta4 {
		t.Fatalf("Meta = %v, %v; want %v", m, err, meta4)
	}
	g := filing("0000000002-24-000001", "2", "BBB", "10-K", "2024-02-01", 2023)
	for _, tc := range []struct {
		name    string
		meta    store.Meta
		vectors [][]float32
	}{
		{"other model", store.Meta{Model: "other-embed", Dim: 4}, [][]float32{{1, 2, 3, 4}}},
		{"other dimension", store.Meta{Model: meta4.Model, Dim: 8}, [][]float32{{1, 2, 3, 4, 5, 6, 7, 8}}},
		{"no embedder", store.Meta{}, nil},
	} {
		for _, target := range []store.Filing{g, f} { // a new filing, and a replacement
			err := s.Put(ctx, target, chunksOf(target.Accession, "1", "third text"), tc.vectors, tc.meta)
			var me *store.MismatchError
			if !errors.As(err, &me) || me.Stored != meta4 || me.Given != tc.meta {
				t.Errorf("%s: Put(%s) = %v; want a *store.MismatchError{%v, %v}", tc.name, target.Accession, err, meta4, tc.meta)
			}
		}
	}
	if diff := cmp.Diff([]store.Filing{stored(f, chunks)}, filings(t, s, farFuture)); diff != "" {
		t.Errorf("Filings after refused Puts mismatch (-want +got):\n%s", diff)
	}
	if m, err := s.Meta(ctx); err != nil || m != meta4 {
		t.Errorf("Meta after refused Puts = %v, %v; want %v", m, err, meta4)
	}
	if diff := cmp.Diff(idsOf(chunks), sortedIDs(lexical(t, s, "text", store.Filter{AsOf: farFuture}, 10))); diff != "" {
		t.Errorf("Lexical after refused Puts mismatch (-want +got):\n%s", diff)
	}
}

// testNoVectors: a store built without an embedder (and an empty store)
// answers Nearest with ErrNoVectors, and refuses vectors later.
func testNoVectors(t *testing.T, k *kit) {
	s := k.store(t)
	all := store.Filter{AsOf: farFuture}
	if _, err := s.Nearest(ctx, []float32{1, 0, 0, 0}, all, 10); !errors.Is(err, store.ErrNoVectors) {
		t.Errorf("Nearest on an empty store = %v; want ErrNoVectors", err)
	}
	f := filing("0000000001-24-000001", "1", "AAA", "10-K", "2024-02-01", 2023)
	chunks := chunksOf(f.Accession, "1", "lexical only")
	putLexical(t, s, f, chunks)
	if m, err := s.Meta(ctx); err != nil || m != (store.Meta{}) {
		t.Errorf("Meta of a store without vectors = %v, %v; want the zero Meta", m, err)
	}
	if _, err := s.Nearest(ctx, []float32{1, 0, 0, 0}, all, 10); !errors.Is(err, store.ErrNoVectors) {
		t.Errorf("Nearest = %v; want ErrNoVectors", err)
	}
	g := filing("0000000002-24-000001", "2", "BBB", "10-K", "2024-02-01", 2023)
	err := s.Put(ctx, g, chunksOf(g.Accession, "1", "with vectors"), [][]float32{{1, 2, 3, 4}}, meta4)
	var me *store.MismatchError
	if !errors.As(err, &me) || me.Stored != (store.Meta{}) || me.Given != meta4 {
		t.Errorf("Put with vectors into a store without = %v; want a *store.MismatchError", err)
	}
	if ms := lexical(t, s, "lexical", all, 10); len(ms) != 1 {
		t.Errorf("Lexical = %v; want one match", ms)
	}
}

// testInvalidPut: a Put whose chunks or vectors do not fit the filing is
// refused and stores nothing.
func testInvalidPut(t *testing.T, k *kit) {
	s := k.store(t)
	f := filing("0000000001-24-000001", "1", "AAA", "10-K", "2024-02-01", 2023)
	good := chunksOf(f.Accession, "1", "good text one", "good text two")
	put(t, s, f, good)

	g := filing("0000000002-24-000001", "2", "BBB", "10-K", "2024-02-01", 2023)
	gc := chunksOf(g.Accession, "1", "bad text one", "bad text two")
	wrongAcc := slices.Clone(gc)
	wrongAcc[1].Accession = f.Accession
	dup := slices.Clone(gc)
	dup[1].ID = dup[0].ID
	noID := slices.Clone(gc)
	noID[0].ID = ""
	for _, tc := range []struct {
		name    string
		f       store.Filing
		chunks  []store.Chunk
		vectors [][]float32
		meta    store.Meta
	}{
		{"fewer vectors than chunks", g, gc, vectorsFor(gc)[:1], meta4},
		{"vector of another dimension", g, gc, [][]float32{{1, 2, 3, 4}, {1, 2, 3}}, meta4},
		{"embedder without vectors", g, gc, nil, meta4},
		{"chunk of another accession", g, wrongAcc, vectorsFor(wrongAcc), meta4},
		{"duplicate chunk id", g, dup, vectorsFor(dup), meta4},
		{"chunk without id", g, noID, vectorsFor(noID), meta4},
		{"no accession", store.Filing{CIK: "2", FilingDate: date("2024-01-01")}, nil, nil, meta4},
		{"no filing date", store.Filing{Accession: g.Accession, CIK: "2"}, nil, nil, meta4},
		{"replacement with fewer vectors", f, good, vectorsFor(good)[:1], meta4},
	} {
		if err := s.Put(ctx, tc.f, tc.chunks, tc.vectors, tc.meta); err == nil {
			t.Errorf("%s: Put succeeded", tc.name)
		}
	}
	if diff := cmp.Diff([]store.Filing{stored(f, good)}, filings(t, s, farFuture)); diff != "" {
		t.Errorf("Filings after invalid Puts mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(idsOf(good), sortedIDs(lexical(t, s, "text", store.Filter{AsOf: farFuture}, 10))); diff != "" {
		t.Errorf("Lexical after invalid Puts mismatch (-want +got):\n%s", diff)
	}
}

// testAtomicReplace: while one goroutine replaces a filing again and
// again, queries in others see either all of one version's chunks or all
// of the next's, never a mix, never a partial version.
func testAtomicReplace(t *testing.T, k *kit) {
	s := k.store(t)
	f := filing("0000000001-24-000001", "1", "AAA", "10-K", "2024-02-01", 2023)
	other := filing("0000000002-24-000001", "2", "BBB", "10-K", "2024-02-01", 2023)
	put(t, s, other, chunksOf(other.Accession, "1", "tick from another filing"))
	version := func(v int) []store.Chunk {
		n := 2 + v%4 // 2 to 5 chunks
		texts := make([]string, n)
		for i := range texts {
			texts[i] = fmt.Sprintf("tick version%d part%d", v, i)
		}
		return chunksOf(f.Accession, "1", texts...)
	}
	put(t, s, f, version(0))

	const versions = 12
	done := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failures []string
	fail := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		if len(failures) < 10 {
			failures = append(failures, fmt.Sprintf(format, args...))
		}
	}
	all := store.Filter{AsOf: farFuture}
	// check reports a mix: the chunks of f in ms must be one whole version.
	check := func(what string, ms []store.Match) {
		var seen []store.Chunk
		for _, m := range ms {
			if m.Chunk.Accession == f.Accession {
				seen = append(seen, m.Chunk)
				if m.Filing.Accession != f.Accession {
					fail("%s: chunk %s with filing %+v", what, m.Chunk.ID, m.Filing)
				}
			}
		}
		if len(seen) == 0 {
			fail("%s: no chunk of %s", what, f.Accession)
			return
		}
		var v int
		if _, err := fmt.Sscanf(strings.Fields(seen[0].Text)[1], "version%d", &v); err != nil {
			fail("%s: chunk text %q", what, seen[0].Text)
			return
		}
		want := idsOf(version(v))
		got := make([]string, len(seen))
		for i, c := range seen {
			got[i] = c.ID
			if !strings.Contains(c.Text, fmt.Sprintf("version%d ", v)) {
				fail("%s: chunks of versions %d and %q mixed", what, v, c.Text)
			}
		}
		for _, m := range ms {
			if m.Chunk.Accession == f.Accession && m.Filing.Chunks != len(want) {
				fail("%s: filing says %d chunks, version %d has %d", what, m.Filing.Chunks, v, len(want))
			}
		}
		slices.Sort(got)
		if !slices.Equal(want, got) {
			fail("%s: version %d seen as %v, want %v", what, v, got, want)
		}
	}
	// Each reader reads until the writer is done and it has made one whole
	// round after that, when no Put can overlap it. A read that Puts kept
	// overlapping may fail with store.ErrBusy, which is no mix: the round
	// is read again.
	for r := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				finished := false
				select {
				case <-done:
					finished = true
				default:
				}
				busy, ok := readRound(s, r, all, check, fail)
				if !ok || finished && !busy {
					return
				}
				if finished && busy {
					fail("reader %d: busy with no Put under way", r)
					return
				}
			}
		}()
	}
	for v := 1; v <= versions; v++ {
		c := version(v)
		if err := s.Put(ctx, f, c, vectorsFor(c), meta4); err != nil {
			fail("Put version %d: %v", v, err)
			break
		}
	}
	close(done)
	wg.Wait()
	for _, f := range failures {
		t.Error(f)
	}
	last := version(versions)
	if diff := cmp.Diff(idsOf(last), sortedIDs(lexical(t, s, "version"+strconv.Itoa(versions), all, 50))); diff != "" {
		t.Errorf("after the last Put (-want +got):\n%s", diff)
	}
}

// readRound makes one round of the reads of testAtomicReplace: Lexical,
// Nearest and Filings, each answer checked. busy reports a read that
// failed with store.ErrBusy (the round stops there); ok is false after
// any other failure.
func readRound(s store.Store, r int, all store.Filter, check func(string, []store.Match), fail func(string, ...any)) (busy, ok bool) {
	ms, err := s.Lexical(ctx, "tick", all, 50)
	if errors.Is(err, store.ErrBusy) {
		return true, true
	}
	if err != nil {
		fail("reader %d: Lexical: %v", r, err)
		return false, false
	}
	check(fmt.Sprintf("reader %d Lexical", r), ms)
	ms, err = s.Nearest(ctx, []float32{1, 1, 1, 1}, all, 50)
	if errors.Is(err, store.ErrBusy) {
		return true, true
	}
	if err != nil {
		fail("reader %d: Nearest: %v", r, err)
		return false, false
	}
	check(fmt.Sprintf("reader %d Nearest", r), ms)
	fs, err := s.Filings(ctx, farFuture)
	if errors.Is(err, store.ErrBusy) {
		return true, true
	}
	if err != nil || len(fs) != 2 {
		fail("reader %d: Filings = %v, %v", r, fs, err)
	}
	return false, true
}
