package infotable

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/edgar13f/edgar13f/internal/edgartest/edgarfiles"
)

var (
	mirror    = edgarfiles.Mirror + "/www.sec.gov/Archives/edgar/data/"
	documents = edgarfiles.Documents + "/"
)

// realTable is a real information table and what is known about it.
type realTable struct {
	name  string
	table string // the table file, or a complete submission holding cover and table
	cover string // the cover file; "" when table is a submission or no cover exists
	rows  int    // hard-coded row count (equal to the cover's tableEntryTotal)
	sum   int64  // hard-coded sum of Value (equal to the cover's tableValueTotal)
	check func(t *testing.T, rows []Row)
}

var realTables = []realTable{
	{name: "berkshire-2022q3", table: mirror + "1067983/000095012322012275/18337.xml", cover: mirror + "1067983/000095012322012275/primary_doc.xml",
		rows: 179, sum: 296096640, check: func(t *testing.T, rows []Row) {
			// Wrong check digit as filed; must be accepted unchanged.
			if n := count(rows, func(r Row) bool { return r.NameOfIssuer == "NU HLDGS LTD" && r.CUSIP == "G6693N103" }); n == 0 {
				t.Errorf("no NU HLDGS LTD row with CUSIP G6693N103")
			}
		}},
	{name: "berkshire-2022q4", table: mirror + "1067983/000095012323002585/20651.xml", cover: mirror + "1067983/000095012323002585/primary_doc.xml",
		rows: 172, sum: 299007622119, check: func(t *testing.T, rows []Row) {
			var got []Row
			for _, r := range rows {
				if r.CUSIP == "037833100" && r.Shares == 1025856 {
					got = append(got, r)
				}
			}
			want := []Row{{NameOfIssuer: "APPLE INC", TitleOfClass: "COM", CUSIP: "037833100", Value: 133289470, Shares: 1025856,
				ShPrn: "SH", InvestmentDiscretion: "DFND", OtherManager: "4", VotingSole: 692000}}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("APPLE 1025856 sh rows (-want +got):\n%s", diff)
			}
		}},
	{name: "berkshire-2023q3", table: mirror + "1067983/000095012323010898/infotable.xml", cover: mirror + "1067983/000095012323010898/primary_doc.xml",
		rows: 152, sum: 313257308189, check: func(t *testing.T, rows []Row) {
			if n := count(rows, func(r Row) bool { return r.OtherManager != "" }); n != 0 {
				t.Errorf("%d rows with OtherManager, want 0", n)
			}
		}},
	{name: "berkshire-2023q3-restatement", table: mirror + "1067983/000095012323011029/28498.xml", cover: mirror + "1067983/000095012323011029/primary_doc.xml",
		rows: 152, sum: 313257308189},
	{name: "berkshire-2023q3-new-holdings", table: mirror + "1067983/000095012324005653/infotable.xml", cover: mirror + "1067983/000095012324005653/primary_doc.xml",
		rows: 1, sum: 1695320075, check: func(t *testing.T, rows []Row) {
			want := []Row{{NameOfIssuer: "CHUBB LIMITED", TitleOfClass: "COM", CUSIP: "H1467J104", Value: 1695320075, Shares: 8143530,
				ShPrn: "SH", InvestmentDiscretion: "DFND", OtherManager: "4,11", VotingSole: 8143530}}
			if diff := cmp.Diff(want, rows); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
		}},
	{name: "berkshire-2023q4", table: mirror + "1067983/000095012324002518/infotable.xml", cover: mirror + "1067983/000095012324002518/primary_doc.xml",
		rows: 138, sum: 347358074461},
	{name: "berkshire-2023q4-new-holdings", table: mirror + "1067983/000095012324005664/32498.xml", cover: mirror + "1067983/000095012324005664/primary_doc.xml",
		rows: 1, sum: 4542600000, check: func(t *testing.T, rows []Row) {
			want := []Row{{NameOfIssuer: "CHUBB LIMITED", TitleOfClass: "COM", CUSIP: "H1467J104", Value: 4542600000, Shares: 20100000,
				ShPrn: "SH", InvestmentDiscretion: "DFND", OtherManager: "4,11", VotingSole: 20100000}}
			if diff := cmp.Diff(want, rows); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
		}},
	{name: "soros", table: mirror + "1029160/000090266426003507/infotable.xml", cover: mirror + "1029160/000090266426003507/primary_doc.xml",
		rows: 266, sum: 8143628824, check: func(t *testing.T, rows []Row) {
			got := [3]int{
				count(rows, func(r Row) bool { return r.PutCall == "PUT" }),
				count(rows, func(r Row) bool { return r.PutCall == "CALL" }),
				count(rows, func(r Row) bool { return r.ShPrn == "PRN" }),
			}
			if want := [3]int{6, 6, 16}; got != want {
				t.Errorf("PUT, CALL, PRN rows = %v, want %v", got, want)
			}
		}},
	{name: "bard-ns1", table: documents + "bard-2021q3-ns1-infotable.xml", cover: documents + "bard-2021q3-com-cover.xml",
		rows: 278, sum: 1129298, check: func(t *testing.T, rows []Row) {
			if n := count(rows, func(r Row) bool { return r.OtherManager == "0" }); n != len(rows) {
				t.Errorf("%d rows with OtherManager \"0\", want all %d", n, len(rows))
			}
		}},
	{name: "leading-newline", table: documents + "leading-newline-infotable.xml", rows: 255, sum: 350153407},
	{name: "sec-sample-figi", table: documents + "sec-sample-infotable-figi.xml", rows: 169, sum: 7454702899, check: func(t *testing.T, rows []Row) {
		var got []string
		for _, r := range rows {
			if r.FIGI != "" {
				got = append(got, r.CUSIP+" "+r.FIGI)
			}
		}
		want := []string{"02079K107 02079K107743", "00724F101 02079K101453", "01609W102 02079K102653"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("rows with FIGI (-want +got):\n%s", diff)
		}
	}},
	{name: "lts-one-index-xml", table: mirror + "1894188/000189418823000007/0001894188-23-000007.txt", rows: 14, sum: 454926000},
	{name: "actiam", table: mirror + "1619124/000161912421000002/0001619124-21-000002.txt", rows: 5, sum: 732158},
	{name: "bull-street", table: mirror + "1790837/000179083723000002/0001790837-23-000002.txt", rows: 90, sum: 192767, check: func(t *testing.T, rows []Row) {
		if n := count(rows, func(r Row) bool { return r.CUSIP == "78462f103" }); n != 1 {
			t.Errorf("%d rows with CUSIP 78462f103 (lower case, as filed), want 1", n)
		}
	}},
	{name: "metlife", table: mirror + "1099219/000114036123013281/0001140361-23-013281.txt", rows: 6, sum: 11019796, check: func(t *testing.T, rows []Row) {
		if n := count(rows, func(r Row) bool { return r.InvestmentDiscretion == "DFND" }); n != 6 {
			t.Errorf("%d DFND rows, want 6", n)
		}
	}},
	// Dissemination-feed copy with CR-only line breaks.
	{name: "acorn-creek-nc", table: documents + "acorn-creek-13f-hr-2024q4-0001951757-25-000093.nc", rows: 77, sum: 194611845},
}

