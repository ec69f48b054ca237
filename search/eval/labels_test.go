package eval

import (
	"github.com/edgar13f/edgar13f/internal/edgartest/edgarfiles"

	"context"
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/edgar13f/edgar13f/search"
	"github.com/edgar13f/edgar13f/search/store"
	"github.com/edgar13f/edgar13f/search/store/embedded"
)

// recordingStore keeps every chunk put into it, with its filing.
type recordingStore struct {
	store.Store
	mu   sync.Mutex
	hits []search.Hit
}

func (s *recordingStore) Put(ctx context.Context, f store.Filing, chunks []store.Chunk, vectors [][]float32, meta store.Meta) error {
	s.mu.Lock()
	for _, c := range chunks {
		s.hits = append(s.hits, search.Hit{ChunkID: c.ID, Ticker: f.Ticker, Form: f.Form, Item: c.Item, ChunkIndex: c.Index, Text: c.Text})
	}
	s.mu.Unlock()
	return s.Store.Put(ctx, f, chunks, vectors, meta)
}

// corpusChunks returns every chunk of the evaluation corpus as a Hit.
func corpusChunks(t *testing.T) []search.Hit {
	t.Helper()
	st, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rs := &recordingStore{Store: st}
	if _, _, err := IndexCorpus(context.Background(), edgarfiles.Testdata, rs); err != nil {
		t.Fatal(err)
	}
	if p := os.Getenv("EVAL_DUMP_CHUNKS"); p != "" {
		data, _ := json.Marshal(rs.hits)
		os.WriteFile(p, data, 0o644)
	}
	return rs.hits
}

// queryFiles are the labelled query files the project ships: the
// reference's queries, and questions in other words than their passages
// (paraphrases) in a part used to choose the fusion rule and a part kept
// out of that choice.
var queryFiles = []string{"reference-queries.json", "paraphrase-queries.json", "paraphrase-heldout.json"}

// TestLabelsMatchAChunk: every label of every shipped query file is
// satisfied by at least one chunk of the evaluation corpus (a label no
// chunk satisfies would count as a miss in every mode), and no query is
// in two files (the held-out part stays out of tuning).
func TestLabelsMatchAChunk(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes ten reports")
	}
	chunks := corpusChunks(t)
	seen := map[string]string{}
	for _, file := range queryFiles {
		qs, err := LoadFile("testdata/" + file)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range qs {
			if f, ok := seen[strings.ToLower(q.Q)]; ok {
				t.Errorf("%s: %q is in %s too", file, q.Q, f)
			}
			seen[strings.ToLower(q.Q)] = file
			n := 0
			for _, h := range chunks {
				if Relevant(q, h) {
					n++
				}
			}
			if n == 0 {
				t.Errorf("%s: no chunk satisfies the label of %q (%s, Item %q, %q)", file, q.Q, q.Ticker, q.Item, q.Must)
			}
		}
	}
}
