package edgar13f

import (
	"context"

	"github.com/edgar13f/edgar13f/internal/access"
	"github.com/edgar13f/edgar13f/internal/nameindex"
)

// The package's insides that its external tests check on their own.

var (
	CompareHoldings = compareHoldings
	NewQuery        = newQuery
	ParseCIK        = parseCIK
)

// Cache key prefixes and the name file's URL, as the Client writes and reads them.
const (
	KeyCover     = keyCover
	KeyRows      = keyRows
	CIKLookupURL = cikLookupURL
)

// FilterSnapshot narrows s to the rows q selects, as a query does.
func (q *query) FilterSnapshot(s *Snapshot) { q.filterSnapshot(s) }

// WithWrappedSpacer has the Client's HTTP fetcher request its starts
// through wrap(spacer).
func WithWrappedSpacer(wrap access.WrapSpacer) ClientOption {
	return func(o *clientOptions) error {
		o.wrapSpacer = wrap
		return nil
	}
}

// EDGAR is c's EDGAR access layer.
func (c *Client) EDGAR() *access.Layer { return c.edgar }

// RowsKey is the cache key of the rows of the filing accession.
func (c *Client) RowsKey(accession string) string { return c.rowsKey(accession) }

// FindIndex is the name index FindManager searches, built or refreshed.
func (c *Client) FindIndex(ctx context.Context) (*nameindex.Index, error) {
	return c.findIndex(ctx, nil)
}
