package edgarhttp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
)

// A Sink receives a body that GetTo streams. Reset discards everything
// written so far: GetTo calls it before each attempt writes, so that a
// body cut short and fetched again is not written twice.
type Sink interface {
	io.Writer
	Reset() error
}

// sniffLen is how much of a streamed body is looked at for an HTML page
// served in place of data.
const sniffLen = 512

// streamChunk is the buffer GetTo reads through: the body passes through
// it to the Sink and is never held whole.
const streamChunk = 64 << 10

// GetTo is like Get but streams the (decoded) body into dst instead of
// returning it, so that a document of any size up to the limit costs a
// fixed amount of memory. It returns the number of bytes written by the
// attempt that succeeded. User-Agent, spacing, retries (a body cut short
// included: dst is Reset and the document fetched again), the size limit
// and the HTML-page check are those of Get. A failure of dst itself (a full
// disk) is not retried.
func (c *Client) GetTo(ctx context.Context, url string, dst Sink) (int64, error) {
	if dst == nil {
		return 0, fmt.Errorf("edgarhttp: GetTo %s: nil sink", url)
	}
	cw := &countingWriter{w: dst}
	_, err := c.get(ctx, url, reader{dst: cw})
	if err != nil {
		return 0, err
	}
	return cw.n, nil
}

// countingWriter counts what reaches a Sink and keeps the Sink's own error
// apart from the body's.
type countingWriter struct {
	w   Sink
	n   int64
	err error // the first write error of the Sink
}

func (w *countingWriter) Write(p []byte) (int, error) {
	n, err := w.w.Write(p)
	w.n += int64(n)
	if err != nil && w.err == nil {
		w.err = err
	}
	return n, err
}

func (w *countingWriter) Reset() error {
	w.n, w.err = 0, nil
	return w.w.Reset()
}

// errSink marks a failure of the Sink, which retrying cannot cure.
var errSink = errors.New("edgarhttp: writing the body")

// stream copies a 2xx body into dst and classifies the result like attempt.
func (c *Client) stream(u *url.URL, resp *http.Response, gz bool, dst Sink) outcome {
	code := resp.StatusCode
	if err := dst.Reset(); err != nil {
		return outcome{status: code, err: fmt.Errorf("%w: %w", errSink, err)}
	}
	var r io.Reader = resp.Body
	if gz {
		zr, err := gunzip(r)
		if err != nil {
			return truncated(code, err)
		}
		defer zr.Close()
		r = zr
	}
	br := bufio.NewReaderSize(io.LimitReader(r, c.maxBytes+1), streamChunk)
	head, err := br.Peek(sniffLen)
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		return truncated(code, err)
	}
	if htmlInPlaceOfData(u, resp.Header.Get("Content-Type"), head) {
		return c.htmlPage(resp)
	}
	n, err := br.WriteTo(dst)
	cw, _ := dst.(*countingWriter)
	switch {
	case cw != nil && cw.err != nil:
		return outcome{status: code, err: fmt.Errorf("%w: %w", errSink, cw.err)}
	case err != nil:
		return truncated(code, err)
	case n > c.maxBytes:
		return outcome{status: code, err: fmt.Errorf("%w: over %d bytes", errTooLarge, c.maxBytes)}
	}
	return outcome{}
}
