package access

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edgar13f/edgar13f/internal/docerr"
	"github.com/edgar13f/edgar13f/internal/edgarhttp"
	"github.com/edgar13f/edgar13f/internal/mirror"
	"github.com/edgar13f/edgar13f/internal/throttle"
	"github.com/edgar13f/edgar13f/internal/wiretest"
)

const testUA = "Example Research research@example.com"

// The landing page of the Form 13F Data Sets and two of its windows, in a
// mirror tree.
const (
	landingURL = "https://www.sec.gov/data-research/sec-markets-data/form-13f-data-sets"
	zipURL     = "https://www.sec.gov/files/structureddata/data/form-13f-data-sets/2024q1_form13f.zip"
	zip2URL    = "https://www.sec.gov/files/structureddata/data/form-13f-data-sets/2023q4_form13f.zip"
	landing    = `<!DOCTYPE html><html><body><a href="/files/structureddata/data/form-13f-data-sets/2024q1_form13f.zip">2024 Q1</a></body></html>`
)

// windowZip returns a zip holding a SUBMISSION table of n rows.
func windowZip(t *testing.T, n int) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.Create("SUBMISSION.tsv")
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(w, "ACCESSION_NUMBER\tFILING_DATE\tSUBMISSIONTYPE\tCIK\tPERIODOFREPORT")
	for i := range n {
		fmt.Fprintf(w, "0000950123-24-%06d\t15-FEB-2024\t13F-HR\t%d\t31-DEC-2023\n", i, 1000+i)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// writeTree writes files (by URL) into a mirror tree and returns its directory.
func writeTree(t *testing.T, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	for u, b := range files {
		p, err := mirror.PathFor(u)
		if err != nil {
			t.Fatal(err)
		}
		f := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// httpLayer returns a Layer reading base over HTTP with a cache directory,
// fast retries and the given spacing.
func httpLayer(t *testing.T, base string, interval time.Duration) *Layer {
	t.Helper()
	dir := t.TempDir()
	l, err := New(Config{
		UserAgent: testUA,
		BaseURL:   base,
		Interval:  interval,
		Retry:     Retry{MaxAttempts: 3, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond},
		Cache:     NewMemoryCache(),
		Dir:       dir,
	})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// countingHandler counts the requests h answers.
type countingHandler struct {
	h http.Handler
	n atomic.Int32
}

func (c *countingHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.n.Add(1)
	c.h.ServeHTTP(w, r)
}

// leftovers lists the temporary files under dir.
func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	var tmp []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), tempPrefix) {
			tmp = append(tmp, p)
		}
		return nil
	})
	return tmp
}

// mirrorServer serves a mirror tree of files (by URL) over HTTP, counting
// the requests. Not the tests' kit (internal/edgartest): that is built on
// the root, which imports this package.
func mirrorServer(t *testing.T, files map[string][]byte) (*httptest.Server, *countingHandler) {
	t.Helper()
	fsys, err := mirror.DirFS(writeTree(t, files))
	if err != nil {
		t.Fatal(err)
	}
	h := &countingHandler{h: mirror.Handler(fsys)}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv, h
}

func TestDownloadOverHTTP(t *testing.T) {
	z := windowZip(t, 2000)
	srv, h := mirrorServer(t, map[string][]byte{zipURL: z, landingURL: []byte(landing)})
	l := httpLayer(t, srv.URL, time.Millisecond)
	ctx := context.Background()

	f, err := l.Download(ctx, zipURL, false)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(f.Path)
	if err != nil || !bytes.Equal(got, z) || f.Size != int64(len(z)) || f.Reused {
		t.Fatalf("Download = %+v (read error %v): file of %d bytes, want the %d of the zip, fetched", f, err, len(got), len(z))
	}
	wantPath := filepath.Join(l.Dir(), "download", sourceID(l.Source()), "www.sec.gov", "files", "structureddata", "data", "form-13f-data-sets", "2024q1_form13f.zip")
	if f.Path != wantPath {
		t.Errorf("Path = %s, want %s", f.Path, wantPath)
	}
	if src, _ := os.ReadFile(filepath.Join(l.Dir(), "download", sourceID(l.Source()), "SOURCE")); string(src) != l.Source()+"\n" {
		t.Errorf("SOURCE holds %q, want %q", src, l.Source())
	}

	// A second Download reuses the file; refresh fetches it again.
	again, err := l.Download(ctx, zipURL, false)
	if err != nil || !again.Reused || again.Path != f.Path || h.n.Load() != 1 {
		t.Errorf("second Download = %+v, %v after %d requests; want the same file reused, 1 request", again, err, h.n.Load())
	}
	fresh, err := l.Download(ctx, zipURL, true)
	if err != nil || fresh.Reused || h.n.Load() != 2 {
		t.Errorf("refreshed Download = %+v, %v after %d requests; want a new fetch", fresh, err, h.n.Load())
	}

	// Another source (a mirror tree holding other bytes at the same URL)
	// never gets this copy, though it shares the cache directory.
	other, err := New(Config{Fetcher: bytesFetcher{map[string][]byte{zipURL: []byte("other")}, "fixture"}, Dir: l.Dir()})
	if err != nil {
		t.Fatal(err)
	}
	if o, err := other.Download(ctx, zipURL, false); err != nil || o.Reused || o.Path == f.Path {
		t.Errorf("another source's Download = %+v, %v; want its own file, fetched", o, err)
	}

	// The landing page is a web page at a URL with no extension: fetched, not
	// taken for a rate-limit page served in place of data.
	page, err := l.Fetch(ctx, landingURL)
	if err != nil || string(page) != landing {
		t.Errorf("Fetch(landing page) = %.60q, %v; want the page", page, err)
	}
	if tmp := leftovers(t, l.Dir()); len(tmp) != 0 {
		t.Errorf("temporary files left: %q", tmp)
	}
}

