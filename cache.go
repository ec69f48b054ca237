package edgar13f

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"time"

	"github.com/edgar13f/edgar13f/internal/diskcache"
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
	keyList        = "list/v3/"         // + 10-digit CIK: a filing list (every form), with the fiscal year end
	keyPage        = "page/v2/"         // + page name: an older page of a filing list (every form)
	keyCover       = "cover/v2/"        // + accession: the facts of a cover page, with its totals
	keyRows        = "rows/v2/"         // + rule name + "/" + accession: parsed, redacted rows and the tally before redaction
	keyFindNames   = "find/names/v1"    // the parsed cik-lookup-data.txt
	keyFindQuarter = "find/quarter/v1/" // + "2023Q4": the 13F filers of a quarter
	keyFindIndex   = "find/index/v2"    // FindManager's built index
	keyTickers     = "tickers/v1"       // fetch time + company_tickers.json
	keyFacts       = "facts/v1/"        // + 10-digit CIK: fetch time + compact companyfacts
	keyDocument    = "doc/v1/"          // + accession + "/" + name: a filing's document, as served
)

// Freshness rules. Documents inside a filing's folder never change once
// accepted, so covers and rows are kept forever. What EDGAR keeps growing
// (filing lists, the name file, the quarterly form indexes) answers only
// while these rules allow.

// listFreshAfter is how many days after asOf a filing list must have been
// fetched to answer for asOf: filings accepted after hours are dated the
// next business day, and EDGAR's list can lag.
const listFreshAfter = 2

// listAnswers reports whether a filing list fetched at fetched may answer
// for asOf.
func listAnswers(fetched time.Time, asOf Date) bool {
	return !DateOf(fetched.UTC()).Before(asOf.AddDays(listFreshAfter))
}

// quarterFinal reports whether a copy of a quarterly form index for the
// quarter ending on end, fetched at fetched, can no longer change: it was
// fetched at least listFreshAfter days after the quarter ended.
func quarterFinal(end Date, fetched time.Time) bool { return listAnswers(fetched, end) }

// refreshAfter is how old the cached name file and a quarterly form index
// that is not final may grow before they are fetched again.
const refreshAfter = 24 * time.Hour

// fresh reports whether a copy fetched at t may still be used at now.
func fresh(t, now time.Time) bool { return now.Sub(t) < refreshAfter }

// cachedJSON decodes the entry under key into v; false when there is none
// or it does not decode.
func (c *Client) cachedJSON(ctx context.Context, key string, v any) bool {
	b, ok := c.edgar.Cached(ctx, key)
	return ok && json.Unmarshal(b, v) == nil
}

// keepJSON caches v as JSON under key.
func (c *Client) keepJSON(ctx context.Context, key string, v any) {
	if b, err := json.Marshal(v); err == nil {
		c.edgar.Keep(ctx, key, b)
	}
}

// stamp returns a cache entry holding data and the time it was fetched.
func stamp(fetched time.Time, data []byte) []byte {
	b := make([]byte, 8, 8+len(data))
	binary.BigEndian.PutUint64(b, uint64(fetched.UnixNano()))
	return append(b, data...)
}

// unstamp splits an entry written by stamp; false when it is too short.
func unstamp(b []byte) (time.Time, []byte, bool) {
	if len(b) < 8 {
		return time.Time{}, nil, false
	}
	return time.Unix(0, int64(binary.BigEndian.Uint64(b))).UTC(), b[8:], true
}

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
