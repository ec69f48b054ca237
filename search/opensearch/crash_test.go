package opensearch

import (
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	osgo "github.com/opensearch-project/opensearch-go/v4"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/search/store"
)

// crashVersion is version v of a filing: v+2 chunks saying "tick vN".
func crashVersion(v int) ([]store.Chunk, [][]float32) {
	f := apple()
	var chunks []store.Chunk
	var vectors [][]float32
	for i := range v + 2 {
		chunks = append(chunks, store.Chunk{
			ID: chunkID(f.Accession, "1A", i), Accession: f.Accession, Item: "1A", Index: i, Tokens: 3,
			Text: fmt.Sprintf("tick v%d part%d", v, i),
		})
		vectors = append(vectors, []float32{1, float32(v), float32(i)})
	}
	return chunks, vectors
}

// visibleVersion returns the version every query of the store agrees on,
// or an error describing what is visible if that is not one whole version.
func visibleVersion(s *Store) (int, error) {
	all := store.Filter{AsOf: edgar13f.MustParseDate("2099-12-31"), Ticker: "AAPL"}
	lex, err := s.Lexical(ctx, "tick", all, 50)
	if err != nil {
		return 0, err
	}
	near, err := s.Nearest(ctx, []float32{1, 1, 1}, all, 50)
	if err != nil {
		return 0, err
	}
	allFilings, err := s.Filings(ctx, all.AsOf)
	if err != nil {
		return 0, err
	}
	var fs []store.Filing
	for _, f := range allFilings {
		if f.Accession == apple().Accession {
			fs = append(fs, f)
		}
	}
	items, err := s.ItemChunks(ctx, apple().Accession, "1A")
	if err != nil {
		return 0, err
	}
	if len(fs) != 1 || len(lex) == 0 {
		return 0, fmt.Errorf("%d filings, %d lexical matches", len(fs), len(lex))
	}
	var v int
	if _, err := fmt.Sscanf(lex[0].Chunk.Text, "tick v%d", &v); err != nil {
		return 0, err
	}
	want, _ := crashVersion(v)
	var wantIDs []string
	for _, c := range want {
		wantIDs = append(wantIDs, c.ID+" "+c.Text)
	}
	slices.Sort(wantIDs)
	for what, got := range map[string][]string{
		"Lexical":    matchKeys(lex),
		"Nearest":    matchKeys(near),
		"ItemChunks": chunkKeys(items),
	} {
		if !slices.Equal(wantIDs, got) {
			return 0, fmt.Errorf("%s sees %v; version %d is %v", what, got, v, wantIDs)
		}
	}
	if fs[0].Chunks != len(want) {
		return 0, fmt.Errorf("Filings says %d chunks; version %d has %d", fs[0].Chunks, v, len(want))
	}
	for _, c := range want {
		got, _, ok, err := s.Chunk(ctx, c.ID)
		if err != nil || !ok || got.Text != c.Text {
			return 0, fmt.Errorf("Chunk(%s) = %q, %v, %v; want %q", c.ID, got.Text, ok, err, c.Text)
		}
	}
	return v, nil
}

func matchKeys(ms []store.Match) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Chunk.ID+" "+m.Chunk.Text)
	}
	slices.Sort(out)
	return out
}

func chunkKeys(cs []store.Chunk) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.ID+" "+c.Text)
	}
	slices.Sort(out)
	return out
}