func TestDownloadConcurrent(t *testing.T) {
	srv, h := mirrorServer(t, map[string][]byte{zipURL: windowZip(t, 500)})
	l := httpLayer(t, srv.URL, time.Millisecond)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if _, err := l.Download(context.Background(), zipURL, false); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if n := h.n.Load(); n != 1 {
		t.Errorf("8 concurrent Downloads of one URL made %d requests, want 1", n)
	}
}

// cutFirst serves z, cutting the body of the first n responses halfway.
func cutFirst(z []byte, n int32) http.Handler {
	var seen atomic.Int32
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/zip")
		w.Header().Set("Content-Length", strconv.Itoa(len(z)))
		if seen.Add(1) <= n {
			w.Write(z[:len(z)/2])
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler)
		}
		w.Write(z)
	})
}

func TestDownloadTruncatedRetried(t *testing.T) {
	z := windowZip(t, 5000)
	srv := httptest.NewServer(cutFirst(z, 2))
	defer srv.Close()
	l := httpLayer(t, srv.URL, time.Millisecond)
	f, err := l.Download(context.Background(), zipURL, false)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(f.Path); !bytes.Equal(got, z) {
		t.Errorf("after two cut bodies the file holds %d bytes, want the whole %d", len(got), len(z))
	}
	if _, err := zip.OpenReader(f.Path); err != nil {
		t.Errorf("downloaded zip does not open: %v", err)
	}
}

// TestDownloadFailureLeavesNothing: a download that fails (cut every time,
// too large, missing, or its context ended midway) leaves no file and no
// temporary file, and a copy downloaded before stays as it was.
func TestDownloadFailureLeavesNothing(t *testing.T) {
	z := windowZip(t, 5000)
	for _, tc := range []struct {
		name    string
		handler http.Handler
		cancel  bool
		wantIs  error
	}{
		{name: "always cut", handler: cutFirst(z, 100), wantIs: nil},
		{name: "over the size limit", handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			// A Content-Length over the limit is refused before its body is read.
			w.Header().Set("Content-Length", strconv.FormatInt(MaxBytes(zipURL)+1, 10))
			w.Write(z)
		}), wantIs: docerr.ErrTooLarge},
		{name: "missing", handler: http.NotFoundHandler(), wantIs: docerr.ErrNotFound},
		{name: "context ended midway", cancel: true, handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", strconv.Itoa(len(z)))
			w.Write(z[:len(z)/2])
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		}), wantIs: context.Canceled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(tc.handler)
			defer srv.Close()
			l := httpLayer(t, srv.URL, time.Millisecond)
			ctx := context.Background()
			if tc.cancel {
				var cancel context.CancelFunc
				ctx, cancel = context.WithCancel(ctx)
				time.AfterFunc(50*time.Millisecond, cancel)
			}
			// The first window fails; the second had been downloaded before
			// and is refreshed, failing the same way.
			before := []byte("an earlier copy")
			old := filepath.Join(l.Dir(), "download", sourceID(l.Source()), filepath.FromSlash(strings.TrimPrefix(zip2URL, "https://")))
			if err := os.MkdirAll(filepath.Dir(old), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(old, before, 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := l.Download(ctx, zipURL, false)
			if err == nil || (tc.wantIs != nil && !errors.Is(err, tc.wantIs)) {
				t.Fatalf("Download error = %v, want one matching %v", err, tc.wantIs)
			}
			if _, err := l.Download(ctx, zip2URL, true); err == nil {
				t.Fatal("refresh succeeded")
			}
			p := filepath.Join(filepath.Dir(old), "2024q1_form13f.zip")
			if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a failed download left %s (%v)", p, err)
			}
			if got, _ := os.ReadFile(old); !bytes.Equal(got, before) {
				t.Errorf("a failed refresh changed the earlier copy to %d bytes", len(got))
			}
			if tmp := leftovers(t, l.Dir()); len(tmp) != 0 {
				t.Errorf("temporary files left: %q", tmp)
			}
		})
	}
}

