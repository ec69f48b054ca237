package opensearch

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/edgar13f/edgar13f/search/store"
)

// overlapEverySearch opens a store on a fake cluster whose state changes
// (as a Put hiding a generation changes it) while every search of the data
// index is served, and returns it with the count of those searches. When
// cancel is not nil it is called at the third search.
func overlapEverySearch(t *testing.T, cancel func()) (*Store, *atomic.Int64) {
	t.Helper()
	c, fake := fakeClient(t)
	s, err := Open(c, "busy")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Put(ctx, apple(), appleChunks(), appleVectors(), meta3); err != nil {
		t.Fatal(err)
	}
	var searches atomic.Int64
	fake.hook = func(method, path string) {
		if !strings.HasPrefix(path, "/busy-data-") || !strings.HasSuffix(path, "/_search") {
			return
		}
		if searches.Add(1) == 3 && cancel != nil {
			cancel()
		}
		fake.mu.Lock()
		defer fake.mu.Unlock()
		d := fake.indices["busy-state"].docs["state"]
		d.src["hides"] = d.src["hides"].(float64) + 1
		d.raw, _ = json.Marshal(d.src)
		fake.seq++
		d.seq = fake.seq
	}
	return s, &searches
}

// TestReadBusy: a query that a Put overlaps every time it runs is not
// answered from a mix of versions: after maxReads attempts it fails with
// an error matching store.ErrBusy.
func TestReadBusy(t *testing.T) {
	s, searches := overlapEverySearch(t, nil)
	ms, err := s.Lexical(ctx, "export", store.Filter{AsOf: lexicalFilter.AsOf}, 5)
	if !errors.Is(err, store.ErrBusy) {
		t.Fatalf("Lexical = %v, %v; want store.ErrBusy", ms, err)
	}
	if n := searches.Load(); n < maxReads {
		t.Errorf("%d searches before giving up; want at least %d", n, maxReads)
	}
}

// TestReadBusyCancelled: the pauses between the attempts end with the
// context.
func TestReadBusyCancelled(t *testing.T) {
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s, searches := overlapEverySearch(t, cancel)
	if _, err := s.Lexical(cctx, "export", store.Filter{AsOf: lexicalFilter.AsOf}, 5); !errors.Is(err, context.Canceled) {
		t.Fatalf("Lexical = %v; want context.Canceled", err)
	}
	if n := searches.Load(); n >= maxReads {
		t.Errorf("%d searches; the cancellation did not end the attempts", n)
	}
}
