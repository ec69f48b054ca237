package datasets_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/datasets"
	"github.com/edgar13f/edgar13f/mirror"
)

// A question whose filings precede the imported Form 13F Data Sets is not
// answered from part of them: the CoverageError names the span and what
// to import. SyncFor imports it, saying first which windows it fetches.
func ExampleCoverageError() {
	ctx := context.Background()
	tree, err := mirror.Dir("../testdata/mirror")
	if err != nil {
		log.Fatal(err)
	}
	cache, err := os.MkdirTemp("", "edgar13f-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(cache)
	c, err := edgar13f.NewClient(edgar13f.WithFetcher(mirror.NewFetcher(tree)), edgar13f.WithCacheDir(cache))
	if err != nil {
		log.Fatal(err)
	}
	d, err := datasets.Open(c)
	if err != nil {
		log.Fatal(err)
	}
	// Only the windows of filings from 2023-07-01 are imported.
	if _, err := d.Sync(ctx, edgar13f.MustParseDate("2023-07-01"), edgar13f.MustParseDate("2024-05-31")); err != nil {
		log.Fatal(err)
	}
	period, asOf := edgar13f.MustParseDate("2022-12-31"), edgar13f.MustParseDate("2023-03-01")
	_, err = d.Holders(ctx, "037833100", period, asOf)
	var ce *datasets.CoverageError
	if errors.As(err, &ce) {
		fmt.Printf("rests on filings from %s; imported from %s through %s\n", ce.From, ce.DataFrom, ce.DataThrough)
	}
	plan := datasets.ConfirmImport(func(ws []datasets.Window) error {
		for _, w := range ws {
			fmt.Println("importing", w.Name)
		}
		return nil // an error here would stop the import before any fetch
	})
	if _, err := d.SyncFor(ctx, period, asOf, plan); err != nil {
		log.Fatal(err)
	}
	hl, err := d.Holders(ctx, "037833100", period, asOf)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("data from %s through %s, complete %v\n", hl.DataFrom, hl.DataThrough, hl.Complete)
	for _, h := range hl.Holders {
		fmt.Println(h.CIK, h.ManagerName, h.Base.Accession, h.Base.FilingDate)
	}
	// Output:
	// rests on filings from 2023-01-01; imported from 2023-07-01 through 2024-05-31
	// importing 2023q1
	// importing 2023q2
	// data from 2023-01-01 through 2024-05-31, complete true
	// 1067983 Berkshire Hathaway Inc 0000950123-23-002585 2023-02-14
	// 1790837 Bull Street Advisors, LLC 0001790837-23-000002 2023-02-28
}
