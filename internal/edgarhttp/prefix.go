package edgarhttp

import (
	"context"
	"fmt"
	"io"
	"slices"
)

// prefixChunk is the most GetPrefix reads before it asks enough again.
const prefixChunk = 8 << 10

// GetPrefix is like Get but reads the body in chunks of at most 8 KiB and
// stops as soon as enough accepts the bytes read so far; the connection is
// then closed rather than drained. It returns those bytes (the whole body
// when enough never accepts it). User-Agent, spacing, retries, the size
// limit and the HTML-page check are those of Get; a body cut before enough
// accepts it is retried like a truncated one. enough is called with a
// growing prefix and must not keep it.
func (c *Client) GetPrefix(ctx context.Context, url string, enough func(prefix []byte) bool) ([]byte, error) {
	if enough == nil {
		return nil, fmt.Errorf("edgarhttp: GetPrefix %s: nil enough", url)
	}
	return c.get(ctx, url, reader{enough: enough})
}

// readPrefix reads r until enough accepts what was read or r ends.
func (c *Client) readPrefix(r io.Reader, enough func([]byte) bool) ([]byte, error) {
	var buf []byte
	for {
		buf = slices.Grow(buf, prefixChunk)
		n, err := r.Read(buf[len(buf) : len(buf)+prefixChunk])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > c.maxBytes {
			return nil, fmt.Errorf("%w: over %d bytes", errTooLarge, c.maxBytes)
		}
		if n > 0 && enough(buf) {
			return buf, nil
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}
