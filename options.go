package edgar13f

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/edgar13f/edgar13f/internal/access"
	"github.com/edgar13f/edgar13f/internal/check"
	"github.com/edgar13f/edgar13f/internal/mirror"
)

// This file holds every option of the package: how a Client is built
// (ClientOption, functions named With...), and how each question shapes its
// answer (the query options, named for what they do), with the limits each
// option is checked against.
//
// The query options follow one strategy. Each question has its own option
// type, a sealed interface named after it ([Option] for Holdings and Diff,
// [FilingsOption], [FindOption]), so an option a question does not take
// is a compile error, never silently ignored. An option several questions
// take returns an interface joining their types: [Limit], "at most n" for
// every question with a limit. Packages datasets and companies follow the
// same strategy with the same names (their Limit, ReportProgress, FormType
// and option types).

// Limits of the query options. Each is named for what it counts; an option
// outside its limits is declined with [InvalidArgument].
const (
	MaxCUSIPs       = check.MaxCUSIPs    // most CUSIPs one [CUSIPs] filter may list
	MinIssuerLen    = check.MinIssuerLen // shortest [Issuer] text, in characters
	MaxIssuerLen    = check.MaxIssuerLen // longest [Issuer] text, in characters
	MaxPositions    = check.MaxPositions // largest [Limit] of [Client.Holdings] and [Client.Diff]
	MinNameLen      = 3                  // shortest [Client.FindManager] name, in characters
	MaxNameLen      = 100                // longest [Client.FindManager] name, in characters
	DefaultManagers = 10                 // candidates [Client.FindManager] returns without [Limit]
	MaxManagers     = 20                 // largest [Limit] of [Client.FindManager]
)

// defaultRequestInterval is the default spacing of request starts to EDGAR.
const defaultRequestInterval = 250 * time.Millisecond

// minRequestInterval bounds [WithRequestInterval] from below: SEC asks for
// fewer than 10 requests a second, so intervals must exceed 100ms.
const minRequestInterval = 100 * time.Millisecond

// RetryPolicy says how the Client's HTTP fetcher retries a request that
// failed with 403, 429, 5xx, a network error, a truncated body or an HTML
// error page. Waits double from BaseDelay up to MaxDelay, with jitter;
// a Retry-After header is honoured up to MaxDelay. Every attempt also waits
// for its turn under the rate limit, so retries never exceed it. Zero
// fields take the defaults, the policy of a Client built without
// [WithRetryPolicy]: 6 attempts waiting about 1, 2, 4, 8 and 16 seconds
// (plus any longer Retry-After up to 2 minutes). SEC throttling can last
// about ten minutes; a long-running job that must ride it out sets a larger
// MaxAttempts and MaxDelay.
type RetryPolicy struct {
	MaxAttempts int           // total attempts per document; default 6
	BaseDelay   time.Duration // first wait; default 1s
	MaxDelay    time.Duration // longest single wait; default 2m
}

type clientOptions struct {
	userAgent  string
	cacheDir   string
	cache      Cache
	cacheSet   bool
	fetcher    Fetcher
	httpClient *http.Client
	baseURL    string
	clock      Clock
	interval   time.Duration
	retry      RetryPolicy
	redaction  redactionRule
	wrapSpacer access.WrapSpacer // for the wire tests: see export_test.go
}

// A ClientOption configures a [Client]. Options apply in order; the last of
// a kind wins.
type ClientOption func(*clientOptions) error

// WithUserAgent sets the User-Agent sent with every EDGAR request. SEC's
// fair-access policy requires one naming you and an email address, such as
// "Jane Quant jane@example.com". A Client that reads EDGAR over HTTP cannot
// be built without one: [NewClient] fails with [ErrNoUserAgent].
func WithUserAgent(ua string) ClientOption {
	return func(o *clientOptions) error {
		o.userAgent = strings.TrimSpace(ua)
		return nil
	}
}

