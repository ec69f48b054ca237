package retryafter

import (
	"net/http"
	"testing"
	"time"
)

// now is the test clock; whole seconds so that HTTP-dates are exact.
var now = time.Date(2024, 5, 15, 14, 30, 0, 0, time.UTC)

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
	}{
		{"", 0},
		{"0", 0},
		{"-5", 0},
		{" 120 ", 2 * time.Minute},
		{"soon", 0},
		{"100000", 24 * time.Hour},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second},
		{now.Add(-time.Hour).Format(http.TimeFormat), 0},
		{now.Add(30 * time.Second).Format(time.RFC850), 30 * time.Second},
		{"99999999999999999999", 0},
	}
	for _, tc := range tests {
		if got := Parse(tc.in, now); got != tc.want {
			t.Errorf("Parse(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
