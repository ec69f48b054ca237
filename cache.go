package edgar13f

import (
	"context"
	"errors"
	"time"

	"github.com/edgar13f/edgar13f/internal/diskcache"
	"github.com/edgar13f/edgar13f/internal/freshness"
)

// This file holds the cache policy of the Client: the keys of its entries,
// the rules that say when an entry may still answer, and the adapter of the
// on-disk cache. The access layer (internal/access) places every key under
// the source the entry was read from, so an entry read from one source
// (live EDGAR, a mirror at a base URL, a mirror tree, a caller's Fetcher)
// never answers a Client reading another, and keys written by earlier
// versions of the package are never read.

// Cache key prefixes. The version in each changes when its encoding does.
const (
	keyCover       = "cover/v2/"        // + accession: the facts of a cover page, with its totals
	keyRows        = "rows/v2/"         // + rule name + "/" + accession: parsed, redacted rows and the tally before redaction
	keyFindNames   = "find/names/v1"    // the parsed cik-lookup-data.txt
	keyFindQuarter = "find/quarter/v1/" // + "2023Q4": the 13F filers of a quarter
	keyFindIndex   = "find/index/v2"    // FindManager's built index
)

// Freshness rules are internal/freshness's (package companies reads by
// them too): documents inside a filing's folder never change once
// accepted, so covers and rows are kept forever; what EDGAR keeps growing
// (filing lists, the name file, the quarterly form indexes) answers only
// while those rules allow. Filing lists are read by internal/filinglist.

// listAnswers reports whether a copy under the filing list's rule, fetched
// at fetched, may answer for asOf.
func listAnswers(fetched time.Time, asOf Date) bool {
	return freshness.ListAnswers(fetched, asOf.day())
}

// quarterFinal reports whether a copy of a quarterly form index for the
// quarter ending on end, fetched at fetched, can no longer change: it was
// fetched late enough to answer for the quarter's end as a filing list.
func quarterFinal(end Date, fetched time.Time) bool { return listAnswers(fetched, end) }

// fresh reports whether a copy under the day rule fetched at t may still
// be used at now.
func fresh(t, now time.Time) bool { return freshness.Fresh(t, now) }

// cachedJSON decodes the entry under key into v; false when there is none
// or it does not decode.
func (c *Client) cachedJSON(ctx context.Context, key string, v any) bool {
	return c.edgar.CachedJSON(ctx, key, v)
}

// keepJSON caches v as JSON under key.
func (c *Client) keepJSON(ctx context.Context, key string, v any) { c.edgar.KeepJSON(ctx, key, v) }

// diskCache adapts internal/diskcache to Cache.
type diskCache struct{ d *diskcache.Dir }

func (c diskCache) Get(ctx context.Context, key string) ([]byte, error) {
	b, err := c.d.Get(ctx, key)
	if errors.Is(err, diskcache.ErrMiss) {
		return nil, ErrCacheMiss
	}
	return b, err
}

func (c diskCache) Put(ctx context.Context, key string, data []byte) error {
	return c.d.Put(ctx, key, data)
}
