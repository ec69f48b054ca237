package companies_test

import (
	"context"
	"testing"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/companies"
	"github.com/edgar13f/edgar13f/internal/edgartest"
	"github.com/edgar13f/edgar13f/mirror"
)

// BenchmarkCompanyFactsWarm: a facts answer once the company facts are in
// the Client (the common case of a backtest asking date after date).
func BenchmarkCompanyFactsWarm(b *testing.B) {
	c, _ := edgartest.MirrorClient(b)
	cs := companies.New(c)
	ctx := context.Background()
	if _, err := cs.Facts(ctx, appleCIK, "revenue", date("2024-12-01")); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := cs.Facts(ctx, appleCIK, "revenue", date("2024-12-01"), companies.Years(10)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompanyFactsFromCache: a facts answer from the compact cached
// form, as a new process sharing the cache reads it.
func BenchmarkCompanyFactsFromCache(b *testing.B) {
	cache := edgartest.NewMemCache()
	named := edgar13f.WithFetcher(&edgartest.CountingFetcher{Next: mirror.NewFetcher(edgartest.MirrorFS(b)), Name: "bench-mirror"}) // one source: the cache answers
	c, _ := edgartest.MirrorClient(b, edgar13f.WithCache(cache), named)
	ctx := context.Background()
	if _, err := companies.New(c).Facts(ctx, appleCIK, "revenue", date("2024-12-01")); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		c, _ := edgartest.MirrorClient(b, edgar13f.WithCache(cache), named)
		if _, err := companies.New(c).Facts(ctx, appleCIK, "revenue", date("2024-12-01")); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompanySectionFromCache: a section of Apple's 1.5 MB 10-K from
// the cached document (parsed afresh each time).
func BenchmarkCompanySectionFromCache(b *testing.B) {
	c, _ := edgartest.MirrorClient(b)
	cs := companies.New(c)
	ctx := context.Background()
	if _, err := cs.Section(ctx, appleCIK, apple10K2024, "1A", date("2024-12-01")); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := cs.Section(ctx, appleCIK, apple10K2024, "7", date("2024-12-01")); err != nil {
			b.Fatal(err)
		}
	}
}
