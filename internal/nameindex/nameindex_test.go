package nameindex

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/edgar13f/edgar13f/internal/ciklookup"
	"github.com/edgar13f/edgar13f/internal/civil"
	"github.com/edgar13f/edgar13f/internal/fold"
)

// TestSearchAsOf checks Has13F on each side of a CIK's first 13F day, for
// the built index and for the same index encoded and decoded, and that a
// CIK without 13F filings never counts (its first day must not read as
// 1970-01-01, the zero Day).
func TestSearchAsOf(t *testing.T) {
	first := civil.DayOf(2013, time.May, 15)
	names := []ciklookup.Entry{
		{Name: "ALPHA CAPITAL LLC", CIK: 1},
		{Name: "ALPHA HOLDINGS INC", CIK: 2}, // never filed a 13F
		{Name: "ALPHA FORMER NAME", CIK: 1},
	}
	filers := []Filer{
		{CIK: 1, First: civil.DayOf(2014, time.February, 14), Last: civil.DayOf(2014, time.February, 14), Acc: "0000000001-14-000001", Name: "ALPHA CAPITAL LLC"},
		{CIK: 1, First: first, Last: civil.DayOf(2013, time.August, 14), Acc: "0000000001-13-000002", Name: "ALPHA CAPITAL"},
		{CIK: 3, First: civil.DayOf(1999, time.May, 3), Last: civil.DayOf(1999, time.May, 3), Acc: "0000000003-99-000001", Name: "ALPHA OLD TRUST"},
	}
	built := Build(names, filers)
	decoded, err := Decode(built.Encode())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		asOf civil.Day
		want []Hit
	}{
		{first - 1, []Hit{{CIK: 3, Name: "ALPHA OLD TRUST", Has13F: true}, {CIK: 1, Name: "ALPHA CAPITAL LLC"}, {CIK: 2, Name: "ALPHA HOLDINGS INC"}}},
		{first, []Hit{{CIK: 1, Name: "ALPHA CAPITAL LLC", Has13F: true}, {CIK: 3, Name: "ALPHA OLD TRUST", Has13F: true}, {CIK: 2, Name: "ALPHA HOLDINGS INC"}}},
		{civil.MaxDay, []Hit{{CIK: 1, Name: "ALPHA CAPITAL LLC", Has13F: true}, {CIK: 3, Name: "ALPHA OLD TRUST", Has13F: true}, {CIK: 2, Name: "ALPHA HOLDINGS INC"}}},
		{0, []Hit{{CIK: 1, Name: "ALPHA CAPITAL LLC"}, {CIK: 2, Name: "ALPHA HOLDINGS INC"}, {CIK: 3, Name: "ALPHA OLD TRUST"}}},
	} {
		for name, x := range map[string]*Index{"built": built, "decoded": decoded} {
			got := x.Search(fold.String("alpha"), tc.asOf, 10)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s: Search(alpha, %s) mismatch (-want +got):\n%s", name, tc.asOf, diff)
			}
		}
	}
}

// TestDecodeRefusesBadFirstDay checks that a first-13F day outside the
// calendar is refused as damage, not read as some day.
func TestDecodeRefusesBadFirstDay(t *testing.T) {
	var e entity
	if decodeFirst(uint64(civil.MaxDay-civil.MinDay)+2, &e) {
		t.Errorf("a day past 9999-12-31 decoded as %s", e.first)
	}
	for _, d := range []civil.Day{civil.MinDay, 0, civil.DayOf(2024, time.January, 2), civil.MaxDay} {
		var got entity
		if !decodeFirst(encodeFirst(entity{first: d, has13F: true}), &got) || !got.has13F || got.first != d {
			t.Errorf("day %s: round trip gave %s, %t", d, got.first, got.has13F)
		}
	}
	if !decodeFirst(encodeFirst(entity{}), &e) || e.has13F {
		t.Error("an entity without 13F filings came back with one")
	}
}
