// Package rootlink lends the public sub-packages of the module (packages
// datasets and search) what package edgar13f keeps unexported: a Client's
// access layer, clock and redaction rule, the amendment rule, the checks
// of dates and periods, the checks and filters of a holdings question, and
// a company's filings of one form filed since a date. A sub-package that answers by the rules
// of package edgar13f must run the very code that package runs, not a
// copy of it, yet none of this is API for users.
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
	"github.com/edgar13f/edgar13f/internal/civil"
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

// A Filing is one 13F filing as the amendment rule reads it, cover facts
// included.
type Filing struct {
	Accession     string
	Form          string // 13F-HR, 13F-HR/A, 13F-NT or 13F-NT/A
	FilingDate    civil.Day
	Period        civil.Day // the cover's period of report
	AmendmentNo   int       // as on the cover; 0 when none
	AmendmentType string    // as on the cover: "RESTATEMENT", "NEW HOLDINGS" or ""
}

var (
	// ClientOf returns what client, an *edgar13f.Client, lends.
	ClientOf func(client any) Client

	// Resolve applies the amendment rule, and the declines that follow
	// from one CIK's filing list, to fs (one CIK's filings with their
	// cover facts) for period as of asOf. It returns the index in fs of
	// the base and of each supplement in order, or the decline (an
	// *edgar13f.DeclineError).
	Resolve func(fs []Filing, period, asOf civil.Day) (base int, supplements []int, err error)

	// CheckDate declines (edgar13f.InvalidArgument) an edgar13f.Date that
	// names no calendar day, naming the argument name; nil for a valid one.
	CheckDate func(name string, d any) error

	// CheckQuarterEnd declines (edgar13f.InvalidPeriod) a period, an
	// edgar13f.Date, that is not a calendar quarter end; nil for one that is.
	CheckQuarterEnd func(period any) error

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