func count(rows []Row, f func(Row) bool) int {
	n := 0
	for _, r := range rows {
		if f(r) {
			n++
		}
	}
	return n
}

var xmlBlock = regexp.MustCompile(`(?s)<XML>(.*?)</XML>`)

// load returns the table bytes of tt and its cover bytes (nil when none).
func (tt realTable) load(t testing.TB) (table, cover []byte) {
	t.Helper()
	data, err := os.ReadFile(tt.table)
	if err != nil {
		t.Fatal(err)
	}
	if ext := filepath.Ext(tt.table); ext == ".txt" || ext == ".nc" {
		blocks := xmlBlock.FindAllSubmatch(data, -1)
		if len(blocks) != 2 {
			t.Fatalf("%s: %d <XML> blocks, want 2", tt.table, len(blocks))
		}
		return blocks[1][1], blocks[0][1]
	}
	if tt.cover == "" {
		return data, nil
	}
	cover, err = os.ReadFile(tt.cover)
	if err != nil {
		t.Fatal(err)
	}
	return data, cover
}

var (
	entryTotal = regexp.MustCompile(`<(?:\w+:)?tableEntryTotal>\s*(\d+)\s*<`)
	valueTotal = regexp.MustCompile(`<(?:\w+:)?tableValueTotal>\s*(\d+)\s*<`)
)

func coverTotal(t *testing.T, re *regexp.Regexp, cover []byte) int64 {
	t.Helper()
	m := re.FindSubmatch(cover)
	if m == nil {
		t.Fatalf("cover has no match for %s", re)
	}
	n, err := strconv.ParseInt(string(m[1]), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestParseRealTables(t *testing.T) {
	for _, tt := range realTables {
		t.Run(tt.name, func(t *testing.T) {
			table, cover := tt.load(t)
			rows, err := Parse(table, nil)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			var sum int64
			for _, r := range rows {
				sum += r.Value
			}
			if len(rows) != tt.rows || sum != tt.sum {
				t.Errorf("rows, value sum = %d, %d; want %d, %d", len(rows), sum, tt.rows, tt.sum)
			}
			if cover != nil {
				if n, v := coverTotal(t, entryTotal, cover), coverTotal(t, valueTotal, cover); int64(len(rows)) != n || sum != v {
					t.Errorf("rows, value sum = %d, %d; cover tableEntryTotal, tableValueTotal = %d, %d", len(rows), sum, n, v)
				}
			}
			for i, r := range rows {
				if r.NameOfIssuer == "" || len(r.CUSIP) != 9 || (r.ShPrn != "SH" && r.ShPrn != "PRN") {
					t.Errorf("row %d implausible: %+v", i+1, r)
				}
			}
			if tt.check != nil {
				tt.check(t, rows)
			}
		})
	}
}

// TestParseRealKeep drops rows of a real table and checks that exactly the
// others remain, in order.
func TestParseRealKeep(t *testing.T) {
	table, _ := realTables[1].load(t)
	all, err := Parse(table, nil)
	if err != nil {
		t.Fatal(err)
	}
	drop := func(r *Row) bool { return r.CUSIP == "037833100" }
	var want []Row
	for _, r := range all {
		if !drop(&r) {
			want = append(want, r)
		}
	}
	got, err := Parse(table, func(r *Row) bool { return !drop(r) })
	if err != nil {
		t.Fatal(err)
	}
	if len(want) == len(all) {
		t.Fatal("test drops no rows")
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("kept rows (-want +got):\n%s", diff)
	}
}