// TestDownloadSpacing: downloads take request starts like every other
// fetch, retries of a cut body included, and two Layers on one lock file
// (as two processes) share the spacing: every request written takes a
// start of its own, and no two starts are granted closer than the
// interval. It checks the client's side (see wiretest.Log), not the times
// requests arrive at the server, which a loaded machine delays at random.
func TestDownloadSpacing(t *testing.T) {
	const interval = 100 * time.Millisecond
	z := windowZip(t, 3000)
	tree := writeTree(t, map[string][]byte{zipURL: z, zip2URL: z, landingURL: []byte(landing)})
	fsys, err := mirror.DirFS(tree)
	if err != nil {
		t.Fatal(err)
	}
	cut := cutFirst(z, 1)
	files := mirror.Handler(fsys)
	srv := wiretest.NewServer(t, false, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "2024q1_form13f.zip") {
			cut.ServeHTTP(w, r)
			return
		}
		files.ServeHTTP(w, r)
	}))
	lock := filepath.Join(t.TempDir(), "request.lock")
	log := &wiretest.Log{}
	ctx := context.Background()
	var wg sync.WaitGroup
	for i := range 2 {
		tr := srv.Client().Transport.(*http.Transport).Clone()
		tr.DialContext = log.Dial
		l, err := New(Config{
			UserAgent:  testUA,
			HTTPClient: &http.Client{Transport: tr},
			BaseURL:    srv.URL,
			Interval:   interval,
			Retry:      Retry{MaxAttempts: 3, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond},
			LockPath:   lock,
			WrapSpacer: func(sp *throttle.Spacer) edgarhttp.Waiter { return log.Spacer(sp, i) },
			Cache:      NewMemoryCache(),
			Dir:        t.TempDir(),
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range []string{zipURL, zip2URL} {
			wg.Go(func() {
				if _, err := l.Download(ctx, u, false); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Go(func() {
			if _, err := l.Fetch(ctx, landingURL); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	paths, _ := srv.Requests()
	kept, writes, unmatched := log.Check(false)
	gap := wiretest.MinGap(kept)
	t.Logf("%d requests written, %d reached the server, %d starts granted, closest %v apart", writes, len(paths), len(kept), gap)
	if len(paths) != 7 {
		t.Errorf("requests %q, want 7 (one zip cut once and fetched again)", paths)
	}
	if writes < len(paths) {
		t.Errorf("%d requests written, but the server saw %d", writes, len(paths))
	}
	if unmatched != "" {
		t.Error(unmatched)
	}
	if gap < interval {
		t.Errorf("two starts granted %v apart, want at least %v", gap, interval)
	}
}

// bytesFetcher is a caller's Fetcher that returns whole documents only.
// Not the tests' kit (internal/edgartest): that is built on the root,
// which imports this package.
type bytesFetcher struct {
	files  map[string][]byte
	source string
}

func (f bytesFetcher) Fetch(_ context.Context, url string) ([]byte, error) {
	b, ok := f.files[url]
	if !ok {
		return nil, fmt.Errorf("%w: %s", docerr.ErrNotFound, url)
	}
	return b, nil
}

func (f bytesFetcher) Source() string { return f.source }

func TestDownloadCallerFetcher(t *testing.T) {
	z := windowZip(t, 100)
	ctx := context.Background()

	// A Fetcher that names its source and returns bytes: they are written.
	l, err := New(Config{Fetcher: bytesFetcher{map[string][]byte{zipURL: z}, "fixture"}, Cache: NewMemoryCache(), Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	f, err := l.Download(ctx, zipURL, false)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(f.Path); !bytes.Equal(got, z) {
		t.Errorf("file holds %d bytes, want the %d fetched", len(got), len(z))
	}

	// With a stream function, that is used instead of Fetch.
	var streamed atomic.Bool
	l, err = New(Config{
		Fetcher: bytesFetcher{nil, "fixture"},
		Stream: func(_ context.Context, url string, w io.Writer) error {
			streamed.Store(true)
			_, err := w.Write(z)
			return err
		},
		Dir: t.TempDir(),
	})
	if err != nil {
		t.Fatal(err)
	}
	if f, err := l.Download(ctx, zipURL, false); err != nil || f.Size != int64(len(z)) || !streamed.Load() {
		t.Errorf("Download through Stream = %+v, %v (streamed %t)", f, err, streamed.Load())
	}

	// A Fetcher that names no source cannot download: no file could be
	// trusted by another Layer, and none is written.
	dir := t.TempDir()
	l, err = New(Config{Fetcher: bytesFetcher{map[string][]byte{zipURL: z}, ""}, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Download(ctx, zipURL, false); !errors.Is(err, ErrCannotDownload) || !strings.Contains(err.Error(), "Source() string") {
		t.Errorf("Download through an unnamed Fetcher: error %v, want ErrCannotDownload naming Source()", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("the cache directory holds %d entries, want none", len(entries))
	}

	// Without a cache directory there is nowhere to download to.
	l, err = New(Config{Fetcher: bytesFetcher{map[string][]byte{zipURL: z}, "fixture"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Download(ctx, zipURL, false); !errors.Is(err, ErrCannotDownload) {
		t.Errorf("Download without a cache directory: error %v, want ErrCannotDownload", err)
	}
}
