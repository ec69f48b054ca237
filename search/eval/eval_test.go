package eval

import (
	"context"
	"errors"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/search"
)

func TestLoadReferenceQueries(t *testing.T) {
	qs, err := Load(strings.NewReader(`[
	 {"q": "Apple cybersecurity", "ticker": "aapl", "item": "1C", "must": "cybersecurity"},
	 {"q": "NVIDIA customers", "ticker": "NVDA", "item": null, "must": "customer"}]`))
	if err != nil {
		t.Fatal(err)
	}
	want := []Query{{Q: "Apple cybersecurity", Ticker: "AAPL", Item: "1C", Must: "cybersecurity"}, {Q: "NVIDIA customers", Ticker: "NVDA", Must: "customer"}}
	if len(qs) != 2 || qs[0] != want[0] || qs[1] != want[1] {
		t.Fatalf("Load = %+v, want %+v", qs, want)
	}
	for _, bad := range []string{`[]`, `[{"q":"x","ticker":"A"}]`, `[{"q":"x","ticker":"A","must":"m","extra":1}]`, `{`} {
		if _, err := Load(strings.NewReader(bad)); err == nil {
			t.Errorf("Load(%s) gave no error", bad)
		}
	}
}

func TestRelevant(t *testing.T) {
	q := Query{Q: "x", Ticker: "TSLA", Item: "7", Must: "regulatory credit"}
	h := search.Hit{Ticker: "TSLA", Item: "7", Text: "sales of Regulatory Credits to other manufacturers"}
	if !Relevant(q, h) {
		t.Error("a hit of the label's ticker and item with the phrase is not relevant")
	}
	for name, bad := range map[string]search.Hit{
		"ticker": {Ticker: "AAPL", Item: "7", Text: h.Text},
		"item":   {Ticker: "TSLA", Item: "1A", Text: h.Text},
		"phrase": {Ticker: "TSLA", Item: "7", Text: "credit facilities"},
	} {
		if Relevant(q, bad) {
			t.Errorf("a hit of another %s is relevant", name)
		}
	}
	q.Item = ""
	if !Relevant(q, search.Hit{Ticker: "TSLA", Item: "1A", Text: h.Text}) {
		t.Error("a label without an Item must accept any Item")
	}
}

// scripted answers each query with fixed hits, by mode and filter.
type scripted struct {
	hits  map[string][]search.Hit // by query text
	calls []string
	fail  string
}

func (s *scripted) Search(ctx context.Context, query string, asOf edgar13f.Date, opts ...search.SearchOption) (*search.Result, error) {
	s.calls = append(s.calls, query)
	if query == s.fail {
		return nil, errors.New("boom")
	}
	return &search.Result{Hits: s.hits[query]}, nil
}

func TestRunScores(t *testing.T) {
	rel := func(tk string) search.Hit { return search.Hit{Ticker: tk, Item: "7", Text: "the phrase"} }
	other := search.Hit{Ticker: "ZZZ", Text: "nothing"}
	many := func(n int, last search.Hit) []search.Hit {
		var hs []search.Hit
		for range n {
			hs = append(hs, other)
		}
		return append(hs, last)
	}
	qs := []Query{
		{Q: "first", Ticker: "A", Item: "7", Must: "phrase"},  // rank 1
		{Q: "third", Ticker: "B", Item: "7", Must: "phrase"},  // rank 3
		{Q: "tenth", Ticker: "C", Item: "7", Must: "phrase"},  // rank 10
		{Q: "beyond", Ticker: "D", Item: "7", Must: "phrase"}, // rank 11: a miss
	}
	s := &scripted{hits: map[string][]search.Hit{
		"first": many(0, rel("A")), "third": many(2, rel("B")), "tenth": many(9, rel("C")), "beyond": many(10, rel("D")),
	}}
	rep, err := run(context.Background(), s, qs, edgar13f.MustParseDate("2025-12-31"), []search.Mode{search.BM25})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Rows) != 2 || rep.Rows[0].Filtered || !rep.Rows[1].Filtered {
		t.Fatalf("rows = %+v, want unfiltered then filtered", rep.Rows)
	}
	r := rep.Rows[0]
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
	if !near(r.Hit1, 0.25) || !near(r.Hit5, 0.5) || !near(r.MRR10, (1+1.0/3+0.1)/4) {
		t.Errorf("hit@1 %v hit@5 %v MRR@10 %v, want 0.25, 0.5, %v", r.Hit1, r.Hit5, r.MRR10, (1+1.0/3+0.1)/4)
	}
	if len(r.Misses) != 1 || r.Misses[0] != 3 {
		t.Errorf("misses = %v, want [3]", r.Misses)
	}
	if len(s.calls) != 8 {
		t.Errorf("%d searches, want 8 (4 queries, unfiltered and filtered)", len(s.calls))
	}
	var b strings.Builder
	if err := WriteTable(&b, rep); err != nil || !strings.Contains(b.String(), "| unfiltered | bm25 | 4 | 0.250 | 0.500 |") || !strings.Contains(b.String(), "0.571 / 0.857 / 0.686") {
		t.Errorf("table:\n%s", b.String())
	}
}

