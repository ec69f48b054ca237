package amend

import (
	"slices"
	"testing"
	"time"

	"github.com/edgar13f/edgar13f/internal/civil"
)

func day(y int, m time.Month, d int) civil.Day { return civil.DayOf(y, m, d) }

// TestPagesNeeded: the rule asks first for the unread pages whose range
// meets [from, asOf], then, only while no 13F filed by asOf is known, for
// every unread page starting by asOf; a page of unknown range is read.
func TestPagesNeeded(t *testing.T) {
	pages := []Page{
		{From: day(2014, 1, 1), To: day(2014, 12, 31)}, // 0: meets [2014-03-31, 2015-01-01]
		{From: day(2012, 1, 1), To: day(2013, 12, 31)}, // 1: before the period
		{From: day(2016, 1, 1), To: day(2016, 12, 31)}, // 2: after asOf
		{From: NoDay, To: NoDay},                       // 3: range unknown
	}
	from, asOf := day(2014, 3, 31), day(2015, 1, 1)
	known := []Listed{{Accession: "a", Form: "13F-NT", FilingDate: day(2013, 5, 1), Period: day(2013, 3, 31)}}
	cases := []struct {
		name    string
		filings []Listed
		read    []int
		from    civil.Day
		want    []int
	}{
		{"range first", nil, nil, from, []int{0, 3}},
		{"then every page by asOf for an unknown filer", nil, []int{0, 3}, from, []int{1}},
		{"a known filer needs no more", known, []int{0, 3}, from, nil},
		{"a filing after asOf does not make a filer known", []Listed{{Accession: "b", Form: "13F-HR", FilingDate: day(2015, 1, 2)}}, []int{0, 3}, from, []int{1}},
		{"all read", nil, []int{0, 1, 3}, from, nil},
		{"no from: every page by asOf", known, nil, NoDay, []int{0, 1, 3}},
	}
	// A page ending on from holds filings of from: it meets the range.
	edge := []Page{{From: day(2014, 1, 1), To: from}}
	if got := PagesNeeded(known, edge, from, asOf); !slices.Equal(got, []int{0}) {
		t.Errorf("page ending on from: PagesNeeded = %v, want [0]", got)
	}
	for _, c := range cases {
		ps := slices.Clone(pages)
		for _, i := range c.read {
			ps[i].Read = true
		}
		if got := PagesNeeded(c.filings, ps, c.from, asOf); !slices.Equal(got, c.want) {
			t.Errorf("%s: PagesNeeded = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestDecideAsksPagesBeforeCovers: pages the period needs come before any
// cover, and once read the rule goes on to covers.
func TestDecideAsksPagesBeforeCovers(t *testing.T) {
	period, asOf := day(2014, 3, 31), day(2015, 1, 1)
	hr := Listed{Accession: "0000000001-14-000001", Form: "13F-HR", FilingDate: day(2014, 5, 15), Period: period}
	pages := []Page{{From: day(2014, 1, 1), To: day(2014, 12, 31)}}
	if d := Decide(nil, pages, period, asOf, nil); !slices.Equal(d.NeedPages, []int{0}) || d.Need != nil || d.Decline != nil {
		t.Fatalf("before the page: %+v", d)
	}
	pages[0].Read = true
	d := Decide([]Listed{hr}, pages, period, asOf, nil)
	if d.NeedPages != nil || len(d.Need) != 1 || d.Need[0] != hr {
		t.Fatalf("after the page: %+v", d)
	}
	d = Decide([]Listed{hr}, pages, period, asOf, map[string]Cover{hr.Accession: {Period: period, Kind: Original}})
	if d.Decline != nil || d.Resolution.Base.Accession != hr.Accession {
		t.Fatalf("with the cover: %+v", d)
	}
	if d := Decide(nil, pages, period, asOf, nil); d.Decline == nil || d.Decline.Reason != UnknownCIK {
		t.Fatalf("every page read, no 13F: %+v", d)
	}
}
