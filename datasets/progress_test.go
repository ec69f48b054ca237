package datasets

import (
	"testing"

	"github.com/edgar13f/edgar13f"
)

// TestProgressLimiter: a stage is reported when it begins, at each whole
// percent and at its end, however many reports the import makes; a stage
// of unknown total once.
func TestProgressLimiter(t *testing.T) {
	var got []edgar13f.Progress
	l := &progressLimiter{f: func(p edgar13f.Progress) { got = append(got, p) }}
	const rows = 1_000_003
	for _, w := range []string{"2023q4", "2024q1"} {
		l.report(edgar13f.Progress{Window: w, Stage: "download", Index: 1, Count: 2})
		l.report(edgar13f.Progress{Window: w, Stage: "download", Index: 1, Count: 2}) // repeated: dropped
		l.report(edgar13f.Progress{Window: w, Stage: "filings", Index: 1, Count: 2})
		for i := int64(0); i <= rows; i += 7 {
			l.report(edgar13f.Progress{Window: w, Stage: "sorting", Done: i, Total: rows, Index: 1, Count: 2})
		}
		l.report(edgar13f.Progress{Window: w, Stage: "sorting", Done: rows, Total: rows, Index: 1, Count: 2})
		l.report(edgar13f.Progress{Window: w, Stage: "sorting", Done: rows, Total: rows, Index: 1, Count: 2}) // again: dropped
		l.report(edgar13f.Progress{Window: w, Stage: "done", Done: rows, Total: rows, Index: 1, Count: 2})
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
