package edgar13f

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
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
	fsys, err := MirrorDir(tree)
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewClient(WithFetcher(NewMirrorFetcher(fsys)), WithCacheDir(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	got, err := c.edgar.Download(ctx, url, false)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(got.Path); !bytes.Equal(b, z) {
		t.Errorf("downloaded %d bytes, want the %d of the mirrored file", len(b), len(z))
	}
	if c.edgar.Source() != "fetcher:named:mirror:"+tree {
		t.Errorf("source %q: the download must belong to the mirror directory", c.edgar.Source())
	}
	_, err = c.edgar.Download(ctx, url+".missing.zip", false)
	var fe *FetchError
	if !errors.As(err, &fe) || !errors.Is(err, ErrNotFound) {
		t.Errorf("missing window: error %v, want a *FetchError wrapping ErrNotFound", err)
	}
}
