package edgar13f

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/edgar13f/edgar13f/internal/access"
	"github.com/edgar13f/edgar13f/internal/docerr"
)

// This file holds every error of the package: declines (a question without
// an answer on asOf, a normal outcome) and failures (EDGAR unreachable, a
// document missing or unreadable, no User-Agent).

// A Reason says why a query was declined. Its string form is stable. It is
// also the error to match a decline with: errors.Is(err, NotYetFiled).
type Reason string

// Decline reasons, in precedence order: when several apply, the first wins.
const (
	// InvalidArgument: a malformed CIK, date or CUSIP, or an out-of-range filter.
	InvalidArgument Reason = "invalid_argument"
	// InvalidPeriod: a period that is not a calendar quarter end, or a diff
	// whose period B is not after period A.
	InvalidPeriod Reason = "invalid_period"
	// UnsupportedRequest: a question Form 13F cannot answer, such as short positions.
	UnsupportedRequest Reason = "unsupported_request"
	// UnknownCIK: the CIK had filed no 13F of any kind on or before asOf
	// (for a company question: EDGAR has no filing list or company facts
	// for the CIK).
	UnknownCIK Reason = "unknown_cik"
	// UnknownConcept: a financial concept that is no alias and no XBRL tag
	// the company used in a filing on or before asOf.
	UnknownConcept Reason = "unknown_concept"
	// NoticeOnly: only a 13F notice (13F-NT or 13F-NT/A) is visible for the period.
	NoticeOnly Reason = "notice_only"
	// NotYetFiled: a known 13F filer with no holdings report for the period visible on asOf.
	NotYetFiled Reason = "not_yet_filed"
	// SectionNotFound: a 10-K or 10-Q visible on asOf that has no section
	// for the Item asked for (or a filing of a form without Items).
	SectionNotFound Reason = "section_not_found"
	// UnknownChunk: a filing-search chunk id that no indexed filing has.
	UnknownChunk Reason = "unknown_chunk"
)

// Reasons returns every Reason in precedence order.
func Reasons() []Reason {
	return []Reason{InvalidArgument, InvalidPeriod, UnsupportedRequest, UnknownCIK, UnknownConcept, NoticeOnly, NotYetFiled, SectionNotFound, UnknownChunk}
}

// Error returns the reason's string form, unchanged, so that a Reason
// prints the same whether or not it is taken as an error. A Reason is an
// error only to be the target of [errors.Is]: errors.Is(err, NotYetFiled)
// reports whether err is, or wraps, a [*DeclineError] of that Reason.
func (r Reason) Error() string { return string(r) }

// A DeclineError reports that edgar13f declined to answer a query. A decline
// is a normal outcome, not a failure: the question has no answer on asOf (or
// was malformed). Match it with [errors.Is] against its [Reason]
// (errors.Is(err, edgar13f.NotYetFiled)), or with [errors.As] to read the
// Reason and Message. Build one with [Decline]. Methods return it as an
// error, never as a *DeclineError, so a nil result is always a nil
// interface.
type DeclineError struct {
	Reason  Reason
	Message string // for people; match on Reason, never on text
}

// Decline returns the decline of reason r with the message
// fmt.Sprintf(format, args...). It is never nil, so it can be returned as
// an error as it is.
func Decline(r Reason, format string, args ...any) *DeclineError {
	return &DeclineError{Reason: r, Message: fmt.Sprintf(format, args...)}
}

// Error returns "edgar13f: <reason>: <message>".
func (e *DeclineError) Error() string {
	return "edgar13f: " + string(e.Reason) + ": " + e.Message
}

// Is reports whether target is e's [Reason].
func (e *DeclineError) Is(target error) bool {
	r, ok := target.(Reason)
	return ok && r == e.Reason
}

// ErrNoUserAgent is matched (with [errors.Is]) by the error of [NewClient]
// for a Client that must reach EDGAR over HTTP but was given no User-Agent,
// or one without an email address ([WithUserAgent]). Nothing is sent.
var ErrNoUserAgent = access.ErrNoUserAgent

// ErrNotFound is wrapped by errors for EDGAR documents that do not exist
// (HTTP 404, or a file missing from a mirror tree).
var ErrNotFound = docerr.ErrNotFound

// ErrTooLarge is wrapped by the error for an EDGAR document larger than the
// size limit of its kind; such a document is not retried. The Client's HTTP
// fetcher and package mirror's Fetcher stop reading at the limit, so memory stays
// bounded whatever a server sends: 64 MiB for filing lists (.json; real ones
// are a few MB), 16 MiB for cover pages (primary_doc.xml; real ones are well
// under 1 MB), 512 MiB for complete submission text files and other .txt
// files (an information table of 250,000 rows is about 120 MB), and 256 MiB
// for any other document.
var ErrTooLarge = docerr.ErrTooLarge

// ErrCacheMiss is returned by a [Cache] when a key has no entry.
var ErrCacheMiss = errors.New("edgar13f: cache miss")

// A FetchError reports a failed EDGAR request after retries, or a document
// a mirror tree does not hold. It is a transport failure, not a decline. URL
// names the document asked for (its EDGAR URL, also when it was read from a
// mirror); Err wraps [ErrNotFound] for a document that does not exist.
type FetchError struct {
	URL        string
	StatusCode int // last HTTP status, 0 when no response was received
	Attempts   int // requests made; 1 for a mirror tree
	Err        error
}

// Error describes the failure.
func (e *FetchError) Error() string {
	var b strings.Builder
	b.WriteString("edgar13f: fetch ")
	b.WriteString(e.URL)
	if e.StatusCode != 0 {
		b.WriteString(": status ")
		b.WriteString(strconv.Itoa(e.StatusCode))
	}
	if e.Attempts > 1 {
		fmt.Fprintf(&b, ": giving up after %d attempts", e.Attempts)
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(docerr.Detail(e.Err))
	}
	return b.String()
}

// newFetchError builds the error of the access layer for a failed request.
func newFetchError(url string, status, attempts int, cause error) error {
	return &FetchError{URL: url, StatusCode: status, Attempts: attempts, Err: cause}
}

// Unwrap returns the underlying error.
func (e *FetchError) Unwrap() error { return e.Err }

// A ParseError reports an EDGAR document that edgar13f could not read.
type ParseError struct {
	Accession string // filing the document belongs to, "" for filing lists
	Document  string // the document's URL
	Err       error
}

// Error describes the failure.
func (e *ParseError) Error() string {
	if e.Accession != "" {
		return fmt.Sprintf("edgar13f: filing %s: cannot read %s: %s", e.Accession, e.Document, docerr.Detail(e.Err))
	}
	return fmt.Sprintf("edgar13f: cannot read %s: %s", e.Document, docerr.Detail(e.Err))
}

// Unwrap returns the underlying error.
func (e *ParseError) Unwrap() error { return e.Err }