// WithCacheDir sets the directory of the on-disk cache, which also holds
// the lock file that spaces requests across processes sharing it. The
// default is $XDG_CACHE_HOME/edgar13f (on Linux usually ~/.cache/edgar13f),
// else a private per-user directory under the system temp directory.
func WithCacheDir(dir string) ClientOption {
	return func(o *clientOptions) error {
		if dir == "" {
			return errors.New("edgar13f: WithCacheDir: empty directory")
		}
		o.cacheDir = dir
		o.cache, o.cacheSet = nil, false
		return nil
	}
}

// WithCache replaces the on-disk cache with c. A nil c disables caching:
// every query fetches what it needs. With a Cache of your own, request
// spacing is coordinated within this process only.
func WithCache(c Cache) ClientOption {
	return func(o *clientOptions) error {
		o.cache, o.cacheSet = c, true
		o.cacheDir = ""
		return nil
	}
}

// WithFetcher makes the Client read EDGAR through f instead of over HTTP,
// for example a mirror.Fetcher over recorded data (package
// [github.com/edgar13f/edgar13f/mirror]). No User-Agent, spacing
// or retries apply to f. Cache entries read through f belong to f's source
// (see [Fetcher]).
func WithFetcher(f Fetcher) ClientOption {
	return func(o *clientOptions) error {
		if f == nil {
			return errors.New("edgar13f: WithFetcher: nil Fetcher")
		}
		o.fetcher = f
		return nil
	}
}

// WithHTTPClient sets the HTTP client under the Client's own fetcher (for
// proxies, timeouts or tests). The User-Agent, spacing and retry logic stay
// above it. The client is copied.
//
// Spacing counts every request its transport writes on a connection,
// which a transport reports through net/http/httptrace (GotConn), as
// net/http's own Transport does: its re-sends after a reused connection
// failed then take starts of their own. A transport that reports no
// connections through httptrace counts one start per round trip (per
// attempt and per redirect hop), whatever it sends underneath.
func WithHTTPClient(hc *http.Client) ClientOption {
	return func(o *clientOptions) error {
		if hc == nil {
			return errors.New("edgar13f: WithHTTPClient: nil client")
		}
		c := *hc
		o.httpClient = &c
		return nil
	}
}

// WithBaseURL makes the HTTP fetcher request every EDGAR URL
// https://HOST/PATH as base/HOST/PATH: an EDGAR mirror, proxy or test
// server in the layout of mirror.Handler (package
// [github.com/edgar13f/edgar13f/mirror]). User-Agent, spacing, retries and
// the cache still apply; cache entries read this way belong to base and
// never answer a Client reading live EDGAR or another base.
func WithBaseURL(base string) ClientOption {
	return func(o *clientOptions) error {
		if _, err := mirror.URLFor(base, "https://www.sec.gov/"+"x"); err != nil {
			return fmt.Errorf("edgar13f: WithBaseURL: %v", err)
		}
		o.baseURL = base
		return nil
	}
}

// WithClock sets the clock used for cache freshness. The default is the
// system clock.
func WithClock(c Clock) ClientOption {
	return func(o *clientOptions) error {
		if c == nil {
			return errors.New("edgar13f: WithClock: nil Clock")
		}
		o.clock = c
		return nil
	}
}

// WithRequestInterval sets the least time between the starts of two EDGAR
// requests, across all goroutines and all processes sharing the cache
// directory. It must be more than 100ms (SEC allows fewer than 10 requests
// a second); the default is 250ms.
func WithRequestInterval(d time.Duration) ClientOption {
	return func(o *clientOptions) error {
		if d <= minRequestInterval {
			return fmt.Errorf("edgar13f: WithRequestInterval(%v): must exceed %v (SEC allows fewer than 10 requests a second)", d, minRequestInterval)
		}
		o.interval = d
		return nil
	}
}

