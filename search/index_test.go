package search

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/edgartest"
	"github.com/edgar13f/edgar13f/search/internal/chunk"
	"github.com/edgar13f/edgar13f/search/store"
)

// mirrorClient is a Client reading the repository's mirror through a
// counting fetcher, with a cache of its own.
func mirrorClient(t testing.TB) (*edgar13f.Client, *edgartest.CountingFetcher) {
	t.Helper()
	return edgartest.MirrorClient(t)
}

// fakeItems is an itemReader that makes up Items for every filing and
// counts its calls; fail and none name filings it fails or finds no Items
// in.
type fakeItems struct {
	mu    sync.Mutex
	calls []string
	fail  map[string]error
}

func (r *fakeItems) read(ctx context.Context, cik, accession string, asOf edgar13f.Date) ([]itemText, error) {
	r.mu.Lock()
	r.calls = append(r.calls, accession)
	r.mu.Unlock()
	if err := r.fail[accession]; err != nil {
		return nil, err
	}
	return fakeItemTexts(cik, accession), nil
}

// fakeItemTexts are two Items of 100 and 50 paragraphs, each paragraph
// too long to share a chunk with another.
func fakeItemTexts(cik, accession string) []itemText {
	var paras []string
	filler := strings.Repeat(" The company sells chips and systems to customers in many countries.", 20)
	for i := range 150 {
		paras = append(paras, fmt.Sprintf("Paragraph %d of filing %s of CIK %s: risk factors, export controls, revenue.", i, accession, cik)+filler)
	}
	return []itemText{
		{item: "1A", title: "Risk Factors", text: strings.Join(paras[:100], "\n\n")},
		{item: "7", title: "Management's Discussion", text: strings.Join(paras[100:], "\n\n")},
	}
}

// fakeBatches is the number of Embed calls the chunks of a fake filing take.
func fakeBatches(cik, accession string) (chunks, batches int) {
	for _, it := range fakeItemTexts(cik, accession) {
		chunks += len(chunk.Split(it.text, chunk.MaxTokens, chunk.Overlap))
	}
	return chunks, (chunks + EmbedBatch - 1) / EmbedBatch
}

func (r *fakeItems) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	c := r.calls
	r.calls = nil
	return c
}

func fakeEngine(t testing.TB, st store.Store, opts ...Option) (*Engine, *fakeItems, *edgartest.CountingFetcher) {
	t.Helper()
	c, f := mirrorClient(t)
	e, err := New(c, st, opts...)
	if err != nil {
		t.Fatal(err)
	}
	r := &fakeItems{fail: map[string]error{}}
	e.items = r.read
	return e, r, f
}

func accessionsOf(xs []IndexedFiling) []string {
	var out []string
	for _, x := range xs {
		out = append(out, x.Accession)
	}
	return out
}

