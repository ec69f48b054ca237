package edgarhttp

import (
	"context"
	"errors"
	"fmt"
	"io"
)

// A Sink receives a downloaded body. Reset discards what an earlier
// attempt wrote, so that a retried download starts again from nothing.
type Sink interface {
	io.Writer
	Reset() error
}

// headBytes is how much of a downloaded body is kept for the HTML-page check.
const headBytes = 512

// GetTo streams the body at url into dst instead of memory and returns its
// length (decoded). User-Agent, spacing, retries, the size limit and the
// HTML-page check are those of Get; before each attempt writes, dst is
// Reset, so dst holds exactly the body of the attempt that succeeded.
func (c *Client) GetTo(ctx context.Context, url string, dst Sink) (int64, error) {
	var n int64
	_, err := c.get(ctx, url, func(r io.Reader, gz bool, size int64) ([]byte, error) {
		if err := dst.Reset(); err != nil {
			return nil, fmt.Errorf("%w: %v", errSink, err)
		}
		if gz {
			zr, err := gunzip(r)
			if err != nil {
				return nil, err
			}
			defer zr.Close()
			r = zr
		}
		h := &head{w: dst}
		var err error
		n, err = io.Copy(h, io.LimitReader(r, c.maxBytes+1))
		if err != nil {
			return nil, err
		}
		if n > c.maxBytes {
			return nil, fmt.Errorf("%w: over %d bytes", errTooLarge, c.maxBytes)
		}
		return h.b, nil
	})
	return n, err
}

// errSink is wrapped by a failure to write the body where it goes; such a
// failure is final, not retried.
var errSink = errors.New("edgarhttp: cannot write the body")

// head passes writes on and keeps the first headBytes bytes.
type head struct {
	w io.Writer
	b []byte
}

func (h *head) Write(p []byte) (int, error) {
	if k := headBytes - len(h.b); k > 0 {
		h.b = append(h.b, p[:min(k, len(p))]...)
	}
	n, err := h.w.Write(p)
	if err != nil {
		err = fmt.Errorf("%w: %w", errSink, err)
	}
	return n, err
}

// WithWebPage returns a copy of c that reads a web page: an HTML body is
// the document asked for, not an error page served in place of data.
func (c *Client) WithWebPage() *Client {
	c2 := *c
	c2.webPage = true
	return &c2
}
