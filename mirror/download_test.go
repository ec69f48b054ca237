package mirror_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/access"
	"github.com/edgar13f/edgar13f/internal/clientparts"
	"github.com/edgar13f/edgar13f/mirror"
)

// edgarOf is the access layer c lends the module's packages (as package
// datasets downloads its windows through it).
func edgarOf(c *edgar13f.Client) *access.Layer {
	var p clientparts.Parts
	c.Parts(&p)
	return p.Access
}

// zipURL is the Data Sets window the tests download.
const zipURL = "https://www.sec.gov/files/structureddata/data/form-13f-data-sets/2024q1_form13f.zip"

// zipTree returns a mirror directory holding only zipURL's file, n
// repetitions of "zip body " after a zip's magic, that directory as a
// mirror and the file's bytes.
func zipTree(t *testing.T, n int) (string, fs.FS, []byte) {
	t.Helper()
	tree := t.TempDir()
	p := filepath.Join(tree, strings.TrimPrefix(zipURL, "https://"))
	z := append([]byte("PK\x03\x04"), bytes.Repeat([]byte("zip body "), n)...)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, z, 0o644); err != nil {
		t.Fatal(err)
	}
	fsys, err := mirror.Dir(tree)
	if err != nil {
		t.Fatal(err)
	}
	return tree, fsys, z
}

// TestMirrorFetcherDownloads: a Client over a mirror directory downloads a
// Data Sets zip from the mirrored file, under the directory's source, and
// a missing window is a *FetchError wrapping ErrNotFound.
func TestMirrorFetcherDownloads(t *testing.T) {
	tree, fsys, z := zipTree(t, 10000)
	c, err := edgar13f.NewClient(edgar13f.WithFetcher(mirror.NewFetcher(fsys)), edgar13f.WithCacheDir(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	got, err := edgarOf(c).Download(ctx, zipURL, false)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(got.Path); !bytes.Equal(b, z) {
		t.Errorf("downloaded %d bytes, want the %d of the mirrored file", len(b), len(z))
	}
	if edgarOf(c).Source() != "fetcher:named:mirror:"+tree {
		t.Errorf("source %q: the download must belong to the mirror directory", edgarOf(c).Source())
	}
	_, err = edgarOf(c).Download(ctx, zipURL+".missing.zip", false)
	var fe *edgar13f.FetchError
	if !errors.As(err, &fe) || !errors.Is(err, edgar13f.ErrNotFound) {
		t.Errorf("missing window: error %v, want a *FetchError wrapping ErrNotFound", err)
	}
}

// streamingFetcher lends a Stream the way mirror.Fetcher does, and notes
// whether a download went through it.
type streamingFetcher struct {
	*mirror.Fetcher
	streamed bool
}

func (s *streamingFetcher) Parts(p *clientparts.Mirror) {
	s.Fetcher.Parts(p)
	inner := p.Stream
	p.Stream = func(ctx context.Context, url string, w io.Writer) error {
		s.streamed = true
		return inner(ctx, url, w)
	}
}

// TestMirrorFetcherDownloadsStream: a Client given a mirror fetcher
// downloads through the fetcher's stream (the file is never held whole),
// and a mirror.Fetcher's stream writes the mirrored bytes.
func TestMirrorFetcherDownloadsStream(t *testing.T) {
	_, fsys, z := zipTree(t, 1000)
	f := &streamingFetcher{Fetcher: mirror.NewFetcher(fsys)}
	c, err := edgar13f.NewClient(edgar13f.WithFetcher(f), edgar13f.WithCacheDir(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	got, err := edgarOf(c).Download(context.Background(), zipURL, false)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(got.Path); !bytes.Equal(b, z) {
		t.Errorf("downloaded %d bytes, want the %d of the mirrored file", len(b), len(z))
	}
	if !f.streamed {
		t.Error("the download did not go through the mirror fetcher's stream")
	}
}