func TestIndexPlansAndReuses(t *testing.T) {
	st := newMemStore()
	emb := &hashEmbedder{model: "hash-test", dim: 16}
	e, items, fetch := fakeEngine(t, st, WithEmbedder(emb))
	ctx := context.Background()
	asOf := day("2025-03-01")

	var progress []Progress
	res, err := e.Index(ctx, []string{"aapl", "0001045810"}, asOf, Limit(2), ReportProgress(func(p Progress) { progress = append(progress, p) }))
	if err != nil {
		t.Fatal(err)
	}
	want := []IndexedFiling{
		{Ticker: "AAPL", CIK: "320193", Accession: "0000320193-24-000123", Form: "10-K", FilingDate: day("2024-11-01"), Period: day("2024-09-28"), FiscalYear: 2024},
		{Ticker: "AAPL", CIK: "320193", Accession: "0000320193-23-000106", Form: "10-K", FilingDate: day("2023-11-03"), Period: day("2023-09-30"), FiscalYear: 2023},
		{Ticker: "NVDA", CIK: "1045810", Accession: "0001045810-25-000023", Form: "10-K", FilingDate: day("2025-02-26"), Period: day("2025-01-26"), FiscalYear: 2025},
		{Ticker: "NVDA", CIK: "1045810", Accession: "0001045810-24-000029", Form: "10-K", FilingDate: day("2024-02-21"), Period: day("2024-01-28"), FiscalYear: 2024},
	}
	if len(res.Indexed) != len(want) {
		t.Fatalf("indexed %v; want %v", accessionsOf(res.Indexed), accessionsOf(want))
	}
	total := 0
	for i, x := range res.Indexed {
		w := want[i]
		if x.Ticker != w.Ticker || x.CIK != w.CIK || x.Accession != w.Accession || x.Form != w.Form || x.FilingDate != w.FilingDate ||
			!w.Period.IsZero() && (x.Period != w.Period || x.FiscalYear != w.FiscalYear) || x.Reused || x.Skipped != "" || x.Chunks == 0 {
			t.Errorf("indexed[%d] = %+v; want %+v with chunks", i, x, w)
		}
		total += x.Chunks
	}
	if res.ChunksTotal != total || res.AsOf != asOf || res.Embedder == nil || *res.Embedder != (store.Meta{Model: "hash-test", Dim: 16}) {
		t.Errorf("result %d chunks (sum %d), asOf %s, embedder %v", res.ChunksTotal, total, res.AsOf, res.Embedder)
	}
	if got := items.take(); !slices.Equal(got, accessionsOf(want)) {
		t.Errorf("items read for %v; want each filing once", got)
	}
	// Chunks are embedded in batches: one probe, then ceil(chunks/EmbedBatch) per filing.
	calls := 1
	for _, x := range res.Indexed {
		calls += (x.Chunks + EmbedBatch - 1) / EmbedBatch
	}
	if emb.calls != calls {
		t.Errorf("%d Embed calls; want %d", emb.calls, calls)
	}

	// Progress: counts only grow and end at the totals.
	last := progress[len(progress)-1]
	if last.Filings != len(want) || last.FilingsPlan != len(want) || last.Chunks != total {
		t.Errorf("last progress %+v", last)
	}
	for i := 1; i < len(progress); i++ {
		p, q := progress[i-1], progress[i]
		if q.Filings < p.Filings || q.FilingsPlan < p.FilingsPlan || q.Chunks < p.Chunks {
			t.Errorf("progress went back: %+v then %+v", p, q)
		}
	}

	// The store holds them, searchable, with every field.
	fs, _ := st.Filings(ctx, asOf)
	if len(fs) != len(want) {
		t.Fatalf("store holds %d filings", len(fs))
	}
	for _, f := range fs {
		if f.Company == "" || f.URL == "" || f.Chunks == 0 {
			t.Errorf("stored filing %+v lacks a field", f)
		}
	}
	c, f, ok, _ := st.Chunk(ctx, chunk.ID("0000320193-24-000123", "7", 0))
	if !ok || c.ItemTitle != "Management's Discussion" || f.URL != "https://www.sec.gov/Archives/edgar/data/320193/000032019324000123/aapl-20240928.htm" || f.Company != "Apple Inc." {
		t.Errorf("stored chunk %+v of %+v", c, f)
	}

	// Again: nothing read, fetched, embedded or stored.
	fetch.Take()
	puts, calls := st.puts, emb.calls
	res2, err := e.Index(ctx, []string{"AAPL", "1045810"}, asOf, Limit(2))
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range res2.Indexed {
		if !x.Reused || x.Chunks != res.Indexed[i].Chunks || x.Ticker != res.Indexed[i].Ticker || x.FiscalYear != res.Indexed[i].FiscalYear {
			t.Errorf("second run [%d] = %+v; want reused as %+v", i, x, res.Indexed[i])
		}
	}
	if res2.ChunksTotal != res.ChunksTotal || len(items.take()) != 0 || st.puts != puts || emb.calls != calls || len(fetch.Take()) != 0 {
		t.Errorf("second run read, fetched, embedded or stored again (puts %d→%d, embeds %d→%d)", puts, st.puts, calls, emb.calls)
	}

	// Reindex reads and replaces, with the same chunk ids.
	before, _ := st.ItemChunks(ctx, "0000320193-24-000123", "1A")
	res3, err := e.Index(ctx, []string{"AAPL"}, asOf, Reindex(), FormType("10-K"))
	if err != nil || len(res3.Indexed) != 1 || res3.Indexed[0].Reused {
		t.Fatalf("reindex: %+v, %v", res3, err)
	}
	after, _ := st.ItemChunks(ctx, "0000320193-24-000123", "1A")
	if !slices.Equal(before, after) || st.puts != puts+1 {
		t.Errorf("reindex changed the chunks or stored %d times", st.puts-puts)
	}
}

func TestIndexForms(t *testing.T) {
	st := newMemStore()
	e, _, _ := fakeEngine(t, st)
	ctx := context.Background()
	res, err := e.Index(ctx, []string{"AAPL"}, day("2024-08-02"), FormType("10-q"), FormType("10-Q"), Limit(3))
	if err != nil {
		t.Fatal(err)
	}
	got := []string{}
	for _, x := range res.Indexed {
		got = append(got, fmt.Sprintf("%s %s %s FY%d", x.Accession, x.Form, x.Period, x.FiscalYear))
	}
	want := []string{
		"0000320193-24-000081 10-Q 2024-06-29 FY2024",
		"0000320193-24-000069 10-Q 2024-03-30 FY2024",
		"0000320193-24-000006 10-Q 2023-12-30 FY2024",
	}
	if !slices.Equal(got, want) || res.Embedder != nil {
		t.Errorf("10-Qs as of 2024-08-02: %v (embedder %v); want %v", got, res.Embedder, want)
	}
	if r, err := e.Search(ctx, "export", day("2024-08-02"), FiscalYear(2024), Item("7")); err != nil || len(r.Hits) == 0 {
		t.Errorf("fiscal-year filter on the 10-Qs: %v", err)
	}
}

