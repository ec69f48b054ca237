package wire

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/search"
)

// TestOpenSearchMakesCompactCopies: opening a store whose vectors lack
// their one-byte copies (as a store of an earlier release does) makes
// them, saying so, from the first tenth of the work to the last; a store
// that has them opens without a word.
func TestOpenSearchMakesCompactCopies(t *testing.T) {
	c := Config{EmbedURL: "hash:16", FixtureDir: filepath.Join("..", "..", "..", "testdata", "mirror"), CacheDir: t.TempDir()}
	client, _, err := c.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	open := func() *Search {
		t.Helper()
		lines = nil
		s, err := OpenSearchReporting(client, c, func(_, line string) { lines = append(lines, line) })
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	s := open()
	if _, err := s.Engine.Index(context.Background(), []string{"AAPL"}, edgar13f.MustParseDate("2025-08-15"), search.FormType("10-Q")); err != nil {
		t.Fatal(err)
	}
	s.Close()
	dir, err := c.SearchDir()
	if err != nil {
		t.Fatal(err)
	}
	copies, _ := filepath.Glob(filepath.Join(dir, "filings", "*", "vectors.q8"))
	if len(copies) == 0 {
		t.Fatal("the store has no compact vector copies to remove")
	}
	for _, p := range copies {
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
	}
	s = open()
	s.Close()
	if len(lines) == 0 || !strings.Contains(lines[len(lines)-1], "one-byte copies") {
		t.Fatalf("opening a store without its vectors' copies reported %q; want the copies being made", lines)
	}
	t.Logf("reported:\n%s", strings.Join(lines, "\n"))
	if again, _ := filepath.Glob(filepath.Join(dir, "filings", "*", "vectors.q8")); len(again) != len(copies) {
		t.Errorf("%d compact copies after opening; want %d", len(again), len(copies))
	}
	s = open()
	s.Close()
	if len(lines) != 0 {
		t.Errorf("opening a store with its copies reported %q; want nothing", lines)
	}
}
