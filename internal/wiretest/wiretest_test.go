package wiretest

import (
	"io"
	"net/http"
	"testing"
	"time"
)

func TestMinGap(t *testing.T) {
	t0 := time.Date(2024, 5, 15, 14, 30, 0, 0, time.UTC)
	ms := time.Millisecond
	tests := []struct {
		starts []time.Time
		want   time.Duration
	}{
		{nil, time.Duration(1<<63 - 1)},
		{[]time.Time{t0}, time.Duration(1<<63 - 1)},
		{[]time.Time{t0.Add(300 * ms), t0, t0.Add(100 * ms)}, 100 * ms},
		{[]time.Time{t0, t0.Add(250 * ms), t0.Add(2 * ms)}, 2 * ms},
	}
	for _, tc := range tests {
		if got := MinGap(tc.starts); got != tc.want {
			t.Errorf("MinGap(%v) = %v, want %v", tc.starts, got, tc.want)
		}
	}
}

// TestResetReused: the second request on a kept-alive connection is reset
// and sent again by the transport on a new one; the server notes both.
func TestResetReused(t *testing.T) {
	for _, reset := range []bool{false, true} {
		s := NewServer(t, reset, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.WriteString(w, "ok")
		}))
		c := s.Client()
		for range 2 {
			resp, err := c.Get(s.URL + "/doc")
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil || string(b) != "ok" {
				t.Fatalf("body %q, %v", b, err)
			}
		}
		paths, starts := s.Requests()
		want := 2
		if reset {
			want = 3
		}
		if len(paths) != want || len(starts) != want {
			t.Errorf("reset %v: server noted %d requests (%q), want %d", reset, len(starts), paths, want)
		}
	}
}
