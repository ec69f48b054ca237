package datasetzip

import (
	"bytes"
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/edgar13f/edgar13f/internal/civil"
	"github.com/edgar13f/edgar13f/internal/edgarid"
	"github.com/edgar13f/edgar13f/internal/infotable"
)

// A Filing is one submission of a window: its SUBMISSION row joined with
// its COVERPAGE and SUMMARYPAGE rows, normalised to the form the
// per-manager XML path gives the same facts.
type Filing struct {
	Accession             string    // ACCESSION_NUMBER, e.g. "0000950123-25-008361"
	CIK                   int64     // SUBMISSION.CIK (zero-padded or not in the file)
	Form                  string    // SUBMISSIONTYPE: 13F-HR, 13F-HR/A, 13F-NT or 13F-NT/A
	FilingDate            civil.Day // FILING_DATE
	Period                civil.Day // COVERPAGE.REPORTCALENDARORQUARTER, else SUBMISSION.PERIODOFREPORT
	IsAmendment           bool      // ISAMENDMENT "Y" (blank and "N" are false)
	AmendmentNo           int32     // AMENDMENTNO; 0 when blank
	AmendmentType         string    // AMENDMENTTYPE upper-cased, inner white space collapsed; "" when blank
	ReportType            string    // REPORTTYPE, e.g. "13F HOLDINGS REPORT"
	ManagerName           string    // FILINGMANAGER_NAME
	HasTotals             bool      // the filing has a SUMMARYPAGE row with both totals
	TableEntryTotal       int64     // TABLEENTRYTOTAL; 0 unless HasTotals
	TableValueTotal       int64     // TABLEVALUETOTAL as filed; 0 unless HasTotals
	OtherIncludedManagers int32     // OTHERINCLUDEDMANAGERSCOUNT; 0 when blank
	ConfidentialOmitted   bool      // ISCONFIDENTIALOMITTED "Y"
}

// Filings reads SUBMISSION, COVERPAGE and SUMMARYPAGE (small tables: one
// row per submission) and joins them by accession, in SUBMISSION order. A
// cover or summary page of an accession missing from SUBMISSION, a repeated
// accession, a malformed date or number is an error naming its line.
func (a *Archive) Filings() ([]Filing, error) {
	var out []Filing
	index := map[string]int{}
	t, err := a.Table(Submission)
	if err != nil {
		return nil, err
	}
	defer t.Close()
	for t.Next() {
		f := t.Fields()
		var s Filing
		s.Accession = string(trim(f[0]))
		if !edgarid.IsAccession(s.Accession) {
			return nil, t.errorf("malformed ACCESSION_NUMBER %q", f[0])
		}
		if _, dup := index[s.Accession]; dup {
			return nil, t.errorf("accession %s listed twice", s.Accession)
		}
		var ok bool
		if s.FilingDate, ok = parseDate(trim(f[1])); !ok {
			return nil, t.errorf("malformed FILING_DATE %q", f[1])
		}
		s.Form = strings.ToUpper(string(trim(f[2])))
		cik, err := strconv.ParseInt(string(trim(f[3])), 10, 64)
		if err != nil || cik <= 0 || len(trim(f[3])) > 10 {
			return nil, t.errorf("malformed CIK %q", f[3])
		}
		s.CIK = cik
		if p := trim(f[4]); len(p) > 0 {
			if s.Period, ok = parseDate(p); !ok {
				return nil, t.errorf("malformed PERIODOFREPORT %q", p)
			}
		}
		index[s.Accession] = len(out)
		out = append(out, s)
	}
	if err := t.Err(); err != nil {
		return nil, err
	}
	if err := a.joinCovers(out, index); err != nil {
		return nil, err
	}
	if err := a.joinSummaries(out, index); err != nil {
		return nil, err
	}
	return out, nil
}

