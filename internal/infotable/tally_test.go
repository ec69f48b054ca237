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

// TestParseRowErrorOnePass: a table whose XML the fast parser reads but
// whose row breaks a row rule (a putCall that is neither Put nor Call) is
// refused after one pass: keep sees each row before the bad one once, and
// the error is the reference parser's.
func TestParseRowErrorOnePass(t *testing.T) {
	data := []byte(tallyTable("<infoTable><nameOfIssuer>X</nameOfIssuer><cusip>C</cusip><value>1</value>"+
		"<shrsOrPrnAmt><sshPrnamt>1</sshPrnamt><sshPrnamtType>SH</sshPrnamtType></shrsOrPrnAmt><putCall>MAYBE</putCall></infoTable>", 5))
	_, wantErr := ParseReference(data, nil)
	if wantErr == nil {
		t.Fatal("ParseReference accepted the bad row")
	}
	calls := 0
	rows, tally, err := ParseTally(data, func(*Row) bool { calls++; return true })
	if err == nil || err.Error() != wantErr.Error() || rows != nil || tally != (Tally{}) {
		t.Fatalf("ParseTally = %d rows, %+v, %v; want the error %v", len(rows), tally, err, wantErr)
	}
	if calls != 4 {
		t.Errorf("keep called %d times for the 4 rows before the bad one; want each once (one pass)", calls)
	}
}
