package access

import (
	"bytes"
	"context"
	"fmt"
	"testing"
)

func TestMemoryCacheBound(t *testing.T) {
	ctx := context.Background()
	m := NewMemoryCache()
	chunk := bytes.Repeat([]byte{1}, memoryLimit/4)
	for i := range 6 {
		m.Put(ctx, fmt.Sprint(i), chunk)
	}
	for i := range 6 {
		_, err := m.Get(ctx, fmt.Sprint(i))
		if want := i >= 2; (err == nil) != want {
			t.Errorf("entry %d kept: %t, want %t (the oldest go first)", i, err == nil, want)
		}
	}
	if n := m.(*memoryCache).size; n > memoryLimit {
		t.Errorf("holds %d bytes, limit %d", n, memoryLimit)
	}
	m.Put(ctx, "huge", make([]byte, memoryLimit+1))
	if _, err := m.Get(ctx, "huge"); err == nil {
		t.Error("an entry over the whole limit was kept")
	}
	// Entries are copies: changing what was put or got changes nothing.
	b := []byte("abc")
	m.Put(ctx, "k", b)
	b[0] = 'x'
	got, _ := m.Get(ctx, "k")
	got[1] = 'y'
	if again, _ := m.Get(ctx, "k"); string(again) != "abc" {
		t.Errorf("entry changed to %q through a caller's slice", again)
	}
}

// recordingCache notes every key put into it. Not the tests' kit (internal/edgartest): that is built on the root,
// which imports this package.
type recordingCache struct{ puts []string }

func (r *recordingCache) Get(context.Context, string) ([]byte, error) { return nil, errMemoryMiss }
func (r *recordingCache) Put(_ context.Context, key string, _ []byte) error {
	r.puts = append(r.puts, key)
	return nil
}

// TestUnnamedFetcherCachesInMemory: a Layer over a Fetcher that names no
// source never writes to the Cache it was given (nothing there could serve
// another Layer) but keeps its entries in memory for itself.
func TestUnnamedFetcherCachesInMemory(t *testing.T) {
	ctx := context.Background()
	shared := &recordingCache{}
	l, err := New(Config{Fetcher: bytesFetcher{source: ""}, Cache: shared, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	l.Keep(ctx, "k", []byte("v"))
	if got, ok := l.Cached(ctx, "k"); !ok || string(got) != "v" {
		t.Errorf("Cached = %q, %t; want the entry kept in memory", got, ok)
	}
	if len(shared.puts) != 0 || l.Dir() != "" {
		t.Errorf("puts %q into the given cache, Dir %q; want none and no directory", shared.puts, l.Dir())
	}
	// Another Layer over an unnamed Fetcher does not see it.
	l2, err := New(Config{Fetcher: bytesFetcher{source: ""}, Cache: shared})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := l2.Cached(ctx, "k"); ok {
		t.Error("an entry of one unnamed Fetcher answered another Layer")
	}
	// A named one writes to the cache it was given.
	l3, err := New(Config{Fetcher: bytesFetcher{source: "fixture"}, Cache: shared})
	if err != nil {
		t.Fatal(err)
	}
	l3.Keep(ctx, "k", []byte("v"))
	if len(shared.puts) != 1 {
		t.Errorf("a named Fetcher's Layer put %q, want one entry", shared.puts)
	}
}
