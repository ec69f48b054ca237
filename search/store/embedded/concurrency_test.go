package embedded

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/search/store"
)

// TestConcurrentPutAndQueries runs Puts of several filings (new ones and
// replacements) beside queries of every kind, with room for only two open
// shards so that shards are closed and reopened under the queries. Run it
// with -race. Every answer must hold whole versions only, and the cache
// must stay within its bound once the queries end.
func TestConcurrentPutAndQueries(t *testing.T) {
	s, err := Open(t.TempDir(), OpenShards(2))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const writers, versions = 3, 4
	all := store.Filter{AsOf: edgar13f.MustParseDate("2099-01-01")}
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	done := make(chan struct{})
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for v := range versions {
				for i := w * 2; i < w*2+2; i++ {
					f, cs, vs := crashVersion(i, v)
					if err := s.Put(ctx, f, cs, vs, crashMeta); err != nil {
						errs <- err
						return
					}
				}
			}
		}()
	}
	// check reports matches mixing versions of a filing.
	check := func(ms []store.Match) error {
		version := map[string]string{}
		for _, m := range ms {
			v := strings.Fields(m.Chunk.Text)[4] // "crash filing <i> version v<n> ..."
			if m.Filing.Company != v {
				return fmt.Errorf("chunk %s of %s with filing of %s", v, m.Chunk.Accession, m.Filing.Company)
			}
			if old, ok := version[m.Chunk.Accession]; ok && old != v {
				return fmt.Errorf("versions %s and %s of %s in one answer", old, v, m.Chunk.Accession)
			}
			version[m.Chunk.Accession] = v
		}
		return nil
	}
	var readers sync.WaitGroup
	for r := range 3 {
		readers.Add(1)
		go func() {
			defer readers.Done()
			for n := 0; ; n++ {
				select {
				case <-done:
					return
				default:
				}
				var ms []store.Match
				var err error
				switch (r + n) % 4 {
				case 0:
					ms, err = s.Lexical(ctx, "crash report", all, 50)
				case 1:
					ms, err = s.Nearest(ctx, []float32{1, 2, 3, 4}, all, 50)
					if err == store.ErrNoVectors {
						err = nil // before the first Put
					}
				case 2:
					_, cs, _ := crashVersion(n%(2*writers), 0)
					var c store.Chunk
					var f store.Filing
					var ok bool
					c, f, ok, err = s.Chunk(ctx, cs[0].ID)
					if ok {
						ms = []store.Match{{Chunk: c, Filing: f}}
					}
				case 3:
					_, err = s.Filings(ctx, all.AsOf)
				}
				if err == nil {
					err = check(ms)
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(done)
	readers.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	fs, err := s.Filings(ctx, all.AsOf)
	if err != nil || len(fs) != 2*writers {
		t.Fatalf("Filings = %d, %v; want %d", len(fs), err, 2*writers)
	}
	for _, f := range fs {
		if f.Company != fmt.Sprint("v", versions-1) {
			t.Errorf("filing %s at %s; want the last version", f.Accession, f.Company)
		}
	}
	if n := s.cache.open(); n > 2 {
		t.Errorf("%d shards open; the bound is 2", n)
	}
}

// TestTwoStoresOneDirectory: two Stores on one directory (as two processes
// would have) see each other's Puts and replacements.
func TestTwoStoresOneDirectory(t *testing.T) {
	dir := t.TempDir()
	a, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	all := store.Filter{AsOf: edgar13f.MustParseDate("2099-01-01")}
	put := func(s *Store, i, v int) {
		t.Helper()
		f, cs, vs := crashVersion(i, v)
		if err := s.Put(ctx, f, cs, vs, crashMeta); err != nil {
			t.Fatal(err)
		}
	}
	versions := func(s *Store) string {
		t.Helper()
		ms, err := s.Lexical(ctx, "crash", all, 50)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		var out []string
		for _, m := range ms {
			key := m.Chunk.Accession[9:10] + ":" + m.Filing.Company
			if !seen[key] {
				seen[key] = true
				out = append(out, key)
			}
		}
		return strings.Join(sortedStrings(out), " ")
	}
	put(a, 0, 1)
	if got := versions(b); got != "1:v1" {
		t.Errorf("b sees %q after a's Put; want 1:v1", got)
	}
	put(b, 0, 2)
	put(b, 1, 3)
	if got := versions(a); got != "1:v2 2:v3" {
		t.Errorf("a sees %q after b's Puts; want 1:v2 2:v3", got)
	}
	if m, err := a.Meta(ctx); err != nil || m != crashMeta {
		t.Errorf("a.Meta = %v, %v", m, err)
	}
	put(a, 0, 4)
	if got := versions(b); got != "1:v4 2:v3" {
		t.Errorf("b sees %q after a's replacement; want 1:v4 2:v3", got)
	}
}

func sortedStrings(s []string) []string {
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	return s
}