func (a *Archive) joinCovers(out []Filing, index map[string]int) error {
	t, err := a.Table(CoverPage)
	if err != nil {
		return err
	}
	defer t.Close()
	seen := map[string]bool{}
	for t.Next() {
		f := t.Fields()
		acc := string(trim(f[0]))
		i, ok := index[acc]
		if !ok {
			return t.errorf("cover page of accession %q, which SUBMISSION does not list", acc)
		}
		if seen[acc] {
			return t.errorf("second cover page of accession %s", acc)
		}
		seen[acc] = true
		s := &out[i]
		if p := trim(f[1]); len(p) > 0 {
			if s.Period, ok = parseDate(p); !ok {
				return t.errorf("malformed REPORTCALENDARORQUARTER %q", p)
			}
		}
		s.IsAmendment = flag(f[2])
		if n := trim(f[3]); len(n) > 0 {
			v, err := strconv.ParseInt(string(n), 10, 32)
			if err != nil || v < 0 {
				return t.errorf("malformed AMENDMENTNO %q", n)
			}
			s.AmendmentNo = int32(v)
		}
		s.AmendmentType = strings.ToUpper(strings.Join(strings.Fields(string(f[4])), " "))
		s.ManagerName = string(trim(f[9]))
		s.ReportType = strings.Join(strings.Fields(string(f[15])), " ")
	}
	return t.Err()
}

func (a *Archive) joinSummaries(out []Filing, index map[string]int) error {
	t, err := a.Table(SummaryPage)
	if err != nil {
		return err
	}
	defer t.Close()
	for t.Next() {
		f := t.Fields()
		acc := string(trim(f[0]))
		i, ok := index[acc]
		if !ok {
			return t.errorf("summary page of accession %q, which SUBMISSION does not list", acc)
		}
		s := &out[i]
		if n := trim(f[1]); len(n) > 0 {
			v, ok := parseNumber(n)
			if !ok || v > math.MaxInt32 {
				return t.errorf("malformed OTHERINCLUDEDMANAGERSCOUNT %q", n)
			}
			s.OtherIncludedManagers = int32(v)
		}
		e, v := trim(f[2]), trim(f[3])
		if len(e) > 0 && len(v) > 0 {
			if s.TableEntryTotal, ok = parseNumber(e); !ok {
				return t.errorf("malformed TABLEENTRYTOTAL %q", e)
			}
			if s.TableValueTotal, ok = parseNumber(v); !ok {
				return t.errorf("malformed TABLEVALUETOTAL %q", v)
			}
			s.HasTotals = true
		}
		s.ConfidentialOmitted = flag(f[4])
	}
	return t.Err()
}

// flag reads a Y/N column ("Y", "true" and "1" are true; anything else,
// blank included, is false).
func flag(b []byte) bool {
	b = trim(b)
	return len(b) > 0 && (b[0] == 'Y' || b[0] == 'y' || b[0] == 't' || b[0] == 'T' || b[0] == '1')
}

// An InfoRow is one INFOTABLE row, normalised to the per-manager XML form.
// Its byte slices point into the reader's buffer and are valid until the
// next call to Next.
type InfoRow struct {
	Accession            []byte
	SK                   int64 // INFOTABLE_SK: the SEC's surrogate key, unique in the window
	NameOfIssuer         []byte
	TitleOfClass         []byte
	CUSIP                []byte // as filed (case preserved)
	FIGI                 []byte // empty when blank
	Value                int64  // as filed (thousands before 2023-01-03, dollars since)
	Shares               int64  // SSHPRNAMT
	ShPrn                string // "SH" or "PRN"
	PutCall              string // "", "PUT" or "CALL"
	InvestmentDiscretion string // upper-cased, e.g. "SOLE"
	OtherManager         []byte // as filed; empty when blank
	VotingSole           int64  // 0 when blank
	VotingShared         int64  // 0 when blank
	VotingNone           int64  // 0 when blank
}

// Discretion values, shared so that rows need not allocate them.
var discretions = []string{"SOLE", "DFND", "OTR"}

