package infotable

import (
	"fmt"
	"strings"
	"testing"
)

// tallyTable returns an information table of n rows, row i of value i+1,
// with late (if not "") as an element after the rows before the last.
func tallyTable(late string, n int) string {
	var b strings.Builder
	b.WriteString("<informationTable>")
	for i := range n {
		if i == n-1 {
			b.WriteString(late)
		}
		fmt.Fprintf(&b, "<infoTable><nameOfIssuer>ISSUER %d</nameOfIssuer><cusip>%09d</cusip><value>%d</value>"+
			"<shrsOrPrnAmt><sshPrnamt>1</sshPrnamt><sshPrnamtType>SH</sshPrnamtType></shrsOrPrnAmt></infoTable>", i, i, i+1)
	}
	b.WriteString("</informationTable>")
	return b.String()
}

// TestParseTally: the Tally counts every row parsed, also those keep drops,
// and counts each row once when the fast parser, having seen rows, hands
// the document to the reference parser (an element name it does not handle).
func TestParseTally(t *testing.T) {
	dropOdd := func(r *Row) bool { return r.Value%2 == 0 }
	for _, tc := range []struct {
		name string
		late string
		keep func(*Row) bool
		kept int
	}{
		{"fast, keep all", "", nil, 5},
		{"fast, drop some", "", dropOdd, 2},
		{"reference, drop some", "<élément/>", dropOdd, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows, tally, err := ParseTally([]byte(tallyTable(tc.late, 5)), tc.keep)
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) != tc.kept || tally != (Tally{Rows: 5, Value: 15}) {
				t.Errorf("%d rows, tally %+v; want %d rows, tally {5 15}", len(rows), tally, tc.kept)
			}
		})
	}
	if _, tally, err := ParseTally([]byte("<informationTable><infoTable>"), nil); err == nil || tally != (Tally{}) {
		t.Errorf("malformed table: tally %+v, error %v", tally, err)
	}
	var s Tally
	s.Add(1<<63 - 2)
	s.Add(5)
	if s != (Tally{Rows: 2, Value: 1<<63 - 1}) {
		t.Errorf("saturating sum: %+v", s)
	}
}
