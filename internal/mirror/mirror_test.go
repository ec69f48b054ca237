package mirror

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/edgar13f/edgar13f/internal/edgartest/edgarfiles"
)

// testMirror is the recorded mirror.
var testMirror = edgarfiles.Mirror

const (
	subURL  = "https://data.sec.gov/submissions/CIK0000315090.json"
	subPath = "data.sec.gov/submissions/CIK0000315090.json"
	xmlURL  = "https://www.sec.gov/Archives/edgar/data/1067983/000095012323011029/28498.xml"
	xmlPath = "www.sec.gov/Archives/edgar/data/1067983/000095012323011029/28498.xml"
	txtPath = "www.sec.gov/Archives/edgar/data/1619124/000161912421000002/0001619124-21-000002.txt"
)

func TestPathFor(t *testing.T) {
	good := []struct{ url, want string }{
		{subURL, subPath},
		{xmlURL, xmlPath},
		{"http://data.sec.gov/submissions/CIK0001067983.json", "data.sec.gov/submissions/CIK0001067983.json"},
		{"HTTPS://WWW.SEC.GOV/Archives/edgar/cik-lookup-data.txt", "www.sec.gov/Archives/edgar/cik-lookup-data.txt"},
		{"https://www.sec.gov/Archives/edgar/full-index/2023/QTR3/form.idx", "www.sec.gov/Archives/edgar/full-index/2023/QTR3/form.idx"},
		{"https://www.sec.gov/Archives//edgar/./x.txt", "www.sec.gov/Archives/edgar/x.txt"},
		{"https://www.sec.gov/a%20b.txt", "www.sec.gov/a b.txt"},
		{"http://127.0.0.1:5555/x.json", "127.0.0.1:5555/x.json"},
	}
	for _, tt := range good {
		t.Run(tt.url, func(t *testing.T) {
			got, err := PathFor(tt.url)
			if err != nil {
				t.Fatalf("PathFor: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("PathFor (-want +got):\n%s", diff)
			}
		})
	}
	bad := []string{
		"",
		"data.sec.gov/submissions/x.json",
		"/submissions/x.json",
		"ftp://data.sec.gov/x.json",
		"file:///etc/passwd",
		"https:x.json",
		"https:///x.json",
		"https://data.sec.gov",
		"https://data.sec.gov/",
		"https://www.sec.gov/Archives/edgar/data/1067983/",
		"https://data.sec.gov/x.json?a=b",
		"https://data.sec.gov/x.json?",
		"https://data.sec.gov/x.json#frag",
		"https://data.sec.gov/x.json#",
		"https://data.sec.gov/../x.json",
		"https://data.sec.gov/a/../../x.json",
		"https://data.sec.gov/a/%2e%2e/x.json",
		"https://data.sec.gov/a/..",
		`https://data.sec.gov/a\..\x.json`,
		"https://data.sec.gov/a%5Cb.json",
		"https://data.sec.gov/a%00b.json",
		"https://user:pw@data.sec.gov/x.json",
		"https://[::1]/x.json",
		"https://data.sec.gov:/x.json",
		"https://%2e%2e/x.json",
		"https://data.sec.gov/%zz",
	}
	for _, u := range bad {
		t.Run("bad/"+u, func(t *testing.T) {
			if got, err := PathFor(u); err == nil {
				t.Errorf("PathFor(%q) = %q, nil; want error", u, got)
			} else if !strings.HasPrefix(err.Error(), "mirror: ") {
				t.Errorf("error %q lacks the package prefix", err)
			}
		})
	}
}

func TestFetchTestdata(t *testing.T) {
	fsys, err := DirFS(testMirror)
	if err != nil {
		t.Fatal(err)
	}
	f := NewFetcher(fsys)
	ctx := context.Background()
	for _, tt := range []struct{ url, file string }{{subURL, subPath}, {xmlURL, xmlPath}} {
		t.Run(tt.file, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(testMirror, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			got, err := f.Fetch(ctx, tt.url)
			if err != nil {
				t.Fatalf("Fetch: %v", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("Fetch returned %d bytes differing from the %d on disk", len(got), len(want))
			}
		})
	}
	notFound := []string{
		"https://data.sec.gov/submissions/CIK0000000001.json",
		"https://nosuchhost.example/x.json",
		"https://data.sec.gov/submissions", // a directory
	}
	for _, u := range notFound {
		t.Run("missing/"+u, func(t *testing.T) {
			got, err := f.Fetch(ctx, u)
			if !errors.Is(err, ErrNotFound) || !errors.Is(err, fs.ErrNotExist) || got != nil {
				t.Errorf("Fetch = %d bytes, %v; want ErrNotFound and fs.ErrNotExist", len(got), err)
			}
		})
	}
	t.Run("dotdot", func(t *testing.T) {
		_, err := f.Fetch(ctx, "https://data.sec.gov/../../go.mod")
		if err == nil || errors.Is(err, ErrNotFound) {
			t.Errorf("Fetch of .. URL = %v, want a rejected URL", err)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := f.Fetch(cctx, subURL); !errors.Is(err, context.Canceled) {
			t.Errorf("Fetch with done ctx = %v, want context.Canceled", err)
		}
	})
}

func TestFetchMapFS(t *testing.T) {
	fsys := fstest.MapFS{
		"data.sec.gov/submissions/CIK0000000042.json": {Data: []byte(`{"cik":"42"}`)},
	}
	f := NewFetcher(fsys)
	tests := []struct {
		url      string
		want     string
		notFound bool
	}{
		{url: "https://data.sec.gov/submissions/CIK0000000042.json", want: `{"cik":"42"}`},
		{url: "https://DATA.SEC.GOV/submissions//CIK0000000042.json", want: `{"cik":"42"}`},
		{url: "https://data.sec.gov/submissions/CIK0000000043.json", notFound: true},
		{url: "https://data.sec.gov/submissions", notFound: true},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			got, err := f.Fetch(context.Background(), tt.url)
			if tt.notFound {
				if !errors.Is(err, ErrNotFound) || !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("Fetch error = %v, want ErrNotFound and fs.ErrNotExist", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("Fetch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDirFSSymlinkEscape(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks")
	}
	tmp := t.TempDir()
	secret := filepath.Join(tmp, "secret.txt")
	if err := os.WriteFile(secret, []byte("outside the mirror"), 0o600); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(tmp, "mirror")
	host := filepath.Join(root, "www.sec.gov")
	if err := os.MkdirAll(host, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(host, "inside.txt"), []byte("inside"), 0o600); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		"abs.txt":  secret,
		"rel.txt":  "../../secret.txt",
		"ok.txt":   "inside.txt",
		"dir-link": tmp,
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(host, name)); err != nil {
			t.Fatal(err)
		}
	}
	fsys, err := DirFS(root)
	if err != nil {
		t.Fatal(err)
	}
	f := NewFetcher(fsys)
	srv := httptest.NewServer(Handler(fsys))
	defer srv.Close()
	tests := []struct {
		path     string
		want     string
		wantCode int
	}{
		{"www.sec.gov/inside.txt", "inside", http.StatusOK},
		{"www.sec.gov/ok.txt", "inside", http.StatusOK},
		{"www.sec.gov/abs.txt", "", http.StatusNotFound},
		{"www.sec.gov/rel.txt", "", http.StatusNotFound},
		{"www.sec.gov/dir-link/secret.txt", "", http.StatusNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			got, err := f.Fetch(context.Background(), "https://"+tt.path)
			if tt.want == "" {
				if err == nil {
					t.Errorf("Fetch = %q, nil; want an error", got)
				}
			} else if err != nil || string(got) != tt.want {
				t.Errorf("Fetch = %q, %v; want %q", got, err, tt.want)
			}
			resp, err := http.Get(srv.URL + "/" + tt.path)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.wantCode || (tt.want != "" && string(body) != tt.want) {
				t.Errorf("GET = %d %q, want %d %q", resp.StatusCode, body, tt.wantCode, tt.want)
			}
			if bytes.Contains(body, []byte("outside")) {
				t.Errorf("GET served the file outside the mirror")
			}
		})
	}
}

func TestHandler(t *testing.T) {
	fsys, err := DirFS(testMirror)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(Handler(fsys))
	defer srv.Close()
	// Compression is negotiated by hand so the client never decompresses.
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	read := func(p string) []byte {
		b, err := os.ReadFile(filepath.Join(testMirror, p))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	tests := []struct {
		name, method, path, acceptEncoding string
		wantCode                           int
		wantType, wantEncoding             string
		wantBody                           []byte
	}{
		{"json", "GET", "/" + subPath, "", 200, "application/json", "", read(subPath)},
		{"xml", "GET", "/" + xmlPath, "", 200, "application/xml", "", read(xmlPath)},
		{"txt", "GET", "/" + txtPath, "", 200, "text/plain", "", read(txtPath)},
		{"gzip", "GET", "/" + subPath, "gzip", 200, "application/json", "gzip", read(subPath)},
		{"gzip among others", "GET", "/" + xmlPath, "br, gzip;q=0.8", 200, "application/xml", "gzip", read(xmlPath)},
		{"gzip refused", "GET", "/" + subPath, "gzip;q=0", 200, "application/json", "", read(subPath)},
		{"other encoding", "GET", "/" + subPath, "br", 200, "application/json", "", read(subPath)},
		{"head", "HEAD", "/" + subPath, "", 200, "application/json", "", nil},
		{"missing", "GET", "/data.sec.gov/submissions/CIK0000000001.json", "", 404, "", "", nil},
		{"directory", "GET", "/data.sec.gov/submissions", "", 404, "", "", nil},
		{"directory slash", "GET", "/data.sec.gov/submissions/", "", 404, "", "", nil},
		{"root", "GET", "/", "", 404, "", "", nil},
		{"dotdot", "GET", "/data.sec.gov/%2e%2e/%2e%2e/go.mod", "", 404, "", "", nil},
		{"post", "POST", "/" + subPath, "", 405, "", "", nil},
		{"put", "PUT", "/" + subPath, "", 405, "", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(tt.method, srv.URL+tt.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			if tt.acceptEncoding != "" {
				req.Header.Set("Accept-Encoding", tt.acceptEncoding)
			}
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != tt.wantCode {
				t.Fatalf("status = %d, want %d", resp.StatusCode, tt.wantCode)
			}
			if tt.wantCode == http.StatusMethodNotAllowed {
				if got := resp.Header.Get("Allow"); got != "GET, HEAD" {
					t.Errorf("Allow = %q, want \"GET, HEAD\"", got)
				}
			}
			if tt.wantCode != http.StatusOK {
				return
			}
			got := map[string]string{
				"Content-Type":     resp.Header.Get("Content-Type"),
				"Content-Encoding": resp.Header.Get("Content-Encoding"),
			}
			want := map[string]string{"Content-Type": tt.wantType, "Content-Encoding": tt.wantEncoding}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("headers (-want +got):\n%s", diff)
			}
			if tt.method == "HEAD" {
				if len(body) != 0 {
					t.Errorf("HEAD returned %d body bytes", len(body))
				}
				if want := int64(len(read(subPath))); resp.ContentLength != want {
					t.Errorf("HEAD Content-Length = %d, want %d", resp.ContentLength, want)
				}
				return
			}
			if tt.wantEncoding == "gzip" {
				zr, err := gzip.NewReader(bytes.NewReader(body))
				if err != nil {
					t.Fatal(err)
				}
				if body, err = io.ReadAll(zr); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(body, tt.wantBody) {
				t.Errorf("body: got %d bytes, want the %d bytes on disk", len(body), len(tt.wantBody))
			}
		})
	}
}

func TestURLFor(t *testing.T) {
	good := []struct{ base, url, want string }{
		{"http://127.0.0.1:5555/m", "https://data.sec.gov/x.json", "http://127.0.0.1:5555/m/data.sec.gov/x.json"},
		{"http://127.0.0.1:5555/m/", "https://data.sec.gov/x.json", "http://127.0.0.1:5555/m/data.sec.gov/x.json"},
		{"http://127.0.0.1:5555", subURL, "http://127.0.0.1:5555/" + subPath},
		{"https://mirror.example/a/b", xmlURL, "https://mirror.example/a/b/" + xmlPath},
		{"http://localhost:8080/m", "https://www.sec.gov/a%20b.txt", "http://localhost:8080/m/www.sec.gov/a%20b.txt"},
		{"http://localhost:8080/m", "https://www.sec.gov/a%3Fb.txt", "http://localhost:8080/m/www.sec.gov/a%3Fb.txt"},
	}
	for _, tt := range good {
		t.Run(tt.base+" "+tt.url, func(t *testing.T) {
			got, err := URLFor(tt.base, tt.url)
			if err != nil {
				t.Fatalf("URLFor: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("URLFor (-want +got):\n%s", diff)
			}
		})
	}
	bad := []struct{ base, url string }{
		{"http://127.0.0.1:5555/m", "https://data.sec.gov/../x.json"},
		{"http://127.0.0.1:5555/m", "https://data.sec.gov/x.json?q=1"},
		{"", "https://data.sec.gov/x.json"},
		{"127.0.0.1:5555/m", "https://data.sec.gov/x.json"},
		{"ftp://127.0.0.1/m", "https://data.sec.gov/x.json"},
		{"http:///m", "https://data.sec.gov/x.json"},
		{"http://127.0.0.1/m?x=1", "https://data.sec.gov/x.json"},
		{"http://127.0.0.1/m#f", "https://data.sec.gov/x.json"},
	}
	for _, tt := range bad {
		t.Run("bad/"+tt.base+" "+tt.url, func(t *testing.T) {
			if got, err := URLFor(tt.base, tt.url); err == nil {
				t.Errorf("URLFor = %q, nil; want error", got)
			}
		})
	}
}

// TestURLForHandler checks that URLFor and Handler agree on the layout.
func TestURLForHandler(t *testing.T) {
	fsys, err := DirFS(testMirror)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.StripPrefix("/m", Handler(fsys)))
	defer srv.Close()
	u, err := URLFor(srv.URL+"/m", subURL)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(testMirror, subPath))
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || !bytes.Equal(got, want) {
		t.Errorf("GET %s = %d with %d bytes, want 200 with %d", u, resp.StatusCode, len(got), len(want))
	}
}
