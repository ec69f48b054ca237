// Package mirror reads and serves EDGAR mirror trees: directories in which
// the document at https://HOST/PATH is stored as HOST/PATH.
package mirror

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/edgar13f/edgar13f/internal/docerr"
)

// ErrNotFound is wrapped by errors for files missing from the mirror.
var ErrNotFound = docerr.ErrNotFound

// ErrTooLarge is wrapped by errors for files over the size limit of FetchMax.
var ErrTooLarge = docerr.ErrTooLarge

// PathFor maps an EDGAR URL to its path in a mirror tree:
// "https://data.sec.gov/submissions/CIK0001067983.json" ->
// "data.sec.gov/submissions/CIK0001067983.json". Only http and https URLs
// with a host and a path that is fs.ValidPath after cleaning; no query, no
// fragment, no "..", no backslashes; a trailing "/" is an error.
//
// The host is lower-cased; it may carry a port but no user information, and
// IPv6 literals are not accepted.
func PathFor(rawURL string) (string, error) {
	if strings.ContainsAny(rawURL, "?#") {
		return "", fmt.Errorf("mirror: URL %q has a query or fragment", rawURL)
	}
	if strings.Contains(rawURL, `\`) {
		return "", fmt.Errorf("mirror: URL %q contains a backslash", rawURL)
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", fmt.Errorf("mirror: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("mirror: URL %q is not http or https", rawURL)
	}
	if u.User != nil || u.Opaque != "" {
		return "", fmt.Errorf("mirror: URL %q is not a plain host and path", rawURL)
	}
	host := strings.ToLower(u.Host)
	if !validHost(host) {
		return "", fmt.Errorf("mirror: URL %q has no valid host", rawURL)
	}
	p := u.Path
	switch {
	case p == "" || p == "/":
		return "", fmt.Errorf("mirror: URL %q has no path", rawURL)
	case strings.HasSuffix(p, "/"):
		return "", fmt.Errorf("mirror: URL %q names a directory", rawURL)
	case strings.ContainsAny(p, "\\\x00"):
		return "", fmt.Errorf("mirror: URL %q has a backslash or NUL in its path", rawURL)
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." {
			return "", fmt.Errorf("mirror: URL %q contains \"..\"", rawURL)
		}
	}
	rel := host + "/" + strings.TrimPrefix(path.Clean(p), "/")
	if !fs.ValidPath(rel) {
		return "", fmt.Errorf("mirror: URL %q does not map to a valid path", rawURL)
	}
	return rel, nil
}

// validHost reports whether h is a lower-case host name or IPv4 address with
// an optional numeric port.
func validHost(h string) bool {
	name, port, hasPort := strings.Cut(h, ":")
	if name == "" || name == "." || name == ".." || (hasPort && port == "") {
		return false
	}
	for _, c := range name {
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '.' || c == '-' || c == '_') {
			return false
		}
	}
	for _, c := range port {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// A Fetcher reads EDGAR URLs from a mirror tree.
type Fetcher struct {
	fsys fs.FS
}

// NewFetcher returns a Fetcher reading fsys.
func NewFetcher(fsys fs.FS) *Fetcher {
	return &Fetcher{fsys: fsys}
}

// Fetch returns the bytes mirrored for url; a missing file (or a directory)
// wraps ErrNotFound (and fs.ErrNotExist). It returns ctx.Err() if ctx is
// done.
func (f *Fetcher) Fetch(ctx context.Context, url string) ([]byte, error) {
	return f.FetchMax(ctx, url, 0)
}

// FetchMax is like Fetch but fails with an error wrapping ErrTooLarge,
// without reading the file, when it holds more than maxBytes bytes; a
// maxBytes <= 0 means no limit.
func (f *Fetcher) FetchMax(ctx context.Context, url string, maxBytes int64) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p, err := PathFor(url)
	if err != nil {
		return nil, err
	}
	b, err := readFile(f.fsys, p, maxBytes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", url, err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return b, nil
}

// errIsDir is wrapped, with ErrNotFound and fs.ErrNotExist, for directories.
var errIsDir = errors.New("is a directory")

// openFile opens the regular file at p. A missing file or a directory wraps
// ErrNotFound and fs.ErrNotExist; with maxBytes > 0, a file longer than
// that wraps ErrTooLarge.
func openFile(fsys fs.FS, p string, maxBytes int64) (fs.File, int64, error) {
	f, err := fsys.Open(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, 0, fmt.Errorf("%w: %w", ErrNotFound, err)
		}
		return nil, 0, err
	}
	fi, err := f.Stat()
	switch {
	case err != nil:
	case fi.IsDir():
		err = fmt.Errorf("%w: %s %w (%w)", ErrNotFound, p, errIsDir, fs.ErrNotExist)
	case maxBytes > 0 && fi.Size() > maxBytes:
		err = fmt.Errorf("%w: %s holds %d bytes, limit %d", ErrTooLarge, p, fi.Size(), maxBytes)
	}
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, fi.Size(), nil
}

// readFile reads the regular file at p, failing like openFile.
func readFile(fsys fs.FS, p string, maxBytes int64) ([]byte, error) {
	f, size, err := openFile(fsys, p, maxBytes)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if maxBytes <= 0 {
		return io.ReadAll(f)
	}
	// Read into a buffer of the file's size (with room to notice a file
	// that grew), so a large document is allocated once.
	buf := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
	_, err = buf.ReadFrom(io.LimitReader(f, maxBytes+1))
	b := buf.Bytes()
	if err == nil && int64(len(b)) > maxBytes {
		return nil, fmt.Errorf("%w: %s holds over %d bytes", ErrTooLarge, p, maxBytes)
	}
	return b, err
}

// CopyTo writes the file mirrored for url to w without holding it in
// memory and returns the number of bytes written. It fails like FetchMax:
// a missing file wraps ErrNotFound, one over maxBytes (when > 0) wraps
// ErrTooLarge before anything is written, and ctx ending stops the copy.
func (f *Fetcher) CopyTo(ctx context.Context, url string, maxBytes int64, w io.Writer) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	p, err := PathFor(url)
	if err != nil {
		return 0, err
	}
	file, _, err := openFile(f.fsys, p, maxBytes)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", url, err)
	}
	defer file.Close()
	var r io.Reader = file
	if maxBytes > 0 {
		r = io.LimitReader(file, maxBytes+1)
	}
	n, err := io.Copy(w, ctxReader{ctx, r})
	switch {
	case err != nil:
		return n, err
	case maxBytes > 0 && n > maxBytes:
		return n, fmt.Errorf("%s: %w: %s holds over %d bytes", url, ErrTooLarge, p, maxBytes)
	}
	return n, nil
}

// ctxReader stops reading once ctx ends.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// DirFS returns a read-only fs.FS of dir that cannot be escaped by ".." or by
// symlinks pointing outside dir. The directory stays open for the life of
// the program. The result is a [*Dir], which knows its directory.
func DirFS(dir string) (fs.FS, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("mirror directory %s: %w", dir, err)
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		return nil, fmt.Errorf("mirror directory: %w", err)
	}
	return &Dir{FS: root.FS(), root: abs}, nil
}

// A Dir is the file system of a mirror tree on disk.
type Dir struct {
	fs.FS
	root string
}

// Root returns the absolute path of the tree's directory.
func (d *Dir) Root() string { return d.root }

// contentTypes maps file extensions to the Content-Type that Handler sends.
var contentTypes = map[string]string{
	".json": "application/json",
	".xml":  "application/xml",
	".txt":  "text/plain",
	".idx":  "text/plain",
	".zip":  "application/zip",
}

// Handler serves a mirror tree over HTTP: GET /<host>/<path> returns the file
// at <host>/<path> (404 when missing or a directory, 405 for methods other
// than GET and HEAD). Content-Type: application/json for .json,
// application/xml for .xml, text/plain for .txt and .idx, application/zip
// for .zip, sniffed from the content for a file without an extension (a
// web page), and application/octet-stream otherwise. Serves gzip when the
// request says Accept-Encoding: gzip, except for files compressed already
// (.zip, .gz), which are streamed as stored.
func Handler(fsys fs.FS) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		p := strings.TrimPrefix(r.URL.Path, "/")
		if !strings.Contains(p, "/") || !fs.ValidPath(p) || strings.ContainsAny(p, "\\\x00") {
			http.NotFound(w, r)
			return
		}
		f, size, err := openFile(fsys, p, 0)
		switch {
		case errors.Is(err, fs.ErrPermission):
			http.Error(w, "forbidden", http.StatusForbidden)
			return
		case err != nil:
			// Missing files, directories and paths the file system refuses
			// (such as symlinks leaving the root) are all absent from the mirror.
			http.NotFound(w, r)
			return
		}
		defer f.Close()
		h := w.Header()
		h.Set("Content-Type", contentType(p, f))
		if compressed[path.Ext(p)] || !acceptsGzip(r.Header.Get("Accept-Encoding")) {
			// Streamed as stored, never held in memory: a Data Sets zip is
			// about 100 MB.
			h.Set("Content-Length", strconv.FormatInt(size, 10))
			w.WriteHeader(http.StatusOK)
			if r.Method != http.MethodHead {
				io.Copy(w, f)
			}
			return
		}
		body, err := io.ReadAll(f)
		if err != nil {
			http.Error(w, "read error", http.StatusInternalServerError)
			return
		}
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(body)
		zw.Close()
		h.Set("Vary", "Accept-Encoding")
		h.Set("Content-Encoding", "gzip")
		h.Set("Content-Length", strconv.Itoa(buf.Len()))
		w.WriteHeader(http.StatusOK)
		if r.Method != http.MethodHead {
			w.Write(buf.Bytes())
		}
	})
}

// compressed lists the extensions of files that are compressed already:
// Handler never gzips them again.
var compressed = map[string]bool{".zip": true, ".gz": true}

// contentType returns the Content-Type Handler sends for the file at p:
// by extension, or, for a file with an extension not in contentTypes or
// none (a web page such as the Data Sets landing page), sniffed from its
// first 512 bytes. f is left at its start.
func contentType(p string, f fs.File) string {
	if ct, ok := contentTypes[path.Ext(p)]; ok {
		return ct
	}
	if path.Ext(p) != "" {
		return "application/octet-stream"
	}
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	if s, ok := f.(io.Seeker); ok {
		if _, err := s.Seek(0, io.SeekStart); err == nil {
			return http.DetectContentType(head[:n])
		}
	}
	return "application/octet-stream"
}

// acceptsGzip reports whether an Accept-Encoding header value admits gzip
// (listed, and not with q=0).
func acceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(part, ";")
		if !strings.EqualFold(strings.TrimSpace(coding), "gzip") {
			continue
		}
		name, value, _ := strings.Cut(strings.TrimSpace(params), "=")
		if strings.EqualFold(strings.TrimSpace(name), "q") {
			if q, err := strconv.ParseFloat(strings.TrimSpace(value), 64); err == nil && q == 0 {
				return false
			}
		}
		return true
	}
	return false
}

// URLFor maps an EDGAR URL onto a base URL in the mirror layout:
// URLFor("http://127.0.0.1:5555/m", "https://data.sec.gov/x.json") =
// "http://127.0.0.1:5555/m/data.sec.gov/x.json". The base must be an http or
// https URL with a host and no query or fragment.
func URLFor(base, rawURL string) (string, error) {
	p, err := PathFor(rawURL)
	if err != nil {
		return "", err
	}
	b, err := url.Parse(base)
	if err != nil {
		return "", fmt.Errorf("mirror: base URL: %w", err)
	}
	if (b.Scheme != "http" && b.Scheme != "https") || b.Host == "" || b.Opaque != "" ||
		b.RawQuery != "" || b.ForceQuery || b.Fragment != "" || strings.Contains(base, "#") {
		return "", fmt.Errorf("mirror: base URL %q is not an http or https URL with a host and no query or fragment", base)
	}
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.TrimSuffix(b.String(), "/") + "/" + strings.Join(segs, "/"), nil
}