func TestIndexDeclines(t *testing.T) {
	ctx := context.Background()
	asOf := day("2025-03-01")
	for _, tc := range []struct {
		name      string
		companies []string
		asOf      edgar13f.Date
		opts      []IndexOption
		reason    edgar13f.Reason
		want      string
	}{
		{"no companies", nil, asOf, nil, edgar13f.InvalidArgument, "companies"},
		{"too many", make([]string, MaxCompanies+1), asOf, nil, edgar13f.InvalidArgument, "companies"},
		{"unknown ticker", []string{"AAPL", "ZZZQX"}, asOf, nil, edgar13f.InvalidArgument, "ZZZQX"},
		{"name not ticker", []string{"Apple Inc"}, asOf, nil, edgar13f.InvalidArgument, "Apple Inc"},
		{"punctuation", []string{"AAPL!"}, asOf, nil, edgar13f.InvalidArgument, "AAPL!"},
		{"long cik", []string{"12345678901"}, asOf, nil, edgar13f.InvalidArgument, "12345678901"},
		{"zero asOf", []string{"AAPL"}, edgar13f.Date{}, nil, edgar13f.InvalidArgument, "asOf"},
		{"per company 0", []string{"AAPL"}, asOf, []IndexOption{Limit(0)}, edgar13f.InvalidArgument, "Limit"},
		{"per company 21", []string{"AAPL"}, asOf, []IndexOption{Limit(21)}, edgar13f.InvalidArgument, "Limit"},
		{"8-K", []string{"AAPL"}, asOf, []IndexOption{FormType("10-K"), FormType("8-K")}, edgar13f.InvalidArgument, "8-K"},
		{"unknown cik", []string{"AAPL", "9999999999"}, asOf, nil, edgar13f.UnknownCIK, "9999999999"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := newMemStore()
			e, items, _ := fakeEngine(t, st)
			_, err := e.Index(ctx, tc.companies, tc.asOf, tc.opts...)
			if edgartest.Reason(err) != tc.reason || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Index: %v; want %s naming %q", err, tc.reason, tc.want)
			}
			if st.puts != 0 || len(items.take()) != 0 {
				t.Errorf("a declined Index read or stored filings")
			}
		})
	}
}

// TestIndexEmbedderMismatch: a store built with another embedder (or none,
// or with vectors for an Engine without one) is refused before anything is
// fetched.
func TestIndexEmbedderMismatch(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		stored Embedder // the store's filings were embedded by it (nil: none)
		given  Embedder
		want   []string
	}{
		{"other model", &hashEmbedder{model: "model-a", dim: 8}, &hashEmbedder{model: "model-b", dim: 8}, []string{"model-a (dim 8)", "model-b (dim 8)"}},
		{"other dimension", &hashEmbedder{model: "model-a", dim: 8}, &hashEmbedder{model: "model-a", dim: 16}, []string{"model-a (dim 8)", "model-a (dim 16)"}},
		{"store without vectors", nil, &hashEmbedder{model: "model-b", dim: 8}, []string{"no embedder", "model-b (dim 8)"}},
		{"engine without embedder", &hashEmbedder{model: "model-a", dim: 8}, nil, []string{"model-a (dim 8)", "no embedder"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := newMemStore()
			putSynth(t, st, tc.stored, threeFilings()[2])
			var opts []Option
			if tc.given != nil {
				opts = append(opts, WithEmbedder(tc.given))
			}
			e, items, fetch := fakeEngine(t, st, opts...)
			_, err := e.Index(ctx, []string{"AAPL"}, day("2025-03-01"))
			var mm *store.MismatchError
			if !errors.As(err, &mm) {
				t.Fatalf("Index: %v; want a mismatch", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%v does not name %q", err, w)
				}
			}
			if n := len(fetch.Take()); n != 0 || len(items.take()) != 0 || st.puts != 1 {
				t.Errorf("%d requests, items read or stored before the mismatch was found", n)
			}
		})
	}
	// An empty store takes any embedder.
	st := newMemStore()
	e, _, _ := fakeEngine(t, st, WithEmbedder(&hashEmbedder{model: "model-c", dim: 4}))
	if _, err := e.Index(ctx, []string{"AAPL"}, day("2025-03-01")); err != nil {
		t.Errorf("empty store: %v", err)
	}
}

