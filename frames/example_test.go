package frames_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/frames"
	"github.com/edgar13f/edgar13f/mirror"
)

// mirrorFrames returns the frames store of a Client reading the recorded
// EDGAR mirror in testdata, whose companyfacts.zip holds the real company
// facts of Apple, NVIDIA, Snowflake and Logistic Properties of the
// Americas. The store lives under the Client's cache directory, a
// temporary one here; done removes it.
func mirrorFrames() (s *frames.Store, done func()) {
	tree, err := mirror.Dir("../testdata/mirror")
	if err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "edgar13f-example")
	if err != nil {
		log.Fatal(err)
	}
	c, err := edgar13f.NewClient(edgar13f.WithFetcher(mirror.NewFetcher(tree)), edgar13f.WithCacheDir(dir))
	if err != nil {
		log.Fatal(err)
	}
	s, err = frames.Open(c)
	if err != nil {
		log.Fatal(err)
	}
	return s, func() { os.RemoveAll(dir) }
}

// Every company's net income for calendar 2009, as known on two dates:
// Apple's fiscal 2009 (ended 2009-09-26) was restated by a 10-K/A of
// 2010-01-25, which the frame of 2010-02-01 gives, and the frame of
// 2009-12-01 cannot.
func Example() {
	s, done := mirrorFrames()
	defer done()
	ctx := context.Background()
	r, err := s.Sync(ctx) // EDGAR's companyfacts.zip: about 1.3 GB
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("imported %d companies, %d facts, filed through %s\n", r.Companies, r.Facts, r.DataThrough)
	for _, asOf := range []string{"2009-12-01", "2010-02-01"} {
		f, err := s.Frame(ctx, "net_income", "CY2009", edgar13f.MustParseDate(asOf))
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("as of %s (%s, %d companies):\n", f.AsOf, f.Unit, f.TotalCompanies)
		for _, c := range f.Companies {
			fmt.Printf("  %s %s %s..%s %s (%s %s filed %s) first reported %s restated %v\n", c.CIK, c.EntityName,
				c.PeriodStart, c.PeriodEnd, c.Value, c.Form, c.Accession, c.Filed, c.FirstReportedValue, c.Restated)
		}
	}
	// Output:
	// imported 4 companies, 55785 facts, filed through 2025-05-30
	// as of 2009-12-01 (USD, 1 companies):
	//   0000320193 Apple Inc. 2008-09-28..2009-09-26 5704000000 (10-K 0001193125-09-214859 filed 2009-10-27) first reported 5704000000 restated false
	// as of 2010-02-01 (USD, 1 companies):
	//   0000320193 Apple Inc. 2008-09-28..2009-09-26 8235000000 (10-K/A 0001193125-10-012091 filed 2010-01-25) first reported 5704000000 restated true
}

// A panel of several periods, streamed to CSV.
func ExampleWriteCSV() {
	s, done := mirrorFrames()
	defer done()
	ctx := context.Background()
	if _, err := s.Sync(ctx); err != nil {
		log.Fatal(err)
	}
	rows := s.Panel(ctx, "revenue", []string{"CY2023Q2", "CY2023Q3"}, edgar13f.MustParseDate("2024-03-01"))
	if _, err := frames.WriteCSV(os.Stdout, rows); err != nil {
		log.Fatal(err)
	}
	// Output:
	// concept,period,unit,as_of,cik,entity_name,tag,period_start,period_end,value,value_text,accession_number,form,filed,first_reported_value,first_reported_accession,first_reported_filed,restated
	// revenue,CY2023Q2,USD,2024-03-01,0000320193,Apple Inc.,us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax,2023-04-02,2023-07-01,81797000000,81797000000,0000320193-23-000077,10-Q,2023-08-04,81797000000,0000320193-23-000077,2023-08-04,false
	// revenue,CY2023Q2,USD,2024-03-01,0001045810,NVIDIA CORP,us-gaap:Revenues,2023-05-01,2023-07-30,13507000000,13507000000,0001045810-23-000175,10-Q,2023-08-28,13507000000,0001045810-23-000175,2023-08-28,false
	// revenue,CY2023Q2,USD,2024-03-01,0001640147,SNOWFLAKE INC.,us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax,2023-05-01,2023-07-31,674018000,674018000,0001640147-23-000199,10-Q,2023-08-31,674018000,0001640147-23-000199,2023-08-31,false
	// revenue,CY2023Q3,USD,2024-03-01,0001045810,NVIDIA CORP,us-gaap:Revenues,2023-07-31,2023-10-29,18120000000,18120000000,0001045810-23-000227,10-Q,2023-11-21,18120000000,0001045810-23-000227,2023-11-21,false
	// revenue,CY2023Q3,USD,2024-03-01,0001640147,SNOWFLAKE INC.,us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax,2023-08-01,2023-10-31,734173000,734173000,0001640147-23-000260,10-Q,2023-12-01,734173000,0001640147-23-000260,2023-12-01,false
}
