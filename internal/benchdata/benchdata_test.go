package benchdata

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/edgar13f/edgar13f/internal/cover"
	"github.com/edgar13f/edgar13f/internal/fulltext"
	"github.com/edgar13f/edgar13f/internal/infotable"
	"github.com/edgar13f/edgar13f/internal/submissions"
)

// script is the generator WriteInfoTable ports.
const script = "../../../shared/bench/gen_infotable.py"

// TestWriteInfoTableMatchesScript compares the port with the script's
// output byte for byte.
func TestWriteInfoTableMatchesScript(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not on PATH")
	}
	if _, err := os.Stat(script); err != nil {
		t.Skipf("generator script: %v", err)
	}
	for _, tc := range []struct {
		name   string
		rows   int
		prefix string
		seed   int64
	}{
		{"small", 25, "", 1},
		{"small ns1", 25, "ns1", 1},
		{"small seed 7", 25, "", 7},
		{"50k", 50_000, "", 1},
		{"50k ns1", 50_000, "ns1", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && tc.rows > 1000 {
				t.Skip("large table in -short mode")
			}
			out := filepath.Join(t.TempDir(), "table.xml")
			args := []string{script, itoa(tc.rows), out, "--seed", itoa(int(tc.seed))}
			if tc.prefix != "" {
				args = append(args, "--prefix", tc.prefix)
			}
			if b, err := exec.Command(python, args...).CombinedOutput(); err != nil {
				t.Fatalf("%s: %v\n%s", script, err, b)
			}
			want, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := WriteInfoTable(&got, tc.rows, tc.prefix, tc.seed); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(want, got.Bytes()) {
				n := 0
				for n < len(want) && n < got.Len() && want[n] == got.Bytes()[n] {
					n++
				}
				t.Fatalf("output differs from the script's at byte %d of %d (script) / %d (port)", n, len(want), got.Len())
			}
		})
	}
}

func itoa(n int) string { return string(appendInt(nil, n)) }

func appendInt(b []byte, n int) []byte {
	if n >= 10 {
		b = appendInt(b, n/10)
	}
	return append(b, byte('0'+n%10))
}

// TestInfoTable checks the shape of a small generated table (hard-coded
// from the script's output for 3 rows, seed 1).
func TestInfoTable(t *testing.T) {
	rows, err := infotable.Parse(InfoTable(3, "ns1"), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []infotable.Row{
		{NameOfIssuer: "EXXON MOBIL HLDGS INC 1708", TitleOfClass: "COM", CUSIP: "345023566", Value: 1032818700, Shares: 2519070, ShPrn: "SH", InvestmentDiscretion: "OTR", OtherManager: "7", VotingSole: 2519070},
		{NameOfIssuer: "ABBVIE PLC 2296", TitleOfClass: "COM", CUSIP: "878245V52", Value: 2098060930, Shares: 4281757, ShPrn: "SH", InvestmentDiscretion: "SOLE", VotingSole: 4281757},
		{NameOfIssuer: "UNITEDHEALTH GROUP INC 2549", TitleOfClass: "COM", CUSIP: "899279C49", Value: 325225006, Shares: 836054, ShPrn: "SH", InvestmentDiscretion: "SOLE", VotingSole: 836054},
	}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
}

// TestMirror reads the mirror's filing list and submission with the
// project's own decoders.
func TestMirror(t *testing.T) {
	f := DefaultFiling
	f.Rows, f.ValueTotal = 4, 12345
	table := InfoTable(f.Rows, "")
	fsys := Mirror(f, table)

	list, err := submissions.Decode(fsys[f.SubmissionsPath()].Data)
	if err != nil {
		t.Fatal(err)
	}
	wantList := []submissions.Filing{{Accession: f.Accession, Form: "13F-HR", FilingDate: f.FilingDate, ReportDate: f.Period,
		AcceptanceDateTime: f.FilingDate + "T20:59:25.000Z", PrimaryDocument: "xslForm13F_X02/primary_doc.xml",
		Size: int64(len(fsys[f.TextPath()].Data))}}
	if diff := cmp.Diff(wantList, list.Recent); diff != "" {
		t.Errorf("filing list (-want +got):\n%s", diff)
	}

	sub, err := fulltext.Parse(fsys[f.TextPath()].Data)
	if err != nil {
		t.Fatal(err)
	}
	if sub.Accession != f.Accession || sub.FiledAsOf != f.FilingDate || sub.PeriodOfReport != f.Period || len(sub.Documents) != 2 {
		t.Errorf("submission header = %s %s %s with %d documents, want %s %s %s with 2",
			sub.Accession, sub.FiledAsOf, sub.PeriodOfReport, len(sub.Documents), f.Accession, f.FilingDate, f.Period)
	}
	cv, err := cover.Parse(sub.Documents[0].Text)
	if err != nil {
		t.Fatal(err)
	}
	if cv.Period() != f.Period || !cv.HasTotals || cv.TableEntryTotal != int64(f.Rows) || cv.TableValueTotal != f.ValueTotal {
		t.Errorf("cover period %s, totals %v %d %d; want %s, true %d %d", cv.Period(), cv.HasTotals, cv.TableEntryTotal, cv.TableValueTotal,
			f.Period, f.Rows, f.ValueTotal)
	}
	doc := sub.Document("INFORMATION TABLE")
	if doc == nil || !bytes.Equal(bytes.TrimSpace(doc.Text), bytes.TrimSpace(table)) {
		t.Errorf("INFORMATION TABLE document does not hold the table")
	}
}
