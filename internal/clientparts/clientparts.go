// Package clientparts names what an *edgar13f.Client lends the module's
// own packages (companies, datasets): its one access layer, its clock and
// its redaction rule. Package edgar13f fills a [Parts] through its
// Client.Parts method; since this package is internal, no program outside
// the module can name the type, so the method is of no use to one (the
// pattern of google.golang.org/api's option.ClientOption, whose Apply
// takes an internal settings struct).
//
// A package that answers by the rules of package edgar13f calls the rules
// themselves, which live in internal packages over plain types
// (internal/amend, internal/check, internal/filinglist,
// internal/freshness, internal/holdfilter); it takes from the Client only
// these parts.
package clientparts

import (
	"context"
	"io"
	"time"

	"github.com/edgar13f/edgar13f/internal/access"
)

// Parts is what an *edgar13f.Client lends.
type Parts struct {
	Access *access.Layer    // the one access layer: fetcher, spacing, cache, cache directory
	Now    func() time.Time // the Client's clock, for cache freshness only
	// Rule names the Client's redaction rule (stores and cache entries are
	// kept apart by it), and Redact is the rule: it reports whether a row
	// is removed; nil when redaction is off.
	Rule   string
	Redact func(nameOfIssuer, titleOfClass, cusip string) bool
}

// Mirror is what a mirror.Fetcher lends the Client it is given to: a way
// to write a mirrored document to w without holding it whole, failing as
// the fetcher's Fetch does. Package mirror fills it through the fetcher's
// Parts method.
type Mirror struct {
	Stream func(ctx context.Context, url string, w io.Writer) error
}
