package main

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/examples/internal/wire"
)

// grid is an aligned text table; right marks right-aligned (numeric) columns.
type grid struct {
	head  []string
	right []bool
	rows  [][]string
}

func (g *grid) add(cells ...string) { g.rows = append(g.rows, cells) }

func (g *grid) write(w io.Writer) error {
	width := make([]int, len(g.head))
	for _, r := range append([][]string{g.head}, g.rows...) {
		for i, c := range r {
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	bw := bufio.NewWriter(w)
	for _, r := range append([][]string{g.head}, g.rows...) {
		var line strings.Builder
		for i, c := range r {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			if i > 0 {
				line.WriteString("  ")
			}
			if g.right[i] {
				line.WriteString(pad + c)
			} else {
				line.WriteString(c + pad)
			}
		}
		bw.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
	return bw.Flush()
}

// num formats n with thousands separators.
func num(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		return "-" + s
	}
	return s
}

// signed formats a change with its sign.
func signed(n int64) string {
	if n > 0 {
		return "+" + num(n)
	}
	return num(n)
}

func writeCSV(w io.Writer, head []string, rows [][]string) error {
	cw := csv.NewWriter(w)
	_ = cw.Write(head)
	_ = cw.WriteAll(rows) // WriteAll flushes
	return cw.Error()
}

// cite describes one cited filing, with the unit its values are filed in.
func cite(label string, c edgar13f.Citation) string {
	unit := "values in dollars"
	if edgar13f.ValueUnitOf(c.FilingDate) == edgar13f.Thousands {
		unit = "values in thousands of dollars"
	}
	return fmt.Sprintf("%-14s %s  %-8s  filed %s  (%s)  %s\n", label, c.Accession, c.Form, c.FilingDate, unit, c.URL)
}

// cites describes the cited filings and whether each one's table matched
// the totals its cover states.
func cites(w io.Writer, prefix string, sources []edgar13f.Reconciliation) {
	for i, r := range sources {
		label := prefix + "supplement:"
		if i == 0 {
			label = prefix + "base:"
		}
		fmt.Fprint(w, cite(label, r.Citation))
		switch {
		case !r.Cover.Stated:
			fmt.Fprintf(w, "%-14s cover states no table totals\n", "")
		case r.Matched:
			fmt.Fprintf(w, "%-14s table matches its cover: %s rows, value %s as filed\n", "", num(r.Cover.Entries), num(r.Cover.Value))
		default:
			fmt.Fprintf(w, "%-14s TABLE DOES NOT MATCH ITS COVER: cover states %s rows, value %s as filed\n", "", num(r.Cover.Entries), num(r.Cover.Value))
		}
	}
}

// thousandsIn reports whether any of the filings reports thousands.
func thousandsIn(sources []edgar13f.Reconciliation) bool {
	for _, r := range sources {
		if edgar13f.ValueUnitOf(r.FilingDate) == edgar13f.Thousands {
			return true
		}
	}
	return false
}

// thousandsNote says which rows were filed in thousands of dollars, if any.
func thousandsNote(w io.Writer, sources []edgar13f.Reconciliation) {
	if thousandsIn(sources) {
		fmt.Fprintln(w, "Values are in dollars; rows marked * were filed in thousands of dollars and are shown x1000.")
	}
}

// dollars formats a row's value in dollars, marked * when filed in thousands.
func dollars(h edgar13f.Holding) string {
	if edgar13f.ValueUnitOf(h.FilingDate) == edgar13f.Thousands {
		return num(h.ValueUSD) + " *"
	}
	return num(h.ValueUSD)
}

// limits describes what the filters did.
func limits(w io.Writer, matched []string, order edgar13f.Order, total int, truncated bool, what string) {
	if matched != nil {
		fmt.Fprintf(w, "Issuer matched CUSIPs: %s\n", strings.Join(matched, ", "))
	}
	if order != "" {
		fmt.Fprintf(w, "%d %s in total; truncated: %v (ordered %s)\n", total, what, truncated, order)
	}
}

func (m managers) table(w io.Writer) error {
	fmt.Fprintf(w, "Managers whose EDGAR names contain %q (names are current, not point in time)\n\n", m.query)
	g := &grid{head: []string{"CIK", "NAME", "13F FILER"}, right: []bool{true, false, false}}
	for _, x := range m.ms {
		g.add(x.CIK, x.Name, map[bool]string{true: "yes", false: "no"}[x.Has13F])
	}
	return g.write(w)
}

func (m managers) csv(w io.Writer) error {
	var rows [][]string
	for _, x := range m.ms {
		rows = append(rows, []string{x.CIK, x.Name, strconv.FormatBool(x.Has13F)})
	}
	return writeCSV(w, []string{"cik", "entity_name", "has_13f_filings"}, rows)
}

func amendment(f edgar13f.Filing) string {
	if f.AmendmentNo == 0 && f.AmendmentType == "" {
		return ""
	}
	return strings.TrimSpace(fmt.Sprintf("%d %s", f.AmendmentNo, f.AmendmentType))
}

func (f filings) table(w io.Writer) error {
	fmt.Fprintf(w, "CIK %s: %d 13F filings made by %s\n%s\n\n", f.cik, len(f.fs), f.asOf, wire.Disclaimer)
	g := &grid{head: []string{"FILED", "ACCESSION", "FORM", "PERIOD", "AMENDMENT", "MANAGER", "EDGAR"}, right: make([]bool, 7)}
	for _, x := range f.fs {
		g.add(x.FilingDate.String(), x.Accession, string(x.Form), x.Period.String(), amendment(x), x.ManagerName, x.IndexURL)
	}
	return g.write(w)
}

func (f filings) csv(w io.Writer) error {
	var rows [][]string
	for _, x := range f.fs {
		no := ""
		if x.AmendmentNo != 0 {
			no = strconv.Itoa(x.AmendmentNo)
		}
		rows = append(rows, []string{x.Accession, string(x.Form), x.FilingDate.String(), x.Period.String(), strconv.FormatBool(x.IsAmendment),
			no, string(x.AmendmentType), x.ReportType, x.ManagerName, x.IndexURL})
	}
	return writeCSV(w, []string{"accession_number", "form_type", "filing_date", "period_of_report", "is_amendment",
		"amendment_no", "amendment_type", "report_type", "filing_manager_name", "edgar_url"}, rows)
}

func (h holdings) table(w io.Writer) error {
	s := h.s
	fmt.Fprintf(w, "CIK %s: 13F holdings for period %s as filed by %s (%d rows)\n", s.CIK, s.Period, s.AsOf, len(s.Holdings))
	cites(w, "", s.Reconciliations)
	limits(w, s.MatchedCUSIPs, "", 0, false, "")
	thousandsNote(w, s.Reconciliations)
	fmt.Fprintf(w, "%s\n\n", wire.Disclaimer)
	if s.Order != "" {
		if err := positionsTable(w, s); err != nil {
			return err
		}
	}
	head := []string{"ISSUER", "CLASS", "CUSIP", "VALUE ($)", "AMOUNT", "SH/PRN", "PUT/CALL", "DISCRETION", "MANAGERS", "SOLE", "SHARED", "NONE"}
	right := []bool{false, false, false, true, true, false, false, false, false, true, true, true}
	multi := len(s.Sources) > 1
	if multi {
		head, right = append(head, "FILING"), append(right, false)
	}
	g := &grid{head: head, right: right}
	for _, x := range s.Holdings {
		row := []string{x.NameOfIssuer, x.TitleOfClass, x.CUSIP, dollars(x), num(x.SharesOrPrincipal), string(x.ShPrn), string(x.PutCall),
			x.InvestmentDiscretion, x.OtherManager, num(x.VotingSole), num(x.VotingShared), num(x.VotingNone)}
		if multi {
			row = append(row, x.Accession)
		}
		g.add(row...)
	}
	return g.write(w)
}

// positionsTable says, for holdings cut to the largest positions (--top),
// which positions the rows are of: a position is the rows sharing CUSIP,
// put/call and SH/PRN, with its summed amount and value in dollars.
func positionsTable(w io.Writer, s *edgar13f.Snapshot) error {
	type position struct {
		issuer, cusip, putCall, shPrn string
		rows                          int
		amount, value                 int64
	}
	var ps []*position
	at := map[string]*position{}
	for _, x := range s.Holdings {
		key := strings.ToUpper(x.CUSIP) + "|" + string(x.PutCall) + "|" + string(x.ShPrn)
		p := at[key]
		if p == nil {
			p = &position{issuer: x.NameOfIssuer, cusip: x.CUSIP, putCall: string(x.PutCall), shPrn: string(x.ShPrn)}
			at[key] = p
			ps = append(ps, p)
		}
		p.rows++
		p.amount += x.SharesOrPrincipal
		p.value += x.ValueUSD
	}
	fmt.Fprintf(w, "%d positions (of %d), %d rows, ordered %s: each position's totals, then all its rows.\n\n", len(ps), s.TotalPositions, len(s.Holdings), s.Order)
	g := &grid{head: []string{"#", "ISSUER", "CUSIP", "PUT/CALL", "SH/PRN", "ROWS", "AMOUNT", "VALUE ($)"},
		right: []bool{true, false, false, false, false, true, true, true}}
	for i, p := range ps {
		g.add(strconv.Itoa(i+1), p.issuer, p.cusip, p.putCall, p.shPrn, strconv.Itoa(p.rows), num(p.amount), num(p.value))
	}
	if err := g.write(w); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w)
	return err
}

func (h holdings) csv(w io.Writer) error {
	rows := make([][]string, 0, len(h.s.Holdings))
	for _, x := range h.s.Holdings {
		rows = append(rows, []string{x.Accession, x.NameOfIssuer, x.TitleOfClass, x.CUSIP, x.FIGI, strconv.FormatInt(x.Value, 10),
			strconv.FormatInt(x.SharesOrPrincipal, 10), string(x.ShPrn), string(x.PutCall), x.InvestmentDiscretion, x.OtherManager,
			strconv.FormatInt(x.VotingSole, 10), strconv.FormatInt(x.VotingShared, 10), strconv.FormatInt(x.VotingNone, 10),
			strconv.FormatInt(x.ValueUSD, 10), x.FilingDate.String()})
	}
	return writeCSV(w, []string{"accession_number", "name_of_issuer", "title_of_class", "cusip", "figi", "value",
		"shares_or_principal_amount", "sh_prn", "put_call", "investment_discretion", "other_manager",
		"voting_authority_sole", "voting_authority_shared", "voting_authority_none", "value_usd", "filing_date"}, rows)
}

func (d diff) table(w io.Writer) error {
	c := d.c
	fmt.Fprintf(w, "CIK %s: 13F positions %s -> %s as filed by %s (%d changes)\n", c.CIK, c.PeriodA, c.PeriodB, c.AsOf, len(c.Changes))
	cites(w, "A ", c.ReconciliationsA)
	cites(w, "B ", c.ReconciliationsB)
	limits(w, c.MatchedCUSIPs, c.Order, c.TotalPositions, c.Truncated, "changes")
	if thousandsIn(c.ReconciliationsA) || thousandsIn(c.ReconciliationsB) {
		fmt.Fprintln(w, "Values are in dollars, each filing's rows converted by its filing date (filings marked \"thousands\" above shown x1000).")
	}
	fmt.Fprintf(w, "%s\n\n", wire.Disclaimer)
	g := &grid{head: []string{"CUSIP", "ISSUER", "PUT/CALL", "SH/PRN", "AMOUNT A", "AMOUNT B", "CHANGE", "VALUE A ($)", "VALUE B ($)", "VALUE CHANGE ($)", "TYPE"},
		right: []bool{false, false, false, false, true, true, true, true, true, true, false}}
	for _, x := range c.Changes {
		g.add(x.CUSIP, x.NameOfIssuer, string(x.PutCall), string(x.ShPrn), num(x.SharesA), num(x.SharesB), signed(x.SharesDelta),
			num(x.ValueUSDA), num(x.ValueUSDB), signed(x.ValueUSDDelta), string(x.Type))
	}
	return g.write(w)
}

func (d diff) csv(w io.Writer) error {
	i := func(n int64) string { return strconv.FormatInt(n, 10) }
	rows := make([][]string, 0, len(d.c.Changes))
	for _, x := range d.c.Changes {
		rows = append(rows, []string{x.CUSIP, x.NameOfIssuer, string(x.PutCall), string(x.ShPrn), i(x.SharesA), i(x.SharesB), i(x.SharesDelta),
			i(x.ValueA), i(x.ValueB), i(x.ValueDelta), i(x.ValueUSDA), i(x.ValueUSDB), i(x.ValueUSDDelta), string(x.Type)})
	}
	return writeCSV(w, []string{"cusip", "name_of_issuer", "put_call", "sh_prn", "shares_a", "shares_b", "shares_delta",
		"value_a", "value_b", "value_delta", "value_usd_a", "value_usd_b", "value_usd_delta", "change_type"}, rows)
}