// TestCrashAtEveryRequest kills a replacing Put at each of its requests in
// turn (the cluster stops answering, as when the process dies): the store
// then shows the old version whole, or the new one whole if the commit
// got through, never a mix; and a later Put of the accession replaces
// whatever is there with exactly its chunks.
func TestCrashAtEveryRequest(t *testing.T) {
	// The replacing Put sends 10 requests (the last four delete the old
	// version); n = 11 kills nothing.
	completions := 0
	for n := 1; n <= 11; n++ {
		fake := newFakeCluster()
		srv := httptest.NewServer(fake)
		c, err := osgo.NewClient(osgo.Config{Addresses: []string{srv.URL}, DisableRetry: true})
		if err != nil {
			t.Fatal(err)
		}
		s, err := Open(c, "crash", NearestCandidates(10))
		if err != nil {
			t.Fatal(err)
		}
		v1, vec1 := crashVersion(1)
		if err := s.Put(ctx, apple(), v1, vec1, meta3); err != nil {
			t.Fatal(err)
		}

		fake.mu.Lock()
		fake.failAfter = fake.requests + n
		fake.mu.Unlock()
		v2, vec2 := crashVersion(2)
		err = s.Put(ctx, apple(), v2, vec2, meta3)
		completed := err == nil
		if completed {
			completions++
		}
		fake.mu.Lock()
		fake.failAfter = 0
		fake.mu.Unlock()

		// A new process opens the store.
		s, _ = Open(c, "crash", NearestCandidates(10))
		v, verr := visibleVersion(s)
		switch {
		case verr != nil:
			t.Errorf("killed at request %d: %v", n, verr)
		case completed && v != 2:
			t.Errorf("killed at request %d, after the Put returned: version %d visible; want 2", n, v)
		}

		v3, vec3 := crashVersion(3)
		if err := s.Put(ctx, apple(), v3, vec3, meta3); err != nil {
			t.Errorf("killed at request %d: the next Put: %v", n, err)
		} else if v, err := visibleVersion(s); err != nil || v != 3 {
			t.Errorf("killed at request %d: after the next Put: version %d, %v; want 3", n, v, err)
		}
		st, err := s.readState(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range st.Hidden {
			if h.Done || !strings.HasPrefix(h.Gen, apple().Accession+".") {
				t.Errorf("killed at request %d: hidden %+v left after the next Put; want only the killed Put's generation, not done", n, h)
			}
		}
		if len(st.Locks) != 0 {
			t.Errorf("killed at request %d: locks %+v left", n, st.Locks)
		}
		c.Close()
		srv.Close()
	}
	// Killed in its last four requests (after the commit), the Put
	// still succeeds: what it leaves is hidden, and the next Put deletes it.
	if completions != 5 {
		t.Errorf("the Put succeeded %d times; want 5 (killed at one of its last four requests, or not at all)", completions)
	}
}

// TestConcurrentPuts: a Put of one accession, stopped between writing its
// documents and committing, while a Put of another accession runs whole
// (and deletes what is hidden and done), then commits: both filings are
// whole. The vacuum must not touch a generation still being written.
func TestConcurrentPuts(t *testing.T) {
	fake := newFakeCluster()
	paused, resume := make(chan struct{}), make(chan struct{})
	var first atomic.Bool
	fake.hook = func(method, path string) {
		if strings.HasSuffix(path, "/_search") && first.CompareAndSwap(false, true) {
			close(paused)
			<-resume
		}
	}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	c, err := osgo.NewClient(osgo.Config{Addresses: []string{srv.URL}, DisableRetry: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s, err := Open(c, "concurrent")
	if err != nil {
		t.Fatal(err)
	}
	v1, vec1 := crashVersion(1)
	done := make(chan error)
	go func() { done <- s.Put(ctx, apple(), v1, vec1, meta3) }()
	<-paused

	other := apple()
	other.Accession, other.CIK, other.Ticker = "0000789019-24-000099", "789019", "MSFT"
	oc := []store.Chunk{{ID: chunkID(other.Accession, "7", 0), Accession: other.Accession, Item: "7", Text: "tock"}}
	if err := s.Put(ctx, other, oc, [][]float32{{1, 2, 3}}, meta3); err != nil {
		t.Fatal(err)
	}
	close(resume)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if v, err := visibleVersion(s); err != nil || v != 1 {
		t.Errorf("after both Puts: version %d, %v; want the first Put's chunks whole", v, err)
	}
}
