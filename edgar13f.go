package edgar13f

import (
	"github.com/edgar13f/edgar13f/internal/edgarid"
	"github.com/edgar13f/edgar13f/internal/infotable"
)

// This file holds the vocabulary of the answers: forms, filings, holdings,
// snapshots and comparisons.

// A Form is an EDGAR submission type. The 13F questions handle the four 13F
// forms; the company questions ([Client.Companies]) any form.
type Form string

// The 13F submission types. Both kinds of holdings-report amendment are filed
// as [Form13FHRA]; the cover page tells them apart (see [AmendmentType]).
const (
	Form13FHR  Form = "13F-HR"   // holdings report
	Form13FHRA Form = "13F-HR/A" // amendment to a holdings report
	Form13FNT  Form = "13F-NT"   // notice: holdings reported by other managers
	Form13FNTA Form = "13F-NT/A" // amendment to a notice
)

func (f Form) is13F() bool { return edgarid.Is13F(f) }

func (f Form) isHoldingsReport() bool { return f == Form13FHR || f == Form13FHRA }

// An AmendmentType is the kind of an amendment (13F-HR/A or 13F-NT/A) as its
// cover page states it. The empty AmendmentType means the cover states none:
// usually an original filing, or an amendment whose cover omits the type
// (a 13F-HR/A without a type counts as a restatement in the amendment rule).
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
	Form       Form   // 13F-HR or 13F-HR/A in 13F answers; any form (10-K, 10-K/A, ...) in company answers
	FilingDate Date   // EDGAR's Filing Date; it alone decides visibility
	URL        string // the filing's EDGAR index page
}

// A Filing is one 13F submission as EDGAR lists it, with the facts its cover
// page adds, exactly as the cover states them. Filings from before 2013 have
// no XML cover and carry only what EDGAR's list says.
type Filing struct {
	Accession     string
	Form          Form
	FilingDate    Date          // EDGAR's Filing Date; it alone decides visibility
	Period        Date          // period of report: cover page, else EDGAR's list
	IsAmendment   bool          // the form is an amendment (/A), or the cover says isAmendment
	AmendmentNo   int           // as on the cover; 0 when the cover states none
	AmendmentType AmendmentType // as on the cover, for any form; "" when the cover states none
	ReportType    string        // as on the cover, e.g. "13F HOLDINGS REPORT"; "" when no XML cover exists
	ManagerName   string        // filing manager's name as on the cover; "" when no XML cover exists
	Totals        Totals        // the cover's table totals as filed; zero when it states none
	IndexURL      string        // EDGAR index page of the filing
}

// Totals are the table totals a 13F cover states on its summary page, as
// filed: the number of information-table rows (tableEntryTotal) and the sum
// of their values (tableValueTotal), in the filing's unit ([ValueUnitOf]).
type Totals struct {
	Stated  bool  // the cover states both totals (notices state none)
	Entries int64 // tableEntryTotal
	Value   int64 // tableValueTotal, as filed
}

// A Reconciliation says whether one source filing's information table
// matched the totals its cover states. The table is counted as parsed,
// before redaction, so that a complete table matches whatever redaction
// removed; only the cover's totals and the verdict are given, never the
// values of removed rows. A filing whose table does not match is reported
// as it is: its rows are answered as filed, not repaired.
type Reconciliation struct {
	Citation        // the source filing
	Cover    Totals // the totals its cover states, as filed
	// Matched is true when the cover states totals and the table has
	// exactly Cover.Entries rows whose values sum to Cover.Value.
	Matched bool
}

// Citation returns the citation of f.
func (f Filing) Citation() Citation {
	return Citation{Accession: f.Accession, Form: f.Form, FilingDate: f.FilingDate, URL: f.IndexURL}
}

// A FilingList is the answer of [Client.Filings]: the 13F filings of one
// manager that EDGAR had accepted on AsOf.
type FilingList struct {
	CIK     string   // without leading zeros
	AsOf    Date     // knowledge date of the answer
	Period  Date     // the period asked for with [ForPeriod]; zero for every period
	Filings []Filing // newest first: filing date, then accession, descending
}

