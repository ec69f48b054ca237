package edgar13f_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/mirror"
)

// FindManager resolves a name to CIKs. Names are EDGAR's current names, not
// as of the FiledBy date; only Has13F is point in time.
func ExampleClient_FindManager() {
	tree, err := mirror.Dir("testdata/mirror")
	if err != nil {
		log.Fatal(err)
	}
	c, err := edgar13f.NewClient(
		edgar13f.WithFetcher(mirror.NewFetcher(tree)),
		edgar13f.WithCache(nil), // keep the example from writing a cache
		edgar13f.WithClock(fixedClock(time.Date(2026, time.December, 1, 12, 0, 0, 0, time.UTC))),
	)
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	for _, asOf := range []string{"2025-05-14", "2025-05-15"} {
		ms, err := c.FindManager(ctx, "fresh start", edgar13f.FiledBy(edgar13f.MustParseDate(asOf)))
		if err != nil {
			log.Fatal(err)
		}
		for _, m := range ms {
			fmt.Printf("%s: %s %s 13F filer: %v\n", asOf, m.CIK, m.Name, m.Has13F)
		}
	}
	ms, err := c.FindManager(ctx, "berkshire", edgar13f.Limit(3))
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range ms {
		fmt.Printf("%-8s %-31s %v\n", m.CIK, m.Name, m.Has13F)
	}
	// Output:
	// 2025-05-14: 9000003 FRESH START ADVISORS LP 13F filer: false
	// 2025-05-15: 9000003 FRESH START ADVISORS LP 13F filer: true
	// 9000015  BERKSHIRE CAPITAL HOLDINGS INC  true
	// 1067983  BERKSHIRE HATHAWAY INC          true
	// 9000011  BERKSHIRE HILLS BANCORP INC     false
}

// fixedClock is a Clock stopped at one instant: a Client's cache freshness
// then never depends on the day the example runs.
type fixedClock time.Time

// Now returns the instant.
func (c fixedClock) Now() time.Time { return time.Time(c) }