// InfoRow decodes the current row of an INFOTABLE reader into r. Text
// fields lose surrounding white space; PUTCALL and SSHPRNAMTTYPE are
// matched case-insensitively and given in upper case (PUTCALL must be
// blank, put or call; SSHPRNAMTTYPE SH or PRN); INVESTMENTDISCRETION is
// upper-cased. VALUE and SSHPRNAMT must be non-negative integers (a
// decimal fraction is rounded half away from zero, as the XML path
// rounds); blank voting columns are 0. Errors name the window, table and
// line.
func (t *TableReader) InfoRow(r *InfoRow) error {
	if t.table != InfoTable {
		return t.errorf("InfoRow on table %s", t.table)
	}
	f := t.fields
	r.Accession = trim(f[0])
	if len(r.Accession) != 20 {
		return t.errorf("malformed ACCESSION_NUMBER %q", f[0])
	}
	var ok bool
	if r.SK, ok = parseNumber(f[1]); !ok {
		return t.errorf("malformed INFOTABLE_SK %q", f[1])
	}
	r.NameOfIssuer = trim(f[2])
	r.TitleOfClass = trim(f[3])
	r.CUSIP = trim(f[4])
	if len(r.CUSIP) == 0 {
		return t.errorf("blank CUSIP")
	}
	r.FIGI = trim(f[5])
	if r.Value, ok = parseNumber(f[6]); !ok {
		return t.errorf("malformed VALUE %q", f[6])
	}
	if r.Shares, ok = parseNumber(f[7]); !ok {
		return t.errorf("malformed SSHPRNAMT %q", f[7])
	}
	if r.ShPrn, ok = infotable.NormShPrn(trim(f[8])); !ok {
		return t.errorf("SSHPRNAMTTYPE %q is neither SH nor PRN", trim(f[8]))
	}
	if r.PutCall, ok = infotable.NormPutCall(trim(f[9])); !ok {
		return t.errorf("PUTCALL %q is neither blank, Put nor Call", trim(f[9]))
	}
	r.InvestmentDiscretion = ""
	d := trim(f[10])
	for _, v := range discretions {
		if bytes.EqualFold(d, []byte(v)) {
			r.InvestmentDiscretion = v
		}
	}
	if r.InvestmentDiscretion == "" && len(d) > 0 {
		r.InvestmentDiscretion = strings.ToUpper(string(d))
	}
	r.OtherManager = trim(f[11])
	for i, p := range []*int64{&r.VotingSole, &r.VotingShared, &r.VotingNone} {
		v := trim(f[12+i])
		if len(v) == 0 {
			*p = 0
			continue
		}
		if *p, ok = parseNumber(v); !ok {
			return t.errorf("malformed %s %q", Columns[InfoTable][12+i], v)
		}
	}
	return nil
}

// trim removes surrounding ASCII white space.
func trim(b []byte) []byte { return bytes.TrimSpace(b) }

// parseNumber reads a non-negative integer, optionally with a decimal
// fraction rounded half away from zero, after trimming white space.
func parseNumber(b []byte) (int64, bool) {
	b = trim(b)
	if len(b) == 0 {
		return 0, false
	}
	var n int64
	i := 0
	for ; i < len(b) && b[i] != '.'; i++ {
		c := b[i]
		if c < '0' || c > '9' || n > (math.MaxInt64-int64(c-'0'))/10 {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if i == 0 {
		return 0, false
	}
	if i < len(b) { // fraction
		frac := b[i+1:]
		if len(frac) == 0 {
			return 0, false
		}
		for _, c := range frac {
			if c < '0' || c > '9' {
				return 0, false
			}
		}
		if frac[0] >= '5' {
			if n == math.MaxInt64 {
				return 0, false
			}
			n++
		}
	}
	return n, true
}

// ErrNoTable is wrapped by the error of a missing table.
var ErrNoTable = errors.New("table missing from the zip")
