package progresslimit_test

import (
	"testing"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/progresslimit"
)

// percent is how far p's stage is, in whole percent.
func percent(p edgar13f.Progress) int64 {
	if p.Total <= 0 {
		return 0
	}
	return p.Done * 100 / p.Total
}

// TestLimit: a stage is reported when it begins, at each whole percent
// and at its end, however many reports the import makes; a stage of
// unknown total once.
func TestLimit(t *testing.T) {
	var got []edgar13f.Progress
	report := progresslimit.Limit(func(p edgar13f.Progress) { got = append(got, p) })
	const rows = 1_000_003
	for _, w := range []string{"2023q4", "2024q1"} {
		report(edgar13f.Progress{Window: w, Stage: "download", Index: 1, Count: 2})
		report(edgar13f.Progress{Window: w, Stage: "download", Index: 1, Count: 2}) // repeated: dropped
		report(edgar13f.Progress{Window: w, Stage: "filings", Index: 1, Count: 2})
		for i := int64(0); i <= rows; i += 7 {
			report(edgar13f.Progress{Window: w, Stage: "sorting", Done: i, Total: rows, Index: 1, Count: 2})
		}
		report(edgar13f.Progress{Window: w, Stage: "sorting", Done: rows, Total: rows, Index: 1, Count: 2})
		report(edgar13f.Progress{Window: w, Stage: "sorting", Done: rows, Total: rows, Index: 1, Count: 2}) // again: dropped
		report(edgar13f.Progress{Window: w, Stage: "done", Done: rows, Total: rows, Index: 1, Count: 2})
	}
	// Per window: download, filings, sorting at 0..99% and at its end
	// (101), done.
	if want := 2 * (1 + 1 + 101 + 1); len(got) != want {
		t.Fatalf("%d reports, want %d", len(got), want)
	}
	for i := 1; i < len(got); i++ {
		a, b := got[i-1], got[i]
		if a.Window == b.Window && a.Stage == b.Stage && (b.Done <= a.Done || percent(b) == percent(a) && b.Done != b.Total) {
			t.Errorf("report %d %+v after %+v", i, b, a)
		}
	}
}

// TestLimitRule pins the rule report by report, where the two limiters it
// replaced differed: a stage is the Window, Index and Stage together (a
// new window in the same stage begins a stage), a Done going backwards
// is dropped, and a stage's end is reported once even when Done goes on
// past Total.
func TestLimitRule(t *testing.T) {
	p := func(window string, index int, stage string, done, total int64) edgar13f.Progress {
		return edgar13f.Progress{Window: window, Stage: stage, Done: done, Total: total, Index: index, Count: 2}
	}
	var got []edgar13f.Progress
	report := progresslimit.Limit(func(p edgar13f.Progress) { got = append(got, p) })
	for _, c := range []struct {
		p    edgar13f.Progress
		want bool
	}{
		{p("2023q4", 1, "download", 0, 0), true},        // a stage begins
		{p("2023q4", 1, "download", 0, 0), false},       // again
		{p("2023q4", 1, "download", 7, 0), false},       // Total unknown: once
		{p("2023q4", 1, "download", 50, 100), true},     // 50%
		{p("2023q4", 1, "download", 50, 100), false},    // no further
		{p("2023q4", 1, "download", 20, 100), false},    // backwards
		{p("2023q4", 1, "download", 51, 100), true},     // 51%
		{p("2023q4", 1, "download", 51, 200), false},    // not advanced
		{p("2024q1", 2, "download", 0, 0), true},        // another window begins
		{p("2024q1", 2, "download", 10, 100), true},     // 10%
		{p("2024q2", 2, "download", 10, 100), true},     // another window, same place and stage
		{p("2024q2", 1, "download", 10, 100), true},     // another place in the sync
		{p("2024q2", 1, "download", 100, 100), true},    // the end
		{p("2024q2", 1, "download", 101, 100), false},   // past the end: ended already
		{p("2024q2", 1, "download", 5000, 100), false},  // and again
		{p("2024q2", 1, "download", 5001, 200), false},  // Total grew, still past it
		{p("2024q2", 1, "download", 5002, 10000), true}, // Total grew: 50%
		{p("2024q2", 1, "sorting", 0, 10), true},        // next stage
	} {
		n := len(got)
		report(c.p)
		if sent := len(got) > n; sent != c.want {
			t.Errorf("report %+v: passed on %v, want %v", c.p, sent, c.want)
		}
	}
}
