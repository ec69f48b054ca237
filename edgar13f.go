package edgar13f

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// A Date is a calendar day with no time of day and no time zone. Every date
// in edgar13f (asOf, period of report, filing date) is a Date, so that a
// caller's time zone can never move a query to the next or previous day.
//
// The zero Date is not a valid date; methods that take a Date decline it with
// [InvalidArgument].
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// ParseDate parses s as YYYY-MM-DD. A malformed or impossible date (such as
// 2023-02-30) is reported as a [*DeclineError] with reason [InvalidArgument].
func ParseDate(s string) (Date, error) {
	d, ok := parseISODate(s)
	if !ok {
		return Date{}, declinef(InvalidArgument, "date %q is not a valid YYYY-MM-DD date", s)
	}
	return d, nil
}

// MustParseDate is like [ParseDate] but panics if s is not a valid date. It
// is meant for constants in tests and examples.
func MustParseDate(s string) Date {
	d, err := ParseDate(s)
	if err != nil {
		panic(err)
	}
	return d
}

// parseISODate parses exactly "YYYY-MM-DD" with a year from 1 to 9999.
func parseISODate(s string) (Date, bool) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return Date{}, false
	}
	y, ok1 := atoiDigits(s[0:4])
	m, ok2 := atoiDigits(s[5:7])
	d, ok3 := atoiDigits(s[8:10])
	if !ok1 || !ok2 || !ok3 || y < 1 {
		return Date{}, false
	}
	date := Date{Year: y, Month: time.Month(m), Day: d}
	if !date.valid() {
		return Date{}, false
	}
	return date, true
}

func atoiDigits(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// DateOf returns the calendar date of t in t's own location.
func DateOf(t time.Time) Date {
	y, m, d := t.Date()
	return Date{Year: y, Month: m, Day: d}
}

// valid reports whether d names a real calendar day in years 1 to 9999.
func (d Date) valid() bool {
	if d.Year < 1 || d.Year > 9999 || d.Month < time.January || d.Month > time.December || d.Day < 1 {
		return false
	}
	return DateOf(d.midnight()) == d
}

// IsZero reports whether d is the zero Date.
func (d Date) IsZero() bool { return d == Date{} }

// String returns d as YYYY-MM-DD.
func (d Date) String() string {
	return fmt.Sprintf("%04d-%02d-%02d", d.Year, int(d.Month), d.Day)
}

// midnight returns the start of d in UTC.
func (d Date) midnight() time.Time {
	return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, time.UTC)
}

