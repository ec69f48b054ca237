package datasets_test

import (
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/datasets"
	"github.com/edgar13f/edgar13f/internal/edgartest"
	"github.com/edgar13f/edgar13f/mirror"
)

// open opens c's store, failing the test when it cannot.
func open(t testing.TB, c *edgar13f.Client) *datasets.Store {
	t.Helper()
	d, err := datasets.Open(c)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func date(s string) edgar13f.Date { return edgar13f.MustParseDate(s) }

// TestOpenNeedsCacheDirectory: the store lives under the Client's cache
// directory, so a Client caching in memory or not at all cannot open one,
// and the error says what to set.
func TestOpenNeedsCacheDirectory(t *testing.T) {
	for name, opt := range map[string]edgar13f.ClientOption{
		"no cache":         edgar13f.WithCache(nil),
		"a caller's cache": edgar13f.WithCache(edgartest.NewMemCache()),
	} {
		c, err := edgar13f.NewClient(edgar13f.WithFetcher(mirror.NewFetcher(edgartest.MirrorFS(t))), opt)
		if err != nil {
			t.Fatal(err)
		}
		if d, err := datasets.Open(c); err == nil || !strings.Contains(err.Error(), "WithCacheDir") {
			t.Errorf("%s: Open = %v, %v; want an error naming WithCacheDir", name, d, err)
		}
	}
	if d, err := datasets.Open(nil); err == nil {
		t.Errorf("Open(nil) = %v", d)
	}
}