func TestIndexFailuresAreReported(t *testing.T) {
	ctx := context.Background()
	asOf := day("2025-03-01")
	st := newMemStore()
	e, items, _ := fakeEngine(t, st)
	items.fail["0000320193-23-000106"] = edgar13f.Decline(edgar13f.SectionNotFound, "the document has no Item headings")
	items.fail["0001045810-24-000029"] = &edgar13f.FetchError{URL: "https://www.sec.gov/x.htm", Err: edgar13f.ErrNotFound}

	_, err := e.Index(ctx, []string{"AAPL", "NVDA"}, asOf, Limit(2), FormType("10-K"))
	var ie *IndexError
	if !errors.As(err, &ie) || ie.Accession != "0001045810-24-000029" || ie.CIK != "1045810" || ie.Form != "10-K" ||
		!errors.Is(err, edgar13f.ErrNotFound) || !strings.Contains(err.Error(), "0001045810-24-000029") {
		t.Fatalf("Index: %v; want an IndexError naming NVIDIA's 10-K of 2024", err)
	}
	// The filings before the failure are stored; the one without Items is not.
	fs, _ := st.Filings(ctx, asOf)
	var got []string
	for _, f := range fs {
		got = append(got, f.Accession)
	}
	if !slices.Equal(got, []string{"0001045810-25-000023", "0000320193-24-000123"}) {
		t.Errorf("stored %v; want Apple's 2024 and NVIDIA's 2025 10-K", got)
	}

	// Without the failure, the filing without Items is reported, not dropped.
	delete(items.fail, "0001045810-24-000029")
	res, err := e.Index(ctx, []string{"AAPL"}, asOf, Limit(2), FormType("10-K"))
	if err != nil || len(res.Indexed) != 2 {
		t.Fatalf("Index: %+v, %v", res, err)
	}
	if x := res.Indexed[1]; x.Accession != "0000320193-23-000106" || x.Chunks != 0 || x.Reused || !strings.Contains(x.Skipped, "no Item headings") {
		t.Errorf("filing without Items reported as %+v", x)
	}
	if !res.Indexed[0].Reused || res.Indexed[0].Skipped != "" {
		t.Errorf("stored filing reported as %+v", res.Indexed[0])
	}
}

// flakyEmbedder fails its n-th call.
type flakyEmbedder struct {
	hashEmbedder
	failAt int
}

func (f *flakyEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	f.mu.Lock()
	n := f.calls + 1
	f.mu.Unlock()
	if n == f.failAt {
		f.mu.Lock()
		f.calls++
		f.mu.Unlock()
		return nil, errors.New("embedding server gone")
	}
	return f.hashEmbedder.Embed(ctx, texts)
}

// TestIndexNeverStoresPart: a filing whose embedding fails half-way is not
// stored at all; the filings before it are, whole.
func TestIndexNeverStoresPart(t *testing.T) {
	ctx := context.Background()
	st := newMemStore()
	// Call 1 is the probe, then come the batches of the first filing; the
	// second fails at its second batch.
	_, first := fakeBatches("320193", "0000320193-24-000123")
	n, second := fakeBatches("320193", "0000320193-23-000106")
	if second < 2 {
		t.Fatalf("the second filing's %d chunks take %d batch; want at least 2", n, second)
	}
	emb := &flakyEmbedder{hashEmbedder: hashEmbedder{model: "hash-test", dim: 8}, failAt: 1 + first + 2}
	e, _, _ := fakeEngine(t, st, WithEmbedder(emb))
	_, err := e.Index(ctx, []string{"AAPL"}, day("2025-03-01"), FormType("10-K"), Limit(2))
	var ie *IndexError
	if !errors.As(err, &ie) || ie.Accession != "0000320193-23-000106" || !strings.Contains(err.Error(), "embedding server gone") {
		t.Fatalf("Index: %v; want the failure of the second filing", err)
	}
	fs, _ := st.Filings(ctx, lastDate)
	if len(fs) != 1 || fs[0].Accession != "0000320193-24-000123" || st.puts != 1 {
		t.Fatalf("stored %+v in %d puts; want only the first filing", fs, st.puts)
	}
	if cs, _ := st.ItemChunks(ctx, "0000320193-23-000106", "1A"); len(cs) != 0 {
		t.Errorf("%d chunks of the failed filing stored", len(cs))
	}
	// Running again resumes: the first is reused, the second stored whole.
	res, err := e.Index(ctx, []string{"AAPL"}, day("2025-03-01"), FormType("10-K"), Limit(2))
	if err != nil || !res.Indexed[0].Reused || res.Indexed[1].Reused || res.Indexed[1].Chunks != n {
		t.Errorf("resumed Index: %+v, %v", res, err)
	}
}
