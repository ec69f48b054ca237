package testkit

import (
	"fmt"

	"github.com/edgar13f/edgar13f"
)

// Snapshot returns a synthetic holdings answer of n rows for CIK 1067983,
// period 2023-09-30 as known on 2023-11-15, every row of one filing and
// of its own issuer and CUSIP.
func Snapshot(rows int) *edgar13f.Snapshot {
	period, filed := edgar13f.MustParseDate("2023-09-30"), edgar13f.MustParseDate("2023-11-15")
	c := edgar13f.Citation{Accession: "0000950123-23-011029", Form: edgar13f.Form13FHR, FilingDate: filed}
	s := &edgar13f.Snapshot{CIK: "1067983", Period: period, AsOf: filed, Base: c, Sources: []edgar13f.Citation{c}}
	s.Holdings = make([]edgar13f.Holding, rows)
	for i := range s.Holdings {
		s.Holdings[i] = edgar13f.Holding{
			Accession: c.Accession, FilingDate: filed, NameOfIssuer: fmt.Sprintf("ISSUER NUMBER %d CORP", i), TitleOfClass: "COM",
			CUSIP: fmt.Sprintf("%09d", i), Value: int64(i) * 1000, ValueUSD: int64(i) * 1000, SharesOrPrincipal: int64(i) * 10, ShPrn: edgar13f.Shares,
			InvestmentDiscretion: "SOLE", VotingSole: int64(i),
		}
	}
	return s
}

// TrickyStrings are texts that need every kind of JSON escaping: quotes,
// backslashes, HTML characters, control characters, line and paragraph
// separators, non-ASCII letters and invalid UTF-8.
func TrickyStrings() []string {
	return []string{"JOHNSON & JOHNSON <A>", `"Q" \B/ </script>`, "TAB\tNL\nCR\rBS\b\x01\x7f", "L\u2028S\u2029", "Société Générale 日本 😀", "BAD \xff\xfe \xed\xa0\x80"}
}

// TrickySnapshot returns Snapshot(3) followed by a row per TrickyStrings
// text as issuer name and other manager, and those texts as matched CUSIPs.
func TrickySnapshot() *edgar13f.Snapshot {
	s := Snapshot(3)
	for i, text := range TrickyStrings() {
		h := s.Holdings[i%3]
		h.NameOfIssuer, h.OtherManager = text, text
		s.Holdings = append(s.Holdings, h)
	}
	s.MatchedCUSIPs = TrickyStrings()
	return s
}
