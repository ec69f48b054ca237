package search

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

// stepClock is a clock that moves one second each time it is read.
type stepClock struct{ t time.Time }

func (c *stepClock) now() time.Time {
	c.t = c.t.Add(time.Second)
	return c.t
}

func TestIndexProgressRateAndTimeLeft(t *testing.T) {
	st := newMemStore()
	e, _, _ := fakeEngine(t, st, WithEmbedder(&hashEmbedder{model: "hash-test", dim: 16}))
	ctx := context.Background()
	asOf := day("2025-03-01")
	clock := &stepClock{t: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	withClock := indexOption(func(o *indexOptions) { o.now = clock.now })

	var after []Progress // progress once a filing is done
	track := ReportProgress(func(p Progress) {
		switch {
		case p.Filings == 0:
			if p.Elapsed != 0 || p.ChunksPerSecond != 0 || p.Left != 0 {
				t.Errorf("before any filing is done: %+v; want no rate", p)
			}
		case len(after) == 0 || p.Filings > after[len(after)-1].Filings:
			after = append(after, p)
		}
	})
	if _, err := e.Index(ctx, []string{"aapl", "0001045810"}, asOf, Limit(2), track, withClock); err != nil {
		t.Fatal(err)
	}
	if len(after) != 4 {
		t.Fatalf("%d progress reports after a filing; want 4", len(after))
	}
	// Each filing takes one second of the clock (read before and after it),
	// and the clock is read once more between filings.
	for i, p := range after {
		done := i + 1
		if want := time.Duration(2*done-1) * time.Second; p.Elapsed != want {
			t.Errorf("after filing %d: Elapsed %s; want %s", done, p.Elapsed, want)
		}
		if want := float64(p.Chunks) / float64(done); p.Chunks == 0 || p.ChunksPerSecond != want {
			t.Errorf("after filing %d: %d chunks, %v chunks/s; want %v", done, p.Chunks, p.ChunksPerSecond, want)
		}
		if want := time.Duration(p.FilingsPlan-done) * time.Second; p.Left != want {
			t.Errorf("after filing %d of %d: Left %s; want %s", done, p.FilingsPlan, p.Left, want)
		}
	}

	// Filings the store holds already take no time and add no rate.
	after = nil
	if _, err := e.Index(ctx, []string{"aapl"}, asOf, Limit(2), track, withClock); err != nil {
		t.Fatal(err)
	}
	if len(after) != 2 {
		t.Fatalf("%d progress reports after a reused filing; want 2", len(after))
	}
	for _, p := range after {
		if p.ChunksPerSecond != 0 || p.Left != 0 {
			t.Errorf("reused filings: %+v; want no rate and no time left", p)
		}
	}
}

// cancelEmbedder embeds as its hashEmbedder until armed; armed, it ends
// the Index call's context and fails as a cancelled embedder does.
type cancelEmbedder struct {
	*hashEmbedder
	armed  atomic.Bool
	cancel context.CancelFunc
}

func (c *cancelEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if c.armed.Load() {
		c.cancel()
		return nil, ctx.Err()
	}
	return c.hashEmbedder.Embed(ctx, texts)
}

// An Index interrupted in the middle of a filing keeps every filing it
// finished, searchable, and stores nothing of the one under way; a second
// Index reuses the finished ones and reads the rest.
func TestIndexInterruptedKeepsFinishedFilings(t *testing.T) {
	st := newMemStore()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	emb := &cancelEmbedder{hashEmbedder: &hashEmbedder{model: "hash-test", dim: 16}, cancel: cancel}
	e, _, _ := fakeEngine(t, st, WithEmbedder(emb))
	asOf := day("2025-03-01")

	var finished []string
	var interrupted string
	_, err := e.Index(ctx, []string{"aapl", "0001045810"}, asOf, Limit(2), ReportProgress(func(p Progress) {
		if p.Accession == "" {
			return
		}
		if p.Filings > len(finished) { // after a filing
			finished = append(finished, p.Accession)
			return
		}
		if p.Filings == 2 && !emb.armed.Load() {
			// Before the third filing: interrupt it while it is embedded.
			interrupted = p.Accession
			emb.armed.Store(true)
		}
	}))
	var ie *IndexError
	if !errors.As(err, &ie) || !errors.Is(err, context.Canceled) || ie.Accession != interrupted {
		t.Fatalf("Index = %v; want an IndexError for %s wrapping context.Canceled", err, interrupted)
	}
	if len(finished) != 2 {
		t.Fatalf("finished %v before the interruption; want 2 filings", finished)
	}
	fs, err := st.Filings(context.Background(), asOf)
	if err != nil {
		t.Fatal(err)
	}
	var stored []string
	for _, f := range fs {
		stored = append(stored, f.Accession)
		if f.Chunks == 0 {
			t.Errorf("stored filing %s has no chunks", f.Accession)
		}
	}
	slices.Sort(stored)
	slices.Sort(finished)
	if !slices.Equal(stored, finished) {
		t.Errorf("after the interruption the store holds %v; want the finished filings %v and not %s", stored, finished, interrupted)
	}
	hits, err := e.Search(context.Background(), "revenue", asOf, Mode("bm25"))
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hits.Hits {
		if !slices.Contains(finished, h.Accession) {
			t.Errorf("hit from %s, not a finished filing", h.Accession)
		}
	}

	// Resumed: the finished filings are reused, the others read.
	emb.armed.Store(false)
	res, err := e.Index(context.Background(), []string{"aapl", "0001045810"}, asOf, Limit(2))
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range res.Indexed {
		if x.Reused != slices.Contains(finished, x.Accession) {
			t.Errorf("resumed: %s reused=%v; want reused exactly when finished before", x.Accession, x.Reused)
		}
	}
	if len(res.Indexed) != 4 {
		t.Errorf("resumed: %d filings; want 4", len(res.Indexed))
	}
}
