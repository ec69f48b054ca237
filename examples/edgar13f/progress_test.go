package main

import (
	"strings"
	"testing"
)

// TestProgressPlain: off a terminal every step gets a line at once, the
// counts in between are not all written, and the last state of the work
// is written when it ends; no carriage return or escape code is written.
func TestProgressPlain(t *testing.T) {
	var b strings.Builder
	p := newProgress(&b, false)
	p.show("AAPL", "AAPL: listing filings", true)
	for i := range 1000 {
		p.show("AAPL x", "AAPL: x; "+strings.Repeat("#", i%7), true)
		p.show("fetch", "fetching https://www.sec.gov/", false)
		p.clear()
	}
	p.show("AAPL x", "AAPL: x; last", true)
	p.end()
	got := b.String()
	if strings.ContainsAny(got, "\r\033") {
		t.Errorf("escapes off a terminal: %q", got)
	}
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if len(lines) < 3 || len(lines) > 100 || lines[0] != "AAPL: listing filings" || lines[len(lines)-1] != "AAPL: x; last" {
		t.Errorf("%d lines, want a line per step and the last state:\n%s", len(lines), got)
	}

	// On a terminal: one line redrawn, erased at the end.
	b.Reset()
	p = newProgress(&b, true)
	p.show("a", "one", true)
	p.show("a", "two", true)
	p.end()
	if got := b.String(); got != "\r\033[Kone\r\033[Ktwo\r\033[K" {
		t.Errorf("terminal progress %q", got)
	}
}
