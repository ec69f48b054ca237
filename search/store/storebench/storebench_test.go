package storebench_test

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

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
