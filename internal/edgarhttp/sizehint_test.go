package edgarhttp

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestSizeHint: a size hint only sizes the buffer. Bodies, gzipped and
// not, with or without a Content-Length, come back whole whatever the hint
// says, and the limit still holds.
func TestSizeHint(t *testing.T) {
	body := bytes.Repeat([]byte("<infoTable><cusip>037833100</cusip></infoTable>\n"), 2000)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(body)
	zw.Close()
	for _, compressed := range []bool{false, true} {
		for _, chunked := range []bool{false, true} {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				data := body
				if compressed {
					w.Header().Set("Content-Encoding", "gzip")
					data = gz.Bytes()
				}
				if chunked {
					w.(http.Flusher).Flush() // no Content-Length
				}
				w.Write(data)
			}))
			c, _ := testClient(t, Config{MaxAttempts: 1})
			for _, hint := range []int64{0, 1, int64(len(body)), 10 * int64(len(body))} {
				got, err := c.WithSizeHint(hint).Get(context.Background(), srv.URL+"/x.txt")
				if err != nil || !bytes.Equal(got, body) {
					t.Errorf("gzip=%v chunked=%v hint=%d: got %d bytes, %v; want %d bytes", compressed, chunked, hint, len(got), err, len(body))
				}
			}
			small := c.WithMaxBytes(int64(len(body)) - 1).WithSizeHint(int64(len(body)))
			if _, err := small.Get(context.Background(), srv.URL+"/x.txt"); !errors.Is(err, ErrTooLarge) {
				t.Errorf("gzip=%v chunked=%v: body over the limit with a hint: %v; want ErrTooLarge", compressed, chunked, err)
			}
			srv.Close()
		}
	}
}
