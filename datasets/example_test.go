package datasets_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/datasets"
	"github.com/edgar13f/edgar13f/mirror"
)

// mirrorStore returns the Form 13F Data Sets of a Client reading the
// recorded EDGAR mirror in testdata, whose windows are generated from the
// mirror's filings. The store lives under the Client's cache directory, a
// temporary one here; done removes it.
func mirrorStore() (d *datasets.Store, done func()) {
	tree, err := mirror.Dir("../testdata/mirror")
	if err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "edgar13f-example")
	if err != nil {
		log.Fatal(err)
	}
	c, err := edgar13f.NewClient(
		edgar13f.WithFetcher(mirror.NewFetcher(tree)),
		edgar13f.WithCacheDir(dir),
	)
	if err != nil {
		log.Fatal(err)
	}
	d, err = datasets.Open(c)
	if err != nil {
		log.Fatal(err)
	}
	return d, func() { os.RemoveAll(dir) }
}

// Sync imports the windows covering a range of filing dates, each a zip of
// every 13F filing of those dates; a second Sync of the same range fetches
// nothing.
func ExampleStore_Sync() {
	d, done := mirrorStore()
	defer done()
	ctx := context.Background()
	res, err := d.Sync(ctx, edgar13f.MustParseDate("2023-10-01"), edgar13f.MustParseDate("2024-05-31"))
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range res {
		fmt.Printf("%s: filings %s to %s, %d filings, %d rows\n", r.Window.Name, r.Window.From, r.Window.To, r.Filings, r.Rows)
	}
	again, err := d.Sync(ctx, edgar13f.MustParseDate("2023-10-01"), edgar13f.MustParseDate("2024-05-31"))
	fmt.Println("imported again:", len(again), err)
	// Output:
	// 2023q4: filings 2023-10-01 to 2023-12-31, 4 filings, 314 rows
	// 01jan2024-29feb2024: filings 2024-01-01 to 2024-02-29, 2 filings, 136 rows
	// 01mar2024-31may2024: filings 2024-03-01 to 2024-05-31, 4 filings, 2 rows
	// imported again: 0 <nil>
}

// Every manager holding Apple (CUSIP 037833100) at the end of 2023Q3, as
// the Data Sets show it on two dates: on 2023-11-15 Berkshire Hathaway's
// original report, from the next day on the restatement that replaced it.
// SyncFor imports what the question needs first.
func ExampleStore_Holders() {
	d, done := mirrorStore()
	defer done()
	ctx := context.Background()
	period := edgar13f.MustParseDate("2023-09-30")
	for _, asOf := range []string{"2023-11-15", "2024-05-15"} {
		asOf := edgar13f.MustParseDate(asOf)
		if _, err := d.SyncFor(ctx, period, asOf); err != nil {
			log.Fatal(err)
		}
		l, err := d.Holders(ctx, "037833100", period, asOf, datasets.Limit(3))
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("as of %s: %d holders, data through %s\n", asOf, l.TotalHolders, l.DataThrough)
		for _, h := range l.Holders {
			fmt.Printf("  %s %s: %d shares, $%d (base %s %s, %d rows)\n", h.CIK, h.ManagerName, h.Shares, h.ValueUSD, h.Base.Accession, h.Base.Form, len(h.Holdings))
		}
	}
	// Output:
	// as of 2023-11-15: 1 holders, data through 2023-12-31
	//   1067983 Berkshire Hathaway Inc: 915560382 shares, $156753093002 (base 0000950123-23-010898 13F-HR, 12 rows)
	// as of 2024-05-15: 1 holders, data through 2024-05-31
	//   1067983 Berkshire Hathaway Inc: 915560382 shares, $156753093002 (base 0000950123-23-011029 13F-HR/A, 12 rows)
}

// Panel streams every manager's effective holdings for a period, one row
// at a time; here counted per manager.
func ExampleStore_Panel() {
	d, done := mirrorStore()
	defer done()
	ctx := context.Background()
	period, asOf := edgar13f.MustParseDate("2023-09-30"), edgar13f.MustParseDate("2024-05-15")
	if _, err := d.SyncFor(ctx, period, asOf); err != nil {
		log.Fatal(err)
	}
	type manager struct {
		name, base string
		rows       int
		usd        int64
	}
	var ciks []string
	managers := map[string]*manager{}
	for r, err := range d.Panel(ctx, period, asOf) {
		if err != nil {
			log.Fatal(err)
		}
		m := managers[r.CIK]
		if m == nil {
			m = &manager{name: r.ManagerName, base: r.Base}
			managers[r.CIK] = m
			ciks = append(ciks, r.CIK)
		}
		m.rows++
		m.usd += r.ValueUSD
	}
	for _, cik := range ciks {
		m := managers[cik]
		fmt.Printf("%s %s: base %s, %d rows, $%d\n", cik, m.name, m.base, m.rows, m.usd)
	}
	// Output:
	// 1067983 Berkshire Hathaway Inc: base 0000950123-23-011029, 151 rows, $314918899452
	// 1894188 LTS One Management LP: base 0001894188-23-000007, 14 rows, $454926000
}