// A Holding is one row of a 13F information table, exactly as filed, and
// its value in whole dollars.
//
// ValueUSD is Value multiplied by 1,000 when the row's filing was filed
// before 2023-01-03 (the date the SEC switched Form 13F from thousands to
// dollars), and Value otherwise ([ValueUnitOf]). The rule follows the
// filing date, not the period, so late filings and amendments of old
// periods filed since 2023 count as dollars. It cannot fix filer errors:
// some filings made after the cutover still report thousands (one real
// example is Bull Street Advisors' 2022Q4 report, accession
// 0001790837-23-000002, filed 2023-02-28), and ValueUSD under-states
// those by a factor of 1,000. A value too large for int64 after scaling is
// math.MaxInt64. Every sum and ranking of the package uses ValueUSD.
type Holding struct {
	Accession            string  // accession of the filing this row comes from
	FilingDate           Date    // filing date of that filing; it decides ValueUSD
	NameOfIssuer         string  // as filed
	TitleOfClass         string  // as filed
	CUSIP                string  // as filed (case preserved; compare case-insensitively)
	FIGI                 string  // "" when not filed
	Value                int64   // as filed: thousands of dollars before 2023-01-03, dollars since
	ValueUSD             int64   // Value in whole dollars, by FilingDate
	SharesOrPrincipal    int64   // sshPrnamt, as filed
	ShPrn                ShPrn   // SH or PRN
	PutCall              PutCall // "" unless the row is an option
	InvestmentDiscretion string  // SOLE, DFND or OTR
	OtherManager         string  // "" when not filed; otherwise as filed (e.g. "4,8,11")
	VotingSole           int64
	VotingShared         int64
	VotingNone           int64
}

// A ValueUnit is the unit of the value column of a 13F information table.
type ValueUnit string

// The units of [Holding.Value]; which one a filing uses follows from its
// filing date ([ValueUnitOf]).
const (
	Thousands ValueUnit = "thousands" // thousands of dollars: filings made before 2023-01-03
	Dollars   ValueUnit = "dollars"   // whole dollars: filings made on or after 2023-01-03
)

// ValueUnitOf returns the unit in which a 13F filing made on filed reports
// values: [Thousands] before 2023-01-03 (the date the SEC switched Form 13F
// to whole dollars), else [Dollars]. It goes by the filing date, not the
// period, so late filings and amendments of old periods filed since then
// are in dollars. Some filers kept reporting thousands after the change;
// no rule can tell those apart (see [Holding]).
func ValueUnitOf(filed Date) ValueUnit {
	if filed.day() < infotable.DollarsFrom {
		return Thousands
	}
	return Dollars
}

// An Order names how a truncated answer was ranked.
type Order string

// The orders used by [Limit]. Both rank by value in whole dollars
// ([Holding].ValueUSD), never by the value as filed.
const (
	ValueDesc         Order = "value_desc"           // Holdings: summed value in dollars, largest first
	AbsValueDeltaDesc Order = "abs_value_delta_desc" // Diff: |ValueUSDDelta|, largest first
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

	// Reconciliations holds one check of table against cover for each of
	// Sources, in the same order. Filters do not change it.
	Reconciliations []Reconciliation

	// MatchedCUSIPs is set (possibly empty, never nil) when the [Issuer]
	// filter was given: the sorted distinct CUSIPs (upper-case) of the rows it kept.
	MatchedCUSIPs []string
	// TotalPositions, Truncated and Order are set when [Limit] was
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
//
// ValueA, ValueB and ValueDelta sum [Holding.Value] as filed: across the
// 2023-01-03 units change (and in a period whose rows were filed on both
// sides of it) they add thousands to dollars and mean little. ValueUSDA,
// ValueUSDB and ValueUSDDelta sum [Holding].ValueUSD, each row converted
// by its own filing's date: they are the values to compare and add up.
type Change struct {
	CUSIP         string // upper-case
	NameOfIssuer  string // any name filed for the position, period B preferred
	PutCall       PutCall
	ShPrn         ShPrn
	SharesA       int64
	SharesB       int64
	SharesDelta   int64 // SharesB - SharesA
	ValueA        int64 // as filed
	ValueB        int64 // as filed
	ValueDelta    int64 // ValueB - ValueA, as filed
	ValueUSDA     int64 // whole dollars
	ValueUSDB     int64 // whole dollars
	ValueUSDDelta int64 // ValueUSDB - ValueUSDA, whole dollars
	Type          ChangeType
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
	Changes  []Change // ordered by CUSIP, PutCall, ShPrn unless Limit was given

	// ReconciliationsA and ReconciliationsB check each of SourcesA and
	// SourcesB against its cover, as in [Snapshot].
	ReconciliationsA []Reconciliation
	ReconciliationsB []Reconciliation

	// MatchedCUSIPs, TotalPositions, Truncated and Order are set as in
	// [Snapshot], counting changes instead of positions.
	MatchedCUSIPs  []string
	TotalPositions int
	Truncated      bool
	Order          Order
}
