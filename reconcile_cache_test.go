package edgar13f_test

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"strings"
	"testing"
	"time"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/edgartest"
	"github.com/edgar13f/edgar13f/mirror"
)

// TestOldCacheEntriesNeverServed: entries written before tables were
// tallied (covers without totals under cover/v1, rows without a tally
// under rows/v1 in encoding version 1) are never served: a Client finding
// only those reads the filing again and reconciles it with its cover.
func TestOldCacheEntriesNeverServed(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	// One named source for every Client, so that they share cache entries.
	f := &edgartest.CountingFetcher{Next: mirror.NewFetcher(edgartest.MirrorFS(t)), Name: "test mirror"}
	newClient := func(cache edgar13f.Cache) (*edgar13f.Client, *edgartest.CountingFetcher) {
		c, err := edgar13f.NewClient(edgar13f.WithFetcher(f), edgar13f.WithCache(cache), edgar13f.WithClock(edgartest.Clock(func() time.Time { return now })))
		if err != nil {
			t.Fatal(err)
		}
		f.Take()
		return c, f
	}
	period, asOf := edgar13f.MustParseDate("2023-12-31"), edgar13f.MustParseDate("2024-03-01")
	fresh := edgartest.NewMemCache()
	c, _ := newClient(fresh)
	if _, err := c.Holdings(ctx, "1067983", period, asOf); err != nil {
		t.Fatal(err)
	}
	// Rewrite every cover and rows entry as the previous version wrote it;
	// and, to compare with, drop them.
	old, none := edgartest.NewMemCache(), edgartest.NewMemCache()
	n := 0
	for k, v := range fresh.All() {
		if !strings.Contains(k, edgar13f.KeyCover) && !strings.Contains(k, edgar13f.KeyRows) {
			none.Put(ctx, k, v)
		}
		switch {
		case strings.Contains(k, edgar13f.KeyCover):
			var rec map[string]any
			if err := json.Unmarshal(v, &rec); err != nil {
				t.Fatal(err)
			}
			delete(rec, "totals")
			v, _ = json.Marshal(rec)
			k = strings.Replace(k, edgar13f.KeyCover, "cover/v1/", 1)
			n++
		case strings.Contains(k, edgar13f.KeyRows):
			// Version 1: no tally after the version byte.
			body := v[5 : len(v)-4]
			_, a := binary.Uvarint(body)
			_, b := binary.Varint(body[a:])
			w := append([]byte("E13T\x01"), body[a+b:]...)
			v = binary.LittleEndian.AppendUint32(w, crc32.Checksum(w, crc32.MakeTable(crc32.Castagnoli)))
			k = strings.Replace(k, edgar13f.KeyRows, "rows/v1/", 1)
			n++
		}
		old.Put(ctx, k, v)
	}
	if n < 2 {
		t.Fatalf("rewrote %d entries; want the cover and the rows", n)
	}
	c, _ = newClient(none)
	if _, err := c.Holdings(ctx, "1067983", period, asOf); err != nil {
		t.Fatal(err)
	}
	want := f.Len()
	c, f = newClient(old)
	snap, err := c.Holdings(ctx, "1067983", period, asOf)
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Len(); got != want || want == 0 {
		t.Errorf("%d fetches; want %d, as with no cover or rows cached", got, want)
	}
	r := snap.Reconciliations
	if len(r) != 1 || !r[0].Matched || !r[0].Cover.Stated || r[0].Cover.Entries != 138 {
		t.Errorf("reconciliations %+v; want the cover's 138 rows, matched", r)
	}
}