// WithRetryPolicy sets how failed EDGAR requests are retried. Zero fields
// take the defaults (see [RetryPolicy]).
func WithRetryPolicy(p RetryPolicy) ClientOption {
	return func(o *clientOptions) error {
		if p.MaxAttempts < 0 || p.BaseDelay < 0 || p.MaxDelay < 0 {
			return fmt.Errorf("edgar13f: WithRetryPolicy: negative field in %+v", p)
		}
		o.retry = p
		return nil
	}
}

// WithRedaction turns the default redaction rule (see the package
// documentation) on or off. It is on unless turned off. Rows read with
// redaction off are cached apart and never served once it is back on.
func WithRedaction(on bool) ClientOption {
	return func(o *clientOptions) error {
		if on {
			o.redaction = defaultRedaction
		} else {
			o.redaction = noRedaction
		}
		return nil
	}
}

// WithRedactionRule replaces the redaction rule: remove reports whether a
// row (its Accession, FilingDate and ValueUSD are not yet set) must be removed.
// name identifies the rule in cache keys: give each different rule its own
// name, and a new name whenever the rule changes.
func WithRedactionRule(name string, remove func(Holding) bool) ClientOption {
	return func(o *clientOptions) error {
		if remove == nil || strings.TrimSpace(name) == "" || name == noRedaction.name || name == defaultRedaction.name {
			return fmt.Errorf("edgar13f: WithRedactionRule: need a non-nil rule and a name of its own (got %q)", name)
		}
		o.redaction = redactionRule{
			name: "custom-" + name,
			remove: func(issuer, title, cusip string) bool {
				return remove(Holding{NameOfIssuer: issuer, TitleOfClass: title, CUSIP: cusip})
			},
		}
		return nil
	}
}

// An Option narrows the answer of [Client.Holdings] or [Client.Diff]:
// [CUSIPs], [Issuer], [Limit] and [PositionType]. Options only filter rows
// after the amendment rule and redaction have run: they never change which
// filings are cited. They are checked when the query runs; an out-of-range
// value is declined with [InvalidArgument].
//
// Apply writes the option into the options of a holdings question, for the
// module's own packages (package datasets answers Holdings with the same
// options): its parameter's type is internal, so no other program can name
// it, call it usefully or implement Option.
type Option interface{ Apply(*check.Options) }

// queryOption is an Option of one field.
type queryOption func(*check.Options)

func (f queryOption) Apply(o *check.Options) { f(o) }

// CUSIPs keeps the rows whose CUSIP is one of cusips, compared
// case-insensitively (rows keep the CUSIP as filed). The list must hold 1 to
// [MaxCUSIPs] CUSIPs of 9 letters or digits, with no exact duplicates.
func CUSIPs(cusips ...string) Option {
	cs := slices.Clone(cusips)
	return queryOption(func(o *check.Options) { o.CUSIPs, o.CUSIPsSet = cs, true })
}

// Issuer keeps the rows whose issuer name contains text, case-insensitively,
// with runs of white space in both counted as one space. text must be
// [MinIssuerLen] to [MaxIssuerLen] characters long. The answer then lists the
// distinct CUSIPs that matched (MatchedCUSIPs). With [CUSIPs], both filters apply.
func Issuer(text string) Option {
	return queryOption(func(o *check.Options) { o.Issuer, o.IssuerSet = text, true })
}

// PositionType states which positions are wanted. Form 13F reports long
// positions only, so "long" is the one accepted value; any other is declined
// with [UnsupportedRequest].
func PositionType(t string) Option {
	return queryOption(func(o *check.Options) { o.PositionType, o.PositionTypeSet = t, true })
}

// A LimitOption is the option [Limit] returns: an option of every question
// that answers "at most n".
type LimitOption interface {
	Option
	FindOption
}

