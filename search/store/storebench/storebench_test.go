package storebench_test

import (
	"context"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/search/store"
	"github.com/edgar13f/edgar13f/search/store/embedded"
	"github.com/edgar13f/edgar13f/search/store/storebench"
)

// TestRun fills a small embedded store, measures it, and measures it again
// without building it, each time printing every figure as one JSON line.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	open := func() (store.Store, error) { return embedded.Open(dir) }
	cfg := storebench.Config{Filings: 6, Chunks: 5, Dim: 8, Companies: 3, Rounds: 1, Words: 30}
	for _, built := range []bool{true, false} {
		res, err := storebench.Run(context.Background(), "embedded", cfg, open, dir, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		line := res.JSON()
		if strings.Contains(line, "\n") {
			t.Errorf("JSON = %q; want one line", line)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"bm25", "bm25_ticker", "bm25_asof_mid", "knn", "knn_ticker", "knn_asof_mid", "heap_mb", "disk_mb", "open_ms"} {
			if _, ok := m[k]; !ok {
				t.Errorf("built %v: no %s in %s", built, k, line)
			}
		}
		if res.Built != built || (res.PutChunksPerS > 0) != built || res.Chunks != 30 || res.QueriesPerKind != len(storebench.Queries) {
			t.Errorf("result %s; want built %v, 30 chunks, %d queries a kind", line, built, len(storebench.Queries))
		}
	}
	s, err := open()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	last, _, _ := storebench.Filing(cfg.Defaults(), []string{"a b c"}, 5)
	fs, err := s.Filings(context.Background(), last.FilingDate)
	if err != nil || len(fs) != 6 {
		t.Errorf("the store holds %d filings, %v; want 6", len(fs), err)
	}
}

// TestRunSideBySide builds with three Puts side by side: every filing is
// put once, and the result says how it was built.
func TestRunSideBySide(t *testing.T) {
	dir := t.TempDir()
	open := func() (store.Store, error) { return embedded.Open(dir) }
	cfg := storebench.Config{Filings: 7, Chunks: 5, Dim: 8, Companies: 3, Rounds: 1, Words: 30, Puts: 3}
	res, err := storebench.Run(context.Background(), "embedded", cfg, open, dir, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Built || res.PutChunksPerS <= 0 || res.PutsSideBySide != 3 || res.Chunks != 35 {
		t.Errorf("result %s; want built with 3 Puts side by side, 35 chunks", res.JSON())
	}
	s, err := open()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fs, err := s.Filings(context.Background(), edgar13f.MustParseDate("2030-01-01"))
	if err != nil || len(fs) != 7 {
		t.Fatalf("the store holds %d filings, %v; want 7", len(fs), err)
	}
	var got, want []string
	for i, f := range fs {
		w, _, _ := storebench.Filing(cfg.Defaults(), []string{"a b c"}, i)
		got, want = append(got, f.Accession), append(want, w.Accession)
		if f.Chunks != 5 {
			t.Errorf("filing %s: %d chunks; want 5", f.Accession, f.Chunks)
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("the store holds %v; want %v", got, want)
	}
}

// TestSentences: the sentences of the repository's reports are real
// English, many and distinct.
func TestSentences(t *testing.T) {
	ss, err := storebench.Sentences("")
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) < 5000 {
		t.Errorf("%d sentences; want thousands", len(ss))
	}
	for _, s := range ss[:10] {
		if strings.Count(s, " ") < 7 {
			t.Errorf("sentence %q is short", s)
		}
	}
}
