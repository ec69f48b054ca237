package edgar13f

// This test stays inside the package: it checks the unexported quarter
// type, and needs no EDGAR (the tests that do are package edgar13f_test,
// on internal/edgartest).

import (
	"testing"
	"time"
)

func TestQuarter(t *testing.T) {
	tests := []struct {
		q     quarter
		end   string
		url   string
		final time.Time
		isFin bool
	}{
		{quarter{1993, 1}, "1993-03-31", fullIndexBase + "1993/QTR1/form.idx", time.Date(1993, 4, 2, 0, 0, 0, 0, time.UTC), true},
		{quarter{2024, 4}, "2024-12-31", fullIndexBase + "2024/QTR4/form.idx", time.Date(2025, 1, 1, 23, 59, 0, 0, time.UTC), false},
		{quarter{2024, 1}, "2024-03-31", fullIndexBase + "2024/QTR1/form.idx", time.Date(2024, 4, 2, 0, 0, 0, 0, time.UTC), true},
		{quarter{2025, 2}, "2025-06-30", fullIndexBase + "2025/QTR2/form.idx", time.Date(2025, 7, 1, 12, 0, 0, 0, time.UTC), false},
	}
	for _, tt := range tests {
		t.Run(tt.q.String(), func(t *testing.T) {
			if got := tt.q.end().String(); got != tt.end {
				t.Errorf("end = %s, want %s", got, tt.end)
			}
			if got := tt.q.url(); got != tt.url {
				t.Errorf("url = %s, want %s", got, tt.url)
			}
			if got := tt.q.final(tt.final); got != tt.isFin {
				t.Errorf("final(%v) = %v, want %v", tt.final, got, tt.isFin)
			}
		})
	}
	if n := len(quartersThrough(quarter{2026, 4})); n != 136 {
		t.Errorf("quarters through 2026Q4: %d, want 136", n)
	}
}
