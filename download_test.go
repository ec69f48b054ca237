package edgar13f_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/edgar13f/edgar13f"
)

// TestMirrorFetcherDownloads: a Client over a mirror directory downloads a
// Data Sets zip from the mirrored file, under the directory's source, and
// a missing window is a *FetchError wrapping ErrNotFound.
func TestMirrorFetcherDownloads(t *testing.T) {
	const url = "https://www.sec.gov/files/structureddata/data/form-13f-data-sets/2024q1_form13f.zip"
	tree := t.TempDir()
	p := filepath.Join(tree, "www.sec.gov/files/structureddata/data/form-13f-data-sets/2024q1_form13f.zip")
	z := append([]byte("PK\x03\x04"), bytes.Repeat([]byte("zip body "), 10000)...)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, z, 0o644); err != nil {
		t.Fatal(err)
	}
	fsys, err := edgar13f.MirrorDir(tree)
	if err != nil {
		t.Fatal(err)
	}
	c, err := edgar13f.NewClient(edgar13f.WithFetcher(edgar13f.NewMirrorFetcher(fsys)), edgar13f.WithCacheDir(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	got, err := c.EDGAR().Download(ctx, url, false)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(got.Path); !bytes.Equal(b, z) {
		t.Errorf("downloaded %d bytes, want the %d of the mirrored file", len(b), len(z))
	}
	if c.EDGAR().Source() != "fetcher:named:mirror:"+tree {
		t.Errorf("source %q: the download must belong to the mirror directory", c.EDGAR().Source())
	}
	_, err = c.EDGAR().Download(ctx, url+".missing.zip", false)
	var fe *edgar13f.FetchError
	if !errors.As(err, &fe) || !errors.Is(err, edgar13f.ErrNotFound) {
		t.Errorf("missing window: error %v, want a *FetchError wrapping ErrNotFound", err)
	}
}
