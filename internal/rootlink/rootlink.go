// Package rootlink lends the public sub-packages of the module (packages
// datasets and search) what package edgar13f keeps unexported: a Client's
// access layer, clock and redaction rule, the checks and filters of a
// holdings question, and a company's filings of one form filed since a
// date. A sub-package that answers by the rules of package edgar13f must
// run the very code that package runs, not a copy of it, yet none of this
// is API for users. (The amendment rule and the argument checks need no
// lending: they are internal/amend and internal/check, over plain types.)
//
// Package edgar13f sets every variable here when it is initialised, so any
// package that imports both can call them; nothing else sets them. Values
// of package edgar13f's types travel as any (this package cannot import
// it); each sub-package wraps the calls it makes in typed functions of
// its own.
package rootlink

import (
	"context"
	"time"

	"github.com/edgar13f/edgar13f/internal/access"
)

// Client is what an *edgar13f.Client lends.
type Client struct {
	Access *access.Layer    // the one access layer: fetcher, spacing, cache, cache directory
	Now    func() time.Time // the Client's clock, for cache freshness only
	// Rule names the Client's redaction rule (stores and cache entries are
	// kept apart by it), and Redact is the rule: it reports whether a row
	// is removed; nil when redaction is off.
	Rule   string
	Redact func(nameOfIssuer, titleOfClass, cusip string) bool
}

var (
	// ClientOf returns what client, an *edgar13f.Client, lends.
	ClientOf func(client any) Client

	// HoldingsQuery checks the arguments of a holdings question exactly
	// as Client.Holdings checks them, in the same precedence: cik, period
	// and asOf (edgar13f.Date values) and opts (a []edgar13f.Option). It
	// returns the CIK without leading zeros and the function that applies
	// the options to an *edgar13f.Snapshot, or the decline.
	HoldingsQuery func(cik string, period, asOf, opts any) (string, func(snapshot any), error)

	// FilingsSince lists, as Companies.Filings does, the filings of form
	// (exact, case-insensitive) that cik made from since to asOf
	// (edgar13f.Date values), newest first, at most limit, through client
	// (an *edgar13f.Client); of the filing list's older pages it reads only
	// those whose range meets [since, asOf]. It returns an
	// *edgar13f.CompanyFilingList, or the decline of Companies.Filings for
	// a malformed CIK or date, or an unknown CIK.
	FilingsSince func(ctx context.Context, client any, cik string, asOf, since any, form string, limit int) (any, error)
)