// Compare returns -1 if d is before e, 0 if they are the same day and +1 if
// d is after e.
func (d Date) Compare(e Date) int {
	switch {
	case d.Year != e.Year:
		return cmpInt(d.Year, e.Year)
	case d.Month != e.Month:
		return cmpInt(int(d.Month), int(e.Month))
	default:
		return cmpInt(d.Day, e.Day)
	}
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Before reports whether d is before e.
func (d Date) Before(e Date) bool { return d.Compare(e) < 0 }

// After reports whether d is after e.
func (d Date) After(e Date) bool { return d.Compare(e) > 0 }

// AddDays returns the date n days after d (before d if n is negative).
func (d Date) AddDays(n int) Date { return DateOf(d.midnight().AddDate(0, 0, n)) }

// IsQuarterEnd reports whether d is the last day of a calendar quarter
// (March 31, June 30, September 30 or December 31), the only valid 13F
// periods of report.
func (d Date) IsQuarterEnd() bool {
	switch d.Month {
	case time.March, time.December:
		return d.Day == 31
	case time.June, time.September:
		return d.Day == 30
	}
	return false
}

// MarshalText implements [encoding.TextMarshaler]; it formats d as YYYY-MM-DD.
func (d Date) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText implements [encoding.TextUnmarshaler]; it parses YYYY-MM-DD.
func (d *Date) UnmarshalText(b []byte) error {
	v, err := ParseDate(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// A Form is an EDGAR submission type. edgar13f handles the four 13F forms.
type Form string

// The 13F submission types. Both kinds of holdings-report amendment are filed
// as [Form13FHRA]; the cover page tells them apart (see [AmendmentType]).
const (
	Form13FHR  Form = "13F-HR"   // holdings report
	Form13FHRA Form = "13F-HR/A" // amendment to a holdings report
	Form13FNT  Form = "13F-NT"   // notice: holdings reported by other managers
	Form13FNTA Form = "13F-NT/A" // amendment to a notice
)

func (f Form) is13F() bool {
	return f == Form13FHR || f == Form13FHRA || f == Form13FNT || f == Form13FNTA
}

func (f Form) isHoldingsReport() bool { return f == Form13FHR || f == Form13FHRA }

func (f Form) isNotice() bool { return f == Form13FNT || f == Form13FNTA }

// An AmendmentType is the kind of a 13F-HR/A as its cover page states it.
// The empty AmendmentType means none: an original filing, or an amendment
// whose cover omits the type (which edgar13f treats as a restatement).
type AmendmentType string

// The amendment types of a 13F cover page.
const (
	Restatement AmendmentType = "RESTATEMENT"  // replaces the whole report
	NewHoldings AmendmentType = "NEW HOLDINGS" // adds rows to the report on file
)

// A PutCall says whether a row is an option position. The empty PutCall means
// the row is not an option.
type PutCall string

// The option kinds of an information-table row.
const (
	Put  PutCall = "PUT"
	Call PutCall = "CALL"
)

// A ShPrn says what a row's share amount counts.
type ShPrn string

// The amount kinds of an information-table row.
const (
	Shares    ShPrn = "SH"  // number of shares
	Principal ShPrn = "PRN" // principal amount of debt, in dollars
)

// A Citation identifies one EDGAR filing that an answer relies on.
type Citation struct {
	Accession  string // accession number as EDGAR prints it, e.g. "0000950123-23-011029"
	Form       Form   // 13F-HR or 13F-HR/A
	FilingDate Date   // EDGAR's Filing Date; it alone decides visibility
	URL        string // the filing's EDGAR index page
}

// A Filing is one 13F submission as EDGAR lists it, with the facts its cover
// page adds.
type Filing struct {
	Accession     string
	Form          Form
	FilingDate    Date // EDGAR's Filing Date; it alone decides visibility
	Period        Date // period of report: cover page, else EDGAR's list
	IsAmendment   bool
	AmendmentNo   int           // 0 when the filing is not a numbered amendment
	AmendmentType AmendmentType // "" for originals and notices, or when the cover omits it
	ReportType    string        // from the cover, e.g. "13F HOLDINGS REPORT"; "" when no XML cover exists
	ManagerName   string        // filing manager's name as on the cover; "" when no XML cover exists
	URL           string        // EDGAR index page of the filing
}

// Citation returns the citation of f.
func (f Filing) Citation() Citation {
	return Citation{Accession: f.Accession, Form: f.Form, FilingDate: f.FilingDate, URL: f.URL}
}

// A Holding is one row of a 13F information table, exactly as filed.
type Holding struct {
	Accession            string  // accession of the filing this row comes from
	FilingDate           Date    // filing date of that filing; see [Holding.ValueDollars]
	NameOfIssuer         string  // as filed
	TitleOfClass         string  // as filed
	CUSIP                string  // as filed (case preserved; compare case-insensitively)
	FIGI                 string  // "" when not filed
	Value                int64   // as filed: thousands of dollars before 2023-01-03, dollars since
	SharesOrPrincipal    int64   // sshPrnamt, as filed
	ShPrn                ShPrn   // SH or PRN
	PutCall              PutCall // "" unless the row is an option
	InvestmentDiscretion string  // SOLE, DFND or OTR
	OtherManager         string  // "" when not filed; otherwise as filed (e.g. "4,8,11")
	VotingSole           int64
	VotingShared         int64
	VotingNone           int64
}

// dollarsCutover is the first filing date on which EDGAR requires 13F values
// in whole dollars rather than thousands.
var dollarsCutover = Date{2023, time.January, 3}

// ValueDollars returns the row's value in whole dollars: [Holding.Value]
// multiplied by 1,000 when the row's filing was filed before 2023-01-03 (the
// date the SEC switched Form 13F from thousands to dollars), and unchanged
// otherwise. The rule follows the filing date, not the period, so late
// filings and amendments of old periods filed since 2023 count as dollars.
//
// It cannot fix filer errors: some filings made after the cutover still
// report thousands (one real example is Bull Street Advisors' 2022Q4 report,
// accession 0001790837-23-000002, filed 2023-02-28), and ValueDollars
// under-states those by a factor of 1,000. A value too large for int64 after
// scaling is returned as math.MaxInt64.
func (h Holding) ValueDollars() int64 {
	if !h.FilingDate.Before(dollarsCutover) {
		return h.Value
	}
	const max = 1<<63 - 1
	if h.Value > max/1000 {
		return max
	}
	return h.Value * 1000
}

// An Order names how a truncated answer was ranked.
type Order string

// The orders used by [MaxPositions].
const (
	ValueDesc         Order = "value_desc"           // Holdings: summed value, largest first
	AbsValueDeltaDesc Order = "abs_value_delta_desc" // Diff: |value change|, largest first
)

// A Snapshot is the effective 13F holdings of one manager for one period, as
// EDGAR had accepted them on AsOf: the rows of Base followed by the rows of
// each new-holdings amendment filed after it.
type Snapshot struct {
	CIK      string     // without leading zeros
	Period   Date       // period of report
	AsOf     Date       // knowledge date of the answer
	Base     Citation   // the original or restatement in force on AsOf
	Sources  []Citation // Base, then each new-holdings supplement, in filing order
	Holdings []Holding  // rows exactly as filed, base first; filtered if options were given

	// MatchedCUSIPs is set (possibly empty, never nil) when the [Issuer]
	// filter was given: the sorted distinct CUSIPs (upper-case) of the rows it kept.
	MatchedCUSIPs []string
	// TotalPositions, Truncated and Order are set when [MaxPositions] was
	// given: the number of positions after the other filters and before the
	// cut, whether positions were cut, and the ranking used.
	TotalPositions int
	Truncated      bool
	Order          Order
}

// A ChangeType classifies one position in a [Comparison].
type ChangeType string

// The change types of a [Change].
const (
	Added     ChangeType = "added"     // absent in period A
	Removed   ChangeType = "removed"   // absent in period B
	Increased ChangeType = "increased" // more shares or principal in B
	Decreased ChangeType = "decreased" // fewer shares or principal in B
	Unchanged ChangeType = "unchanged" // the same shares or principal
)

// A Change is one consolidated position compared across two periods. A
// position is keyed by CUSIP (case-insensitively), PutCall and ShPrn; the
// shares and values of all its rows are summed. An absent side counts 0.
// Values are summed as filed (see [Holding.Value]); across the 2023-01-03
// units change the two sides are in different units.
type Change struct {
	CUSIP        string // upper-case
	NameOfIssuer string // any name filed for the position, period B preferred
	PutCall      PutCall
	ShPrn        ShPrn
	SharesA      int64
	SharesB      int64
	SharesDelta  int64 // SharesB - SharesA
	ValueA       int64
	ValueB       int64
	ValueDelta   int64 // ValueB - ValueA
	Type         ChangeType
}

// A Comparison is the change in one manager's 13F holdings between two
// periods, both resolved as EDGAR had accepted them on AsOf.
type Comparison struct {
	CIK      string // without leading zeros
	PeriodA  Date
	PeriodB  Date
	AsOf     Date
	BaseA    Citation
	BaseB    Citation
	SourcesA []Citation
	SourcesB []Citation
	Changes  []Change // ordered by CUSIP, PutCall, ShPrn unless MaxPositions was given

	// MatchedCUSIPs, TotalPositions, Truncated and Order are set as in
	// [Snapshot], counting changes instead of positions.
	MatchedCUSIPs  []string
	TotalPositions int
	Truncated      bool
	Order          Order
}

// A Reason says why a query was declined. Its string form is stable.
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
	// UnknownCIK: the CIK had filed no 13F of any kind on or before asOf.
	UnknownCIK Reason = "unknown_cik"
	// NoticeOnly: only a 13F notice (13F-NT or 13F-NT/A) is visible for the period.
	NoticeOnly Reason = "notice_only"
	// NotYetFiled: a known 13F filer with no holdings report for the period visible on asOf.
	NotYetFiled Reason = "not_yet_filed"
)

// Reasons lists every Reason in precedence order.
var Reasons = []Reason{InvalidArgument, InvalidPeriod, UnsupportedRequest, UnknownCIK, NoticeOnly, NotYetFiled}

// Sentinel errors, one per [Reason], for use with [errors.Is]. Every
// [*DeclineError] matches exactly the sentinel of its Reason.
var (
	ErrInvalidArgument    = errors.New("edgar13f: invalid argument")
	ErrInvalidPeriod      = errors.New("edgar13f: invalid period")
	ErrUnsupportedRequest = errors.New("edgar13f: unsupported request")
	ErrUnknownCIK         = errors.New("edgar13f: unknown cik")
	ErrNoticeOnly         = errors.New("edgar13f: notice only")
	ErrNotYetFiled        = errors.New("edgar13f: not yet filed")
)

func (r Reason) sentinel() error {
	switch r {
	case InvalidArgument:
		return ErrInvalidArgument
	case InvalidPeriod:
		return ErrInvalidPeriod
	case UnsupportedRequest:
		return ErrUnsupportedRequest
	case UnknownCIK:
		return ErrUnknownCIK
	case NoticeOnly:
		return ErrNoticeOnly
	case NotYetFiled:
		return ErrNotYetFiled
	}
	return nil
}

// A DeclineError reports that edgar13f declined to answer a query. A decline
// is a normal outcome, not a failure: the question has no answer on asOf (or
// was malformed). Match it with [errors.Is] against the Err sentinels, or with
// [errors.As] to read the Reason. Methods return it as an error, never as a
// *DeclineError, so a nil result is always a nil interface.
type DeclineError struct {
	Reason  Reason
	Message string // for people; match on Reason or the sentinels, never on text
}

// Error returns "edgar13f: <reason>: <message>".
func (e *DeclineError) Error() string {
	return "edgar13f: " + string(e.Reason) + ": " + e.Message
}

// Is reports whether target is the sentinel error of e's Reason.
func (e *DeclineError) Is(target error) bool {
	s := e.Reason.sentinel()
	return s != nil && target == s
}

func declinef(r Reason, format string, args ...any) error {
	return &DeclineError{Reason: r, Message: fmt.Sprintf(format, args...)}
}

// ErrNoUserAgent is returned, before anything is sent, when a Client that
// must reach EDGAR over HTTP was built without [WithUserAgent].
var ErrNoUserAgent = errors.New("edgar13f: no User-Agent: SEC fair-access policy requires one, set it with WithUserAgent (\"Name email@domain\")")

// ErrNotFound is wrapped by errors for EDGAR documents that do not exist
// (HTTP 404, or a file missing from a mirror).
var ErrNotFound = errors.New("edgar13f: not found")

// A FetchError reports a failed EDGAR request after retries. It is a
// transport failure, not a decline.
type FetchError struct {
	URL        string
	StatusCode int // last HTTP status, 0 when no response was received
	Attempts   int
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
		b.WriteString(e.Err.Error())
	}
	return b.String()
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
		return fmt.Sprintf("edgar13f: filing %s: cannot read %s: %v", e.Accession, e.Document, e.Err)
	}
	return fmt.Sprintf("edgar13f: cannot read %s: %v", e.Document, e.Err)
}

// Unwrap returns the underlying error.
func (e *ParseError) Unwrap() error { return e.Err }
