package edgar13f_test

import (
	"context"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"pgregory.net/rapid"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/edgartest"
)

// offlineClient returns a Client to which EDGAR knows no filer.
func offlineClient(t testing.TB) (*edgar13f.Client, *edgartest.CountingFetcher) {
	f := &edgartest.CountingFetcher{} // no Next: every URL is ErrNotFound
	c, err := edgar13f.NewClient(edgar13f.WithFetcher(f), edgar13f.WithCache(nil))
	if err != nil {
		t.Fatal(err)
	}
	return c, f
}

// Oracles, written apart from the library's own checks.

func validCIK(s string) bool {
	if len(s) < 1 || len(s) > 10 {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func validDate(d edgar13f.Date) bool {
	if d.Year < 1 || d.Year > 9999 || d.Month < 1 || d.Month > 12 || d.Day < 1 {
		return false
	}
	return time.Date(d.Year, d.Month, d.Day, 12, 0, 0, 0, time.UTC).Day() == d.Day
}

func validCUSIPs(cs []string) bool {
	if len(cs) < 1 || len(cs) > edgar13f.MaxCUSIPs {
		return false
	}
	seen := map[string]bool{}
	for _, c := range cs {
		if len(c) != 9 || seen[c] {
			return false
		}
		seen[c] = true
		for _, r := range c {
			if !(r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z') {
				return false
			}
		}
	}
	return true
}

func validIssuer(s string) bool {
	n := utf8.RuneCountInString(strings.Join(strings.Fields(s), " "))
	return utf8.ValidString(s) && n >= edgar13f.MinIssuerLen && n <= edgar13f.MaxIssuerLen
}

// fataler is what wantDecline needs of *testing.T and *rapid.T.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

// wantDecline checks that err is an invalid_argument decline when invalid
// is true, and no invalid_argument decline otherwise.
func wantDecline(t fataler, what string, err error, invalid bool) {
	t.Helper()
	got := edgartest.Reason(err)
	switch {
	case invalid && got != edgar13f.InvalidArgument:
		t.Fatalf("%s: got %v, want an invalid_argument decline", what, err)
	case !invalid && got == edgar13f.InvalidArgument:
		t.Fatalf("%s: declined as invalid_argument: %v", what, err)
	}
}

func FuzzParseDate(f *testing.F) {
	f.Add("2023-11-16")
	f.Fuzz(func(t *testing.T, s string) {
		d, err := edgar13f.ParseDate(s)
		tm, terr := time.Parse(time.DateOnly, s)
		valid := terr == nil && len(s) == 10 && tm.Year() >= 1
		if valid != (err == nil) {
			t.Fatalf("ParseDate(%q) = %v, %v; oracle says valid=%v", s, d, err, valid)
		}
		if err != nil {
			wantDecline(t, "ParseDate", err, true)
			return
		}
		if d.String() != s || d != edgar13f.DateOf(tm) {
			t.Fatalf("ParseDate(%q) = %v", s, d)
		}
		b, _ := d.MarshalText()
		var back edgar13f.Date
		if err := back.UnmarshalText(b); err != nil || back != d {
			t.Fatalf("text round trip of %v: %v, %v", d, back, err)
		}
	})
}

func FuzzCIK(f *testing.F) {
	f.Add("1067983")
	f.Fuzz(func(t *testing.T, cik string) {
		c, fetcher := offlineClient(t)
		_, err := c.Filings(context.Background(), cik, date("2025-01-02"))
		valid := validCIK(cik)
		wantDecline(t, "Filings", err, !valid)
		if valid && edgartest.Reason(err) != edgar13f.UnknownCIK {
			t.Fatalf("Filings(%q) = %v, want unknown_cik", cik, err)
		}
		if n := fetcher.Len(); valid != (n > 0) {
			t.Fatalf("Filings(%q) made %d requests", cik, n)
		}
	})
}

func FuzzCUSIPs(f *testing.F) {
	f.Add("037833100,594918104")
	f.Fuzz(func(t *testing.T, list string) {
		cusips := strings.Split(list, ",")
		c, fetcher := offlineClient(t)
		_, err := c.Holdings(context.Background(), "1067983", date("2023-09-30"), date("2024-01-02"), edgar13f.CUSIPs(cusips...))
		valid := validCUSIPs(cusips)
		wantDecline(t, "Holdings", err, !valid)
		if n := fetcher.Len(); valid != (n > 0) {
			t.Fatalf("Holdings with CUSIPs %q made %d requests", cusips, n)
		}
	})
}

func FuzzIssuer(f *testing.F) {
	f.Add("apple")
	f.Fuzz(func(t *testing.T, text string) {
		c, fetcher := offlineClient(t)
		_, err := c.Diff(context.Background(), "1067983", date("2023-09-30"), date("2023-12-31"), date("2024-05-16"), edgar13f.Issuer(text))
		valid := validIssuer(text)
		wantDecline(t, "Diff", err, !valid)
		if n := fetcher.Len(); valid != (n > 0) {
			t.Fatalf("Diff with Issuer(%q) made %d requests", text, n)
		}
	})
}

// TestRandomArgumentsNeverPanic calls every public method with random
// arguments: none panics, and each invalid argument is declined with
// invalid_argument before anything is fetched.
func TestRandomArgumentsNeverPanic(t *testing.T) {
	c, _ := edgartest.MirrorClient(t)
	genDate := rapid.Custom(func(t *rapid.T) edgar13f.Date {
		if rapid.Bool().Draw(t, "plausible") {
			return edgar13f.Date{Year: rapid.IntRange(1990, 2030).Draw(t, "y"), Month: time.Month(rapid.IntRange(1, 12).Draw(t, "m")), Day: rapid.SampledFrom([]int{30, 31, 1, 29}).Draw(t, "d")}
		}
		return edgar13f.Date{Year: rapid.Int().Draw(t, "y"), Month: time.Month(rapid.Int().Draw(t, "m")), Day: rapid.Int().Draw(t, "d")}
	})
	genCIK := rapid.OneOf(rapid.SampledFrom([]string{"1067983", "9000001", "0009000002", "9000004", "", "0"}), rapid.StringMatching(`[0-9]{0,12}`), rapid.String())
	genCUSIP := rapid.OneOf(rapid.SampledFrom([]string{"037833100", "594918104", "037833aB1"}), rapid.StringMatching(`[0-9A-Za-z]{8,10}`), rapid.String())
	rapid.Check(t, func(t *rapid.T) {
		cik := genCIK.Draw(t, "cik")
		a, b, asOf := genDate.Draw(t, "a"), genDate.Draw(t, "b"), genDate.Draw(t, "asOf")
		var opts []edgar13f.Option
		valid := validCIK(cik) && validDate(a) && validDate(asOf)
		if rapid.Bool().Draw(t, "cusips") {
			cs := rapid.SliceOfN(genCUSIP, 0, 60).Draw(t, "cusip list")
			opts = append(opts, edgar13f.CUSIPs(cs...))
			valid = valid && validCUSIPs(cs)
		}
		if rapid.Bool().Draw(t, "issuer") {
			s := rapid.String().Draw(t, "issuer text")
			opts = append(opts, edgar13f.Issuer(s))
			valid = valid && validIssuer(s)
		}
		if rapid.Bool().Draw(t, "max") {
			n := rapid.IntRange(-5, 300).Draw(t, "n")
			opts = append(opts, edgar13f.Limit(n))
			valid = valid && n >= 1 && n <= edgar13f.MaxPositions
		}
		if rapid.Bool().Draw(t, "position type") {
			opts = append(opts, edgar13f.PositionType(rapid.SampledFrom([]string{"long", "short", "LONG ", ""}).Draw(t, "pt")))
		}
		if rapid.Bool().Draw(t, "nil option") {
			opts = append(opts, nil)
		}
		ctx := context.Background()
		_, err := c.Holdings(ctx, cik, a, asOf, opts...)
		wantDecline(t, "Holdings", err, !valid)
		_, err = c.Diff(ctx, cik, a, b, asOf, opts...)
		wantDecline(t, "Diff", err, !(valid && validDate(b)))
		periods := rapid.SliceOfN(genDate, 0, 2).Draw(t, "periods")
		var filingsOpts []edgar13f.FilingsOption
		for _, p := range periods {
			filingsOpts = append(filingsOpts, edgar13f.ForPeriod(p))
		}
		_, err = c.Filings(ctx, cik, asOf, filingsOpts...)
		fValid := validCIK(cik) && validDate(asOf) && (len(periods) == 0 || validDate(periods[len(periods)-1]))
		wantDecline(t, "Filings", err, !fValid)

		name := rapid.OneOf(rapid.SampledFrom([]string{"berkshire", "  ab  ", "ber", ""}), rapid.String()).Draw(t, "name")
		var fopts []edgar13f.FindOption
		fValid = utf8.ValidString(name) && utf8.RuneCountInString(strings.TrimSpace(name)) >= 3 && utf8.RuneCountInString(strings.TrimSpace(name)) <= 100
		if rapid.Bool().Draw(t, "limit") {
			n := rapid.IntRange(-5, 30).Draw(t, "limit n")
			fopts = append(fopts, edgar13f.Limit(n))
			fValid = fValid && n >= 1 && n <= 20
		}
		if rapid.Bool().Draw(t, "filed by") {
			fopts = append(fopts, edgar13f.FiledBy(asOf))
			fValid = fValid && validDate(asOf)
		}
		_, err = c.FindManager(ctx, name, fopts...)
		wantDecline(t, "FindManager", err, !fValid)

		// The methods of the value types.
		n := rapid.Int().Draw(t, "days")
		_ = a.AddDays(n).String()
		_ = a.Compare(b) + b.Compare(a)
		_, _ = a.IsQuarterEnd(), a.IsZero()
		txt, _ := a.MarshalText()
		var back edgar13f.Date
		if err := back.UnmarshalText(txt); (err == nil) != validDate(a) {
			t.Fatalf("UnmarshalText(%q) = %v for %#v", txt, err, a)
		}
		if _, err := edgar13f.ParseDate(rapid.String().Draw(t, "date text")); err != nil {
			wantDecline(t, "ParseDate", err, true)
		}
	})
}