func TestRunFailsWhole(t *testing.T) {
	s := &scripted{fail: "b"}
	_, err := run(context.Background(), s, []Query{{Q: "a", Ticker: "A", Must: "m"}, {Q: "b", Ticker: "B", Must: "m"}}, edgar13f.MustParseDate("2025-12-31"), []search.Mode{search.BM25})
	if err == nil || !strings.Contains(err.Error(), `query 2 ("b")`) {
		t.Fatalf("err = %v, want the failing query named", err)
	}
}

// shippedQueries loads the reference query set shipped in testdata.
func shippedQueries(t *testing.T) []Query {
	t.Helper()
	f, err := os.Open("testdata/reference-queries.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	qs, err := Load(f)
	if err != nil {
		t.Fatal(err)
	}
	return qs
}

func TestShippedQuerySet(t *testing.T) {
	qs := shippedQueries(t)
	if len(qs) != 19 {
		t.Fatalf("%d queries, want the 19 whose reports are in the corpus", len(qs))
	}
	tickers := map[string]int{}
	for _, q := range qs {
		tickers[q.Ticker]++
	}
	for _, tk := range []string{"AAPL", "NVDA", "WMT", "TSLA", "JNJ"} {
		if tickers[tk] == 0 {
			t.Errorf("no query for %s", tk)
		}
	}
}

// TestLoadRefusesUnknownItem: a label's item must be an Item name of the
// one vocabulary (that of Companies.Section and the search's Item filter);
// "99" is refused, the error naming the query (and with LoadFile the file).
func TestLoadRefusesUnknownItem(t *testing.T) {
	const file = `[
	 {"q": "Apple iPhone net sales", "ticker": "AAPL", "item": "II-7", "must": "iPhone"},
	 {"q": "Apple properties", "ticker": "AAPL", "item": "99", "must": "Cupertino"}]`
	for _, bad := range []string{"99", "17", "I-5", "risk factors", ""} {
		_, err := Load(strings.NewReader(strings.Replace(file, `"99"`, `"`+bad+`"`, 1)))
		if err == nil || !strings.Contains(err.Error(), "query 2") || !strings.Contains(err.Error(), `"Apple properties"`) || !strings.Contains(err.Error(), `item "`+bad+`"`) {
			t.Errorf("Load with item %q: %v; want an error naming query 2 and the item", bad, err)
		}
	}
	path := t.TempDir() + "/queries.json"
	if err := os.WriteFile(path, []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadFile(path); err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "query 2") {
		t.Errorf("LoadFile: %v; want an error naming %s and query 2", err, path)
	}
	for _, good := range []string{"7", "Item 7", "1a", "i-2", "II-1A", "Part II, Item 1A"} {
		if qs, err := Load(strings.NewReader(strings.Replace(file, `"99"`, `"`+good+`"`, 1))); err != nil || qs[1].Item != good {
			t.Errorf("Load with item %q: %v, %v", good, qs, err)
		}
	}
}

// TestRelevantItemNames: a label's item names the Item of the hit's form
// in the one vocabulary.
func TestRelevantItemNames(t *testing.T) {
	for _, tc := range []struct {
		label, form, item string
		want              bool
	}{
		{"1A", "10-K", "1A", true},
		{"1A", "10-Q", "II-1A", true},
		{"Item 7", "10-K", "7", true},
		{"II-7", "10-K", "7", true},
		{"I-2", "10-K", "2", true},
		{"I-2", "10-Q", "I-2", true},
		{"I-2", "10-Q", "2", false},
		{"7", "10-Q", "7", false},
		{"II-1A", "10-K", "1A", false},
		{"7", "", "7", true},
	} {
		q := Query{Q: "x", Ticker: "AAPL", Item: tc.label, Must: "m"}
		if got := Relevant(q, search.Hit{Ticker: "AAPL", Form: tc.form, Item: tc.item, Text: "m"}); got != tc.want {
			t.Errorf("label %q, hit of %s Item %q: relevant %v, want %v", tc.label, tc.form, tc.item, got, tc.want)
		}
	}
}

// A label's ticker is read as search.Ticker reads one: "brk.b" is EDGAR's
// BRK-B, so a hit of BRK-B is of the label's company.
func TestLoadTickerNormalised(t *testing.T) {
	qs, err := Load(strings.NewReader(`[{"q": "Berkshire insurance float", "ticker": " brk.b ", "item": "7", "must": "float"}]`))
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 1 || qs[0].Ticker != "BRK-B" {
		t.Fatalf("Load = %+v; want the ticker BRK-B", qs)
	}
	h := search.Hit{Ticker: "BRK-B", Form: "10-K", Item: "7", Text: "insurance float"}
	if !Relevant(qs[0], h) || !Relevant(Query{Ticker: "brk/b", Must: "float"}, h) {
		t.Error("a hit of BRK-B is not relevant to a label of brk.b or brk/b")
	}
}
