package mirror

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

// The landing page of the Form 13F Data Sets and one of its zips, as they
// sit in a mirror tree.
const (
	landingPath = "www.sec.gov/data-research/sec-markets-data/form-13f-data-sets"
	zipPath     = "www.sec.gov/files/structureddata/data/form-13f-data-sets/2024q1_form13f.zip"
	zipURL      = "https://" + zipPath
	landingHTML = `<!DOCTYPE html><html><body><a href="/files/structureddata/data/form-13f-data-sets/2024q1_form13f.zip">2024 Q1</a></body></html>`
)

// dataSetsTree writes a mirror tree holding the landing page and a zip
// (the start of one, and filler), and returns its directory and the zip's
// bytes.
func dataSetsTree(t *testing.T) (string, []byte) {
	t.Helper()
	z := append([]byte("PK\x03\x04"), bytes.Repeat([]byte("compressed "), 3000)...)
	dir := t.TempDir()
	for p, b := range map[string][]byte{zipPath: z, landingPath: []byte(landingHTML)} {
		f := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, z
}

func TestCopyTo(t *testing.T) {
	dir, zipBytes := dataSetsTree(t)
	fsys, err := DirFS(dir)
	if err != nil {
		t.Fatal(err)
	}
	f := NewFetcher(fsys)
	ctx := context.Background()

	var buf bytes.Buffer
	n, err := f.CopyTo(ctx, zipURL, 0, &buf)
	if err != nil || n != int64(len(zipBytes)) || !bytes.Equal(buf.Bytes(), zipBytes) {
		t.Fatalf("CopyTo = %d, %v; copied %d bytes, want the %d of the file", n, err, buf.Len(), len(zipBytes))
	}

	buf.Reset()
	if _, err := f.CopyTo(ctx, zipURL, int64(len(zipBytes))-1, &buf); !errors.Is(err, ErrTooLarge) || buf.Len() != 0 {
		t.Errorf("over the limit: error %v, %d bytes written; want ErrTooLarge and nothing written", err, buf.Len())
	}
	if _, err := f.CopyTo(ctx, zipURL, int64(len(zipBytes)), &buf); err != nil {
		t.Errorf("exactly the limit: %v", err)
	}
	if _, err := f.CopyTo(ctx, "https://www.sec.gov/files/none.zip", 0, io.Discard); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing file: error %v, want ErrNotFound", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := f.CopyTo(cctx, zipURL, 0, io.Discard); !errors.Is(err, context.Canceled) {
		t.Errorf("ended context: error %v, want context.Canceled", err)
	}
}

// TestHandlerDataSets: a zip is served as stored (never gzipped again,
// whatever the client accepts), and the landing page, a file without an
// extension, as the HTML page it is.
func TestHandlerDataSets(t *testing.T) {
	dir, zipBytes := dataSetsTree(t)
	fsys, err := DirFS(dir)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(Handler(fsys))
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	for _, tt := range []struct {
		path, wantType string
		want           []byte
	}{
		{zipPath, "application/zip", zipBytes},
		{landingPath, "text/html; charset=utf-8", []byte(landingHTML)},
	} {
		req, _ := http.NewRequest("GET", srv.URL+"/"+tt.path, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if ct := resp.Header.Get("Content-Type"); ct != tt.wantType {
			t.Errorf("%s: Content-Type %q, want %q", tt.path, ct, tt.wantType)
		}
		if tt.wantType == "application/zip" {
			if ce := resp.Header.Get("Content-Encoding"); ce != "" || resp.ContentLength != int64(len(zipBytes)) {
				t.Errorf("zip served with Content-Encoding %q, Content-Length %d; want as stored, %d bytes", ce, resp.ContentLength, len(zipBytes))
			}
			if !bytes.Equal(body, tt.want) {
				t.Errorf("zip body differs from the file")
			}
		}
	}
}