// Limit answers at most n items, the first n in the answer's own order.
// Every question with a limit takes it, each with its own range and default:
//
//   - [Client.Holdings] and [Client.Diff]: the n largest positions, 1 to
//     [MaxPositions]; without it, every position. A position is the rows
//     sharing CUSIP (case-insensitively), PutCall and ShPrn; positions rank
//     by summed value in whole dollars ([Holding].ValueUSD, so rows filed in
//     thousands and in dollars compare fairly), largest first, then by
//     CUSIP, PutCall (none first) and ShPrn. A position is never split: the
//     answer lists the kept positions in rank order, each with all its rows
//     in filed order (base before supplements). For Diff, changes rank by
//     the absolute change of value in dollars (|[Change].ValueUSDDelta|)
//     instead. The answer then reports TotalPositions, Truncated and Order.
//   - [Client.FindManager]: candidates, 1 to [MaxManagers], default
//     [DefaultManagers].
//
// The bulk source's Holders (package datasets) and the company questions
// (package companies) take their own Limit, with the same meaning.
//
// A value outside the range is declined with [InvalidArgument].
func Limit(n int) LimitOption { return limitOption(n) }

type limitOption int

func (n limitOption) Apply(o *check.Options)   { o.Limit, o.LimitSet = int(n), true }
func (n limitOption) applyFind(o *findOptions) { o.limit, o.limitSet = int(n), true }

type filingsOptions struct {
	period    Date
	periodSet bool
}

// A FilingsOption narrows the answer of [Client.Filings]: [ForPeriod].
type FilingsOption interface{ applyFilingList(*filingsOptions) }

type filingsOption func(*filingsOptions)

func (f filingsOption) applyFilingList(o *filingsOptions) { f(o) }

// ForPeriod keeps only the filings whose period of report is period, a
// calendar quarter end (else [Client.Filings] declines with [InvalidPeriod]).
// No such filing is an empty answer, not a decline.
func ForPeriod(period Date) FilingsOption {
	return filingsOption(func(o *filingsOptions) { o.period, o.periodSet = period, true })
}

type findOptions struct {
	asOf     Date
	asOfSet  bool
	limit    int
	limitSet bool
	progress func(Progress)
}

// A FindOption adjusts [Client.FindManager]: [FiledBy], [Limit] and
// [ReportProgress].
type FindOption interface{ applyFind(*findOptions) }

type findOption func(*findOptions)

func (f findOption) applyFind(o *findOptions) { f(o) }

// FiledBy makes Has13F count only 13F filings visible on asOf: those whose
// filing date is on or before asOf. Names stay current.
func FiledBy(asOf Date) FindOption {
	return findOption(func(o *findOptions) { o.asOf, o.asOfSet = asOf, true })
}

// A Progress reports how far long work has come, to the function given
// with [ReportProgress].
type Progress struct {
	// Stage names the step under way. Building the name index of
	// [Client.FindManager]: "names" (the name file: Done 0 then 1 of Total
	// 1), "quarters" (Done of Total quarterly files, in cache or fetched)
	// and "index" (Done 0 then 1 of Total 1). An import of the Form 13F
	// Data Sets (package datasets): "download" (fetching the zip), then
	// "filings", "infotable" (reading the zip), "sorting" (writing the
	// Parquet files) and "done".
	Stage string
	// Done and Total count the stage's work: files of the name index;
	// bytes of an import's "download" and "infotable", rows of its other
	// stages. Total is 0 when unknown.
	Done, Total int64
	// Window is the Data Sets window being imported; "" for the name
	// index.
	Window string
	// Index and Count place the window among those a Sync imports
	// (1-based); both are 1 for a single import, 0 for the name index.
	Index, Count int
}

// ReportProgress has f called as long work advances, from one goroutine at
// a time. [Progress] says what the work is, how far it is and how far it
// goes, at a human rate (at stage changes and about every whole percent).
// [Client.FindManager] reports while the name index is built, which
// happens on the first use of a cache and when a stale part is refreshed;
// f is not called when the index is ready. When several FindManager calls
// wait for the same build, only the one that started it reports. The
// imports of package datasets report the same Progress through that
// package's ReportProgress.
func ReportProgress(f func(Progress)) FindOption { return progressOption(f) }

type progressOption func(Progress)

func (f progressOption) applyFind(o *findOptions) { o.progress = f }
