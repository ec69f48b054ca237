// Package retryafter reads the Retry-After header of an HTTP response, for
// the clients that honour it (EDGAR's and the search embedders').
package retryafter

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Parse parses a Retry-After header value, either delta-seconds or an
// HTTP-date, into a wait from now; it returns 0 when absent or invalid. A
// wait in seconds is capped at 24 hours.
func Parse(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs <= 0 {
			return 0
		}
		return time.Duration(min(secs, int64(24*time.Hour/time.Second))) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}
