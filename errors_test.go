package edgar13f_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/edgartest"
	"github.com/edgar13f/edgar13f/mirror"
)

// TestErrorTexts: every error says what failed with one "edgar13f: "
// prefix; a missing mirror document names its URL and mirror file (the
// recorded mirror lists Berkshire's 2023Q2 report without holding its
// documents); a diff failure names its period.
func TestErrorTexts(t *testing.T) {
	fsys, err := mirror.Dir(edgartest.MirrorDir)
	if err != nil {
		t.Fatal(err)
	}
	c, err := edgar13f.NewClient(edgar13f.WithFetcher(mirror.NewFetcher(fsys)), edgar13f.WithCache(nil))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	const missing = "0000950123-23-008074.txt"
	_, holdingsErr := c.Holdings(ctx, "1067983", date("2023-06-30"), date("2024-01-01"))
	_, diffErr := c.Diff(ctx, "1067983", date("2023-06-30"), date("2023-09-30"), date("2024-01-01"))
	_, declineErr := c.Diff(ctx, "1067983", date("2023-09-30"), date("2023-12-31"), date("2023-10-01"))
	_, dirErr := mirror.Dir("testdata/no-such-mirror")
	_, uaErr := edgar13f.NewClient(edgar13f.WithUserAgent("someone"), edgar13f.WithCache(nil))
	tests := []struct {
		name string
		err  error
		is   error
		has  []string
	}{
		{"missing mirror document", holdingsErr, edgar13f.ErrNotFound, []string{"https://www.sec.gov/Archives/edgar/data/1067983/000095012323008074/" + missing, "no file www.sec.gov/", "testdata/mirror"}},
		{"diff failure", diffErr, edgar13f.ErrNotFound, []string{"period A (2023-06-30)", missing}},
		{"diff decline", declineErr, edgar13f.NotYetFiled, []string{"period A (2023-09-30)"}},
		{"missing mirror directory", dirErr, nil, []string{"no-such-mirror"}},
		{"implausible User-Agent", uaErr, edgar13f.ErrNoUserAgent, []string{`"someone"`, "WithUserAgent"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.err == nil {
				t.Fatal("no error")
			}
			msg := tt.err.Error()
			if tt.is != nil && !errors.Is(tt.err, tt.is) {
				t.Errorf("%q does not match %v", msg, tt.is)
			}
			if n := strings.Count(msg, "edgar13f: "); n != 1 || !strings.HasPrefix(msg, "edgar13f: ") {
				t.Errorf("%q: want exactly one leading \"edgar13f: \"", msg)
			}
			if strings.Contains(msg, "mirror: mirror:") {
				t.Errorf("%q repeats a prefix", msg)
			}
			for _, h := range tt.has {
				if !strings.Contains(msg, h) {
					t.Errorf("%q does not say %q", msg, h)
				}
			}
		})
	}
	var fe *edgar13f.FetchError
	if !errors.As(holdingsErr, &fe) || !strings.HasSuffix(fe.URL, missing) {
		t.Errorf("missing document: %v is not a *FetchError naming it", holdingsErr)
	}
}

// TestDeclineMatchesItsReason: a decline, also wrapped, matches its own
// Reason with errors.Is and no other; it prints as before ("edgar13f:
// <reason>: <message>"), and a Reason prints as its stable string whether
// or not it is taken as an error.
func TestDeclineMatchesItsReason(t *testing.T) {
	for _, r := range edgar13f.Reasons() {
		err := edgar13f.Decline(r, "CIK %s: %d", "1067983", 7)
		wrapped := fmt.Errorf("context: %w", err)
		for _, other := range edgar13f.Reasons() {
			if got := errors.Is(err, other); got != (other == r) {
				t.Errorf("errors.Is(decline %s, %s) = %v", r, other, got)
			}
			if got := errors.Is(wrapped, other); got != (other == r) {
				t.Errorf("errors.Is(wrapped decline %s, %s) = %v", r, other, got)
			}
		}
		var d *edgar13f.DeclineError
		if !errors.As(wrapped, &d) || d.Reason != r || d.Message != "CIK 1067983: 7" {
			t.Errorf("errors.As(decline %s) = %+v", r, d)
		}
		if want := "edgar13f: " + string(r) + ": CIK 1067983: 7"; err.Error() != want {
			t.Errorf("decline %s prints %q, want %q", r, err.Error(), want)
		}
		got := fmt.Sprintf("%s %v %q ", r, r, r) + fmt.Sprint(r) + " " + r.Error()
		if want := fmt.Sprintf("%s %s %q %s %s", string(r), string(r), string(r), string(r), string(r)); got != want {
			t.Errorf("reason %q prints as %q, want %q", string(r), got, want)
		}
	}
	if errors.Is(errors.New(string(edgar13f.NotYetFiled)), edgar13f.NotYetFiled) {
		t.Error("an error that is no decline matches a Reason")
	}
}
