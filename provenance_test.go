package edgar13f_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/edgartest"
	"github.com/edgar13f/edgar13f/mirror"
)

// Cache provenance: every cache entry belongs to the source it was read
// from, and is never served to a Client reading another source.

// provenanceClient returns a Client on the cache directory dir with the
// tests' fixed clock and opts.
func provenanceClient(t *testing.T, dir string, opts ...edgar13f.ClientOption) *edgar13f.Client {
	t.Helper()
	c, err := edgar13f.NewClient(append([]edgar13f.ClientOption{
		edgar13f.WithCacheDir(dir),
		edgar13f.WithClock(edgartest.Clock(func() time.Time { return edgartest.FixedNow })),
	}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// fixtureRun answers the provenance questions from the recorded mirror
// tree, filling the cache in dir.
func fixtureRun(t *testing.T, dir string) {
	t.Helper()
	fsys, err := mirror.Dir(edgartest.MirrorDir)
	if err != nil {
		t.Fatal(err)
	}
	c := provenanceClient(t, dir, edgar13f.WithFetcher(mirror.NewFetcher(fsys)))
	ctx := context.Background()
	if _, err := c.Filings(ctx, "1067983", date("2024-06-01")); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Holdings(ctx, "1067983", date("2023-09-30"), date("2024-06-01")); err != nil {
		t.Fatal(err)
	}
	if ms, err := c.FindManager(ctx, "berkshire"); err != nil || len(ms) == 0 {
		t.Fatalf("FindManager(berkshire) = %v, %v", ms, err)
	}
}

// TestFixtureNeverAnswersLive: after a run over the recorded mirror tree, a
// Client on the same cache directory reading an HTTP mirror gets that
// mirror's answers, never the fixture's: requests go out for the filing
// list, covers, tables and the name index.
func TestFixtureNeverAnswersLive(t *testing.T) {
	ctx := context.Background()
	t.Run("empty mirror", func(t *testing.T) {
		dir := t.TempDir()
		fixtureRun(t, dir)
		e := edgartest.NewServer(t, &edgartest.Fault{Match: "/", Serve: edgartest.NotFound}) // an empty mirror
		c := provenanceClient(t, dir, edgar13f.WithUserAgent(edgartest.UserAgent), edgar13f.WithBaseURL(e.URL()))

		_, err := c.Filings(ctx, "1067983", date("2024-06-01"))
		if !errors.Is(err, edgar13f.UnknownCIK) {
			t.Errorf("Filings over an empty mirror = %v; want the empty mirror's unknown_cik", err)
		}
		_, err = c.Holdings(ctx, "1067983", date("2023-09-30"), date("2024-06-01"))
		if !errors.Is(err, edgar13f.UnknownCIK) {
			t.Errorf("Holdings over an empty mirror = %v; want the empty mirror's unknown_cik", err)
		}
		ms, err := c.FindManager(ctx, "berkshire")
		if !errors.Is(err, edgar13f.ErrNotFound) {
			t.Errorf("FindManager over an empty mirror = %v, %v; want a missing cik-lookup-data.txt", ms, err)
		}
		if n := e.Count("/"); n < 3 {
			t.Errorf("%d requests reached the empty mirror; want one per question at least", n)
		}
	})

	// A mirror holding only the filing lists: the covers (Filings) and the
	// tables (Holdings) must be asked of it too.
	t.Run("mirror without documents", func(t *testing.T) {
		dir := t.TempDir()
		fixtureRun(t, dir)
		const docs = "/www.sec.gov/" // every document but the filing lists
		e := edgartest.NewServer(t, &edgartest.Fault{Match: docs, Serve: edgartest.NotFound})
		c := provenanceClient(t, dir, edgar13f.WithUserAgent(edgartest.UserAgent), edgar13f.WithBaseURL(e.URL()))
		var fe *edgar13f.FetchError
		if _, err := c.Filings(ctx, "1067983", date("2024-06-01")); !errors.As(err, &fe) || !errors.Is(err, edgar13f.ErrNotFound) || !strings.HasSuffix(fe.URL, "/primary_doc.xml") {
			t.Errorf("Filings without covers = %v; want a missing cover page", err)
		}
		before := e.Count(docs)
		if _, err := c.Holdings(ctx, "1067983", date("2023-09-30"), date("2024-06-01")); !errors.As(err, &fe) || !errors.Is(err, edgar13f.ErrNotFound) || !strings.HasSuffix(fe.URL, ".txt") {
			t.Errorf("Holdings without tables = %v; want a missing submission text file", err)
		}
		if e.Count(docs) == before {
			t.Errorf("Holdings asked the mirror for no document")
		}
	})
}

// TestMissingFixtureDirNeverAnswers: a fixture directory that does not
// exist is refused, and a file system without a name of its own answers
// nothing from the entries another source left in the cache.
func TestMissingFixtureDirNeverAnswers(t *testing.T) {
	dir := t.TempDir()
	fixtureRun(t, dir)
	missing := filepath.Join(t.TempDir(), "no-such-mirror")
	if _, err := mirror.Dir(missing); err == nil {
		t.Errorf("mirror.Dir(%s) of a directory that does not exist: no error", missing)
	}
	c := provenanceClient(t, dir, edgar13f.WithFetcher(mirror.NewFetcher(os.DirFS(missing))))
	ctx := context.Background()
	if s, err := c.Holdings(ctx, "1067983", date("2023-09-30"), date("2024-06-01")); err == nil {
		t.Errorf("Holdings through a missing fixture directory answered %s from the cache", s.Base.Accession)
	}
	if ms, err := c.FindManager(ctx, "berkshire"); err == nil {
		t.Errorf("FindManager through a missing fixture directory answered %v from the cache", ms)
	}
}

// TestSameSourceSharesEntries: Clients reading the same mirror directory
// share the cache, so provenance costs no requests.
func TestSameSourceSharesEntries(t *testing.T) {
	dir := t.TempDir()
	fixtureRun(t, dir)
	fsys, err := mirror.Dir(edgartest.MirrorDir)
	if err != nil {
		t.Fatal(err)
	}
	f := &edgartest.CountingFetcher{Next: mirror.NewFetcher(fsys)}
	c := provenanceClient(t, dir, edgar13f.WithFetcher(f)) // f passes the mirror's Source on
	ctx := context.Background()
	if _, err := c.Holdings(ctx, "1067983", date("2023-09-30"), date("2024-06-01")); err != nil {
		t.Fatal(err)
	}
	if _, err := c.FindManager(ctx, "berkshire"); err != nil {
		t.Fatal(err)
	}
	if urls := f.Take(); len(urls) != 0 {
		t.Errorf("a second Client on the same mirror directory fetched %q", urls)
	}
}

// TestUnnamedFetcherWritesNoCache: a Client over a Fetcher without a
// Source caches in memory only: its second answer fetches nothing, and
// nothing is written to the cache directory (no entry there could serve
// another Client), nor to a Cache of the caller's.
func TestUnnamedFetcherWritesNoCache(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	f := &edgartest.CountingFetcher{Next: mirror.NewFetcher(edgartest.MirrorFS(t))}
	unnamed := struct{ edgar13f.Fetcher }{f} // f's Fetch alone, not its Source
	if _, ok := any(unnamed).(interface{ Source() string }); ok {
		t.Fatal("the test needs a Fetcher without a Source")
	}
	mc := edgartest.NewMemCache()
	for _, opt := range []edgar13f.ClientOption{edgar13f.WithCacheDir(dir), edgar13f.WithCache(mc)} {
		c := provenanceClient(t, dir, opt, edgar13f.WithFetcher(unnamed))
		ctx := context.Background()
		for i := range 2 {
			if _, err := c.Holdings(ctx, "1067983", date("2023-09-30"), date("2024-06-01")); err != nil {
				t.Fatal(err)
			}
			if urls := f.Take(); i == 1 && len(urls) != 0 {
				t.Errorf("the second answer fetched %q; want it from memory", urls)
			}
		}
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the cache directory was created (%v); want nothing written", err)
	}
	if n := mc.Len(); n != 0 {
		t.Errorf("the caller's Cache got %d entries; want none", n)
	}
}
