package edgar13f_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/mirror"
)

// Each example builds its own Client, although they build it alike: the
// documentation shows an example's body alone, and a reader should be able
// to copy it whole.

// This example runs offline against the recorded EDGAR mirror in testdata:
// Berkshire Hathaway's 13F holdings for the third quarter of 2023, as EDGAR
// showed them on 2024-06-01.
func Example() {
	tree, err := mirror.Dir("testdata/mirror")
	if err != nil {
		log.Fatal(err)
	}
	c, err := edgar13f.NewClient(
		edgar13f.WithFetcher(mirror.NewFetcher(tree)),
		edgar13f.WithCache(nil), // keep the example from writing a cache
	)
	if err != nil {
		log.Fatal(err)
	}
	snap, err := c.Holdings(context.Background(), "1067983",
		edgar13f.MustParseDate("2023-09-30"), edgar13f.MustParseDate("2024-06-01"),
		edgar13f.Issuer("chubb"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("base:", snap.Base.Accession, snap.Base.Form, snap.Base.FilingDate)
	for _, s := range snap.Sources {
		fmt.Println("source:", s.Accession, s.FilingDate)
	}
	for _, h := range snap.Holdings {
		fmt.Printf("%s %s %d shares $%d (from %s)\n", h.NameOfIssuer, h.CUSIP, h.SharesOrPrincipal, h.Value, h.Accession)
	}
	// Output:
	// base: 0000950123-23-011029 13F-HR/A 2023-11-16
	// source: 0000950123-23-011029 2023-11-16
	// source: 0000950123-24-005653 2024-05-15
	// CHUBB LIMITED H1467J104 8143530 shares $1695320075 (from 0000950123-24-005653)
}

// The same manager and period asked on four dates: nothing yet, the
// original, the restatement that replaced it two days later, and the
// restatement plus a new-holdings amendment filed months after.
func ExampleClient_Holdings_asOf() {
	tree, err := mirror.Dir("testdata/mirror")
	if err != nil {
		log.Fatal(err)
	}
	c, err := edgar13f.NewClient(edgar13f.WithFetcher(mirror.NewFetcher(tree)), edgar13f.WithCache(nil))
	if err != nil {
		log.Fatal(err)
	}
	q3 := edgar13f.MustParseDate("2023-09-30")
	for _, asOf := range []string{"2023-11-13", "2023-11-14", "2023-11-16", "2024-05-15"} {
		snap, err := c.Holdings(context.Background(), "1067983", q3, edgar13f.MustParseDate(asOf))
		var d *edgar13f.DeclineError
		switch {
		case errors.As(err, &d):
			fmt.Printf("%s: declined: %s\n", asOf, d.Reason)
		case err != nil:
			log.Fatal(err)
		default:
			fmt.Printf("%s: base=%s sources=%d rows=%d\n", asOf, snap.Base.Accession, len(snap.Sources), len(snap.Holdings))
		}
	}
	// Output:
	// 2023-11-13: declined: not_yet_filed
	// 2023-11-14: base=0000950123-23-010898 sources=1 rows=150
	// 2023-11-16: base=0000950123-23-011029 sources=1 rows=150
	// 2024-05-15: base=0000950123-23-011029 sources=2 rows=151
}

// The largest positions of a filing with options and convertible notes.
func ExampleClient_Holdings_limit() {
	tree, err := mirror.Dir("testdata/mirror")
	if err != nil {
		log.Fatal(err)
	}
	c, err := edgar13f.NewClient(edgar13f.WithFetcher(mirror.NewFetcher(tree)), edgar13f.WithCache(nil))
	if err != nil {
		log.Fatal(err)
	}
	snap, err := c.Holdings(context.Background(), "1029160",
		edgar13f.MustParseDate("2026-06-30"), edgar13f.MustParseDate("2026-09-01"),
		edgar13f.Limit(3))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d of %d positions (truncated=%v, order=%s)\n", len(snap.Holdings), snap.TotalPositions, snap.Truncated, snap.Order)
	for _, h := range snap.Holdings {
		fmt.Printf("%-30s %-5s %-4s %3s %d\n", h.NameOfIssuer, h.PutCall, h.ShPrn, h.InvestmentDiscretion, h.Value)
	}
	// Output:
	// 3 of 263 positions (truncated=true, order=value_desc)
	// AMAZON COM INC                       SH   SOLE 281843962
	// TAIWAN SEMICONDUCTOR MANUFAC         SH   SOLE 249366996
	// GLOBAL PMTS INC                      PRN  SOLE 222694485
}

// Every 13F filing EDGAR showed for a period on a date, with the facts from
// each cover page.
func ExampleClient_Filings() {
	tree, err := mirror.Dir("testdata/mirror")
	if err != nil {
		log.Fatal(err)
	}
	c, err := edgar13f.NewClient(edgar13f.WithFetcher(mirror.NewFetcher(tree)), edgar13f.WithCache(nil))
	if err != nil {
		log.Fatal(err)
	}
	list, err := c.Filings(context.Background(), "1067983", edgar13f.MustParseDate("2024-12-31"), edgar13f.ForPeriod(edgar13f.MustParseDate("2023-09-30")))
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range list.Filings {
		fmt.Printf("%s %-8s filed %s amendment %d %q\n", f.Accession, f.Form, f.FilingDate, f.AmendmentNo, f.AmendmentType)
	}
	// Output:
	// 0000950123-24-005653 13F-HR/A filed 2024-05-15 amendment 2 "NEW HOLDINGS"
	// 0000950123-23-011029 13F-HR/A filed 2023-11-16 amendment 1 "RESTATEMENT"
	// 0000950123-23-010898 13F-HR   filed 2023-11-14 amendment 0 ""
}

// What changed between two quarters, largest value changes first.
func ExampleClient_Diff() {
	tree, err := mirror.Dir("testdata/mirror")
	if err != nil {
		log.Fatal(err)
	}
	c, err := edgar13f.NewClient(edgar13f.WithFetcher(mirror.NewFetcher(tree)), edgar13f.WithCache(nil))
	if err != nil {
		log.Fatal(err)
	}
	cmp, err := c.Diff(context.Background(), "1067983",
		edgar13f.MustParseDate("2023-09-30"), edgar13f.MustParseDate("2023-12-31"), edgar13f.MustParseDate("2024-06-01"),
		edgar13f.Limit(4))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("A:", cmp.BaseA.Accession, "B:", cmp.BaseB.Accession)
	for _, ch := range cmp.Changes {
		fmt.Printf("%-9s %-24s shares %+d value %+d\n", ch.Type, ch.NameOfIssuer, ch.SharesDelta, ch.ValueDelta)
	}
	// Output:
	// A: 0000950123-23-011029 B: 0000950123-24-002518
	// decreased APPLE INC                shares -10000382 value +17594373798
	// unchanged BANK AMER CORP           shares +0 value +6496639118
	// unchanged AMERICAN EXPRESS CO      shares +0 value +5783948204
	// increased CHUBB LIMITED            shares +11956470 value +2847279925
}

// Declines are errors you can branch on: errors.Is with a Reason, or
// errors.As for the reason and message.
func ExampleDeclineError() {
	tree, err := mirror.Dir("testdata/mirror")
	if err != nil {
		log.Fatal(err)
	}
	c, err := edgar13f.NewClient(edgar13f.WithFetcher(mirror.NewFetcher(tree)), edgar13f.WithCache(nil))
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	// Warren Buffett files only notices: Berkshire reports his holdings.
	_, err = c.Holdings(ctx, "315090", edgar13f.MustParseDate("2024-12-31"), edgar13f.MustParseDate("2025-03-01"))
	fmt.Println(errors.Is(err, edgar13f.NoticeOnly))
	var d *edgar13f.DeclineError
	if errors.As(err, &d) {
		fmt.Println(d.Reason)
	}
	_, err = c.Holdings(ctx, "1067983", edgar13f.MustParseDate("2023-09-29"), edgar13f.MustParseDate("2025-03-01"))
	fmt.Println(err)
	// Output:
	// true
	// notice_only
	// edgar13f: invalid_period: period 2023-09-29 is not a calendar quarter end (03-31, 06-30, 09-30 or 12-31)
}

// Values are as filed: thousands of dollars before 2023-01-03, dollars
// since. ValueUSD converts by the filing date of the row's filing.
func ExampleHolding_valueUSD() {
	tree, err := mirror.Dir("testdata/mirror")
	if err != nil {
		log.Fatal(err)
	}
	c, err := edgar13f.NewClient(edgar13f.WithFetcher(mirror.NewFetcher(tree)), edgar13f.WithCache(nil))
	if err != nil {
		log.Fatal(err)
	}
	asOf := edgar13f.MustParseDate("2023-06-01")
	for _, period := range []string{"2022-09-30", "2022-12-31"} {
		snap, err := c.Holdings(context.Background(), "1067983", edgar13f.MustParseDate(period), asOf, edgar13f.CUSIPs("037833100"))
		if err != nil {
			log.Fatal(err)
		}
		h := snap.Holdings[0]
		fmt.Printf("%s filed %s: value %d as filed, $%d\n", period, h.FilingDate, h.Value, h.ValueUSD)
	}
	// Output:
	// 2022-09-30 filed 2022-11-14: value 95634 as filed, $95634000
	// 2022-12-31 filed 2023-02-14: value 133289470 as filed, $133289470
}

// A production client: identify yourself to SEC and keep the cache where
// your service keeps its state.
func ExampleNewClient() {
	c, err := edgar13f.NewClient(
		edgar13f.WithUserAgent("Jane Quant jane@example.com"),
		edgar13f.WithCacheDir("/var/cache/edgar13f"),
		edgar13f.WithRequestInterval(500*time.Millisecond),
		edgar13f.WithRetryPolicy(edgar13f.RetryPolicy{MaxAttempts: 10, MaxDelay: 5 * time.Minute}),
	)
	if err != nil {
		log.Fatal(err)
	}
	_ = c
}
