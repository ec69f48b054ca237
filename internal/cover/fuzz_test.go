package cover

import (
	"os"
	"regexp"
	"testing"

	"github.com/edgar13f/edgar13f/internal/edgartest/edgarfiles"
)

var isoDateRE = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// FuzzParse checks that Parse never panics and that what it accepts keeps
// the documented shapes. Seeds: a real cover page here and hostile
// documents in testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	for _, p := range []string{
		edgarfiles.Mirror + "/www.sec.gov/Archives/edgar/data/9000001/000900000125000004/primary_doc.xml",
	} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse(data)
		if err != nil {
			if c != nil {
				t.Fatalf("Parse returned %+v with error %v", c, err)
			}
			return
		}
		for _, d := range []string{c.PeriodOfReport, c.ReportCalendarOrQuarter, c.SignatureDate} {
			if d != "" && !isoDateRE.MatchString(d) {
				t.Errorf("date %q is not YYYY-MM-DD", d)
			}
		}
		if c.AmendmentNo < 0 || c.TableEntryTotal < 0 || c.TableValueTotal < 0 || c.OtherIncludedManagers < 0 {
			t.Errorf("negative count in %+v", c)
		}
		if !c.HasTotals && (c.TableEntryTotal != 0 || c.TableValueTotal != 0) {
			t.Errorf("totals without HasTotals in %+v", c)
		}
		if a := c.AmendmentType; a != "" && a != "RESTATEMENT" && a != "NEW HOLDINGS" {
			t.Logf("amendment type %q", a) // kept as filed, upper-cased
		}
	})
}
