package edgar13f_test

import (
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/edgartest"
	"github.com/edgar13f/edgar13f/internal/infotable"
	"github.com/edgar13f/edgar13f/mirror"
)

func TestNewQueryValidation(t *testing.T) {
	q4 := edgar13f.MustParseDate("2023-12-31")
	asOf := edgar13f.MustParseDate("2024-06-01")
	fifty := make([]string, 51)
	for i := range fifty {
		fifty[i] = strings.Repeat("A", 8) + string(rune('0'+i%10))
		fifty[i] = fifty[i][:7] + string(rune('A'+i/10)) + fifty[i][8:]
	}
	tests := []struct {
		name    string
		cik     string
		period  edgar13f.Date
		asOf    edgar13f.Date
		periods []edgar13f.Date
		opts    []edgar13f.Option
		want    edgar13f.Reason // "" for valid
	}{
		{"valid", "1067983", q4, asOf, nil, nil, ""},
		{"leading zeros", "0001067983", q4, asOf, nil, nil, ""},
		{"ten digits", "1234567890", q4, asOf, nil, nil, ""},
		{"eleven digits", "12345678901", q4, asOf, nil, nil, edgar13f.InvalidArgument},
		{"empty cik", "", q4, asOf, nil, nil, edgar13f.InvalidArgument},
		{"letters in cik", "10679a3", q4, asOf, nil, nil, edgar13f.InvalidArgument},
		{"space in cik", " 1067983", q4, asOf, nil, nil, edgar13f.InvalidArgument},
		{"unicode digit", "١٢٣", q4, asOf, nil, nil, edgar13f.InvalidArgument},
		{"zero asOf", "1", q4, edgar13f.Date{}, nil, nil, edgar13f.InvalidArgument},
		{"impossible date", "1", q4, edgar13f.Date{2023, time.February, 30}, nil, nil, edgar13f.InvalidArgument},
		{"not quarter end", "1", edgar13f.MustParseDate("2023-12-30"), asOf, []edgar13f.Date{edgar13f.MustParseDate("2023-12-30")}, nil, edgar13f.InvalidPeriod},
		{"bad cik beats bad period", "x", edgar13f.MustParseDate("2023-12-30"), asOf, []edgar13f.Date{edgar13f.MustParseDate("2023-12-30")}, nil, edgar13f.InvalidArgument},
		{"bad filter beats bad period", "1", edgar13f.MustParseDate("2023-12-30"), asOf, []edgar13f.Date{edgar13f.MustParseDate("2023-12-30")}, []edgar13f.Option{edgar13f.Limit(0)}, edgar13f.InvalidArgument},
		{"bad period beats unsupported", "1", edgar13f.MustParseDate("2023-12-30"), asOf, []edgar13f.Date{edgar13f.MustParseDate("2023-12-30")}, []edgar13f.Option{edgar13f.PositionType("short")}, edgar13f.InvalidPeriod},
		{"bad filter beats unsupported", "1", q4, asOf, []edgar13f.Date{q4}, []edgar13f.Option{edgar13f.PositionType("short"), edgar13f.Issuer("a")}, edgar13f.InvalidArgument},
		{"short positions", "1", q4, asOf, []edgar13f.Date{q4}, []edgar13f.Option{edgar13f.PositionType("short")}, edgar13f.UnsupportedRequest},
		{"long positions", "1", q4, asOf, []edgar13f.Date{q4}, []edgar13f.Option{edgar13f.PositionType("long")}, ""},
		{"max 0", "1", q4, asOf, nil, []edgar13f.Option{edgar13f.Limit(0)}, edgar13f.InvalidArgument},
		{"max 1", "1", q4, asOf, nil, []edgar13f.Option{edgar13f.Limit(1)}, ""},
		{"max 200", "1", q4, asOf, nil, []edgar13f.Option{edgar13f.Limit(200)}, ""},
		{"max 201", "1", q4, asOf, nil, []edgar13f.Option{edgar13f.Limit(201)}, edgar13f.InvalidArgument},
		{"last option wins", "1", q4, asOf, nil, []edgar13f.Option{edgar13f.Limit(0), edgar13f.Limit(3)}, ""},
		{"issuer 1 char", "1", q4, asOf, nil, []edgar13f.Option{edgar13f.Issuer("a")}, edgar13f.InvalidArgument},
		{"issuer spaces fold", "1", q4, asOf, nil, []edgar13f.Option{edgar13f.Issuer("  a  ")}, edgar13f.InvalidArgument},
		{"issuer 2 chars", "1", q4, asOf, nil, []edgar13f.Option{edgar13f.Issuer("ab")}, ""},
		{"issuer 100 chars", "1", q4, asOf, nil, []edgar13f.Option{edgar13f.Issuer(strings.Repeat("é", 100))}, ""},
		{"issuer 101 chars", "1", q4, asOf, nil, []edgar13f.Option{edgar13f.Issuer(strings.Repeat("a", 101))}, edgar13f.InvalidArgument},
		{"issuer invalid utf-8", "1", q4, asOf, nil, []edgar13f.Option{edgar13f.Issuer("ab\xff")}, edgar13f.InvalidArgument},
		{"cusip ok", "1", q4, asOf, nil, []edgar13f.Option{edgar13f.CUSIPs("037833100", "78462f103")}, ""},
		{"cusip empty list", "1", q4, asOf, nil, []edgar13f.Option{edgar13f.CUSIPs()}, edgar13f.InvalidArgument},
		{"cusip 8 chars", "1", q4, asOf, nil, []edgar13f.Option{edgar13f.CUSIPs("03783310")}, edgar13f.InvalidArgument},
		{"cusip punctuation", "1", q4, asOf, nil, []edgar13f.Option{edgar13f.CUSIPs("0378331-0")}, edgar13f.InvalidArgument},
		{"cusip exact duplicate", "1", q4, asOf, nil, []edgar13f.Option{edgar13f.CUSIPs("037833100", "037833100")}, edgar13f.InvalidArgument},
		{"cusip case-different not a duplicate", "1", q4, asOf, nil, []edgar13f.Option{edgar13f.CUSIPs("78462F103", "78462f103")}, ""},
		{"cusip 51 items", "1", q4, asOf, nil, []edgar13f.Option{edgar13f.CUSIPs(fifty...)}, edgar13f.InvalidArgument},
		{"cusip 50 items", "1", q4, asOf, nil, []edgar13f.Option{edgar13f.CUSIPs(fifty[:50]...)}, ""},
		{"diff B before A", "1", q4, asOf, []edgar13f.Date{q4, edgar13f.MustParseDate("2023-09-30")}, nil, edgar13f.InvalidPeriod},
		{"diff B equals A", "1", q4, asOf, []edgar13f.Date{q4, q4}, nil, edgar13f.InvalidPeriod},
		{"diff B after A", "1", q4, asOf, []edgar13f.Date{edgar13f.MustParseDate("2023-09-30"), q4}, nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := edgar13f.NewQuery(tc.cik, map[string]edgar13f.Date{"period": tc.period, "asOf": tc.asOf}, tc.periods, tc.opts)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("newQuery = %v; want no error", err)
				}
				return
			}
			var d *edgar13f.DeclineError
			if !errors.As(err, &d) || d.Reason != tc.want {
				t.Fatalf("newQuery = %v; want decline %s", err, tc.want)
			}
			for _, r := range edgar13f.Reasons() {
				if got := errors.Is(err, r); got != (r == tc.want) {
					t.Errorf("errors.Is(err, %s) = %v", r, got)
				}
			}
		})
	}
}

func TestParseCIKDropsLeadingZeros(t *testing.T) {
	for in, want := range map[string]string{"0001067983": "1067983", "1067983": "1067983", "0": "0", "0000000000": "0"} {
		if got, err := edgar13f.ParseCIK(in); err != nil || got != want {
			t.Errorf("edgar13f.ParseCIK(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

func TestDate(t *testing.T) {
	for _, s := range []string{"2024-02-29", "2023-12-31", "0001-01-01", "9999-12-31"} {
		d, err := edgar13f.ParseDate(s)
		if err != nil || d.String() != s {
			t.Errorf("ParseDate(%q) = %v, %v", s, d, err)
		}
	}
	for _, s := range []string{"2023-02-29", "2023-13-01", "2023-00-10", "2023-1-01", "20231231", "2023-12-31T00:00:00Z", "", "0000-01-01", "+202-01-01", "2023-12-3a"} {
		if _, err := edgar13f.ParseDate(s); !errors.Is(err, edgar13f.InvalidArgument) {
			t.Errorf("ParseDate(%q) error = %v; want invalid_argument", s, err)
		}
	}
	d := edgar13f.MustParseDate("2024-12-31")
	if got := d.AddDays(1).String(); got != "2025-01-01" {
		t.Errorf("AddDays(1) = %s", got)
	}
	if got := d.AddDays(-366).String(); got != "2023-12-31" {
		t.Errorf("AddDays(-366) = %s", got)
	}
	for _, x := range []struct {
		d    edgar13f.Date
		want bool
	}{{d, true}, {edgar13f.Date{}, false}, {edgar13f.Date{2023, time.February, 29}, false}, {edgar13f.Date{2024, time.February, 29}, true},
		{edgar13f.Date{10000, time.January, 1}, false}, {edgar13f.Date{2024, 13, 1}, false}, {edgar13f.Date{1, time.January, 1}, true}} {
		if got := x.d.IsValid(); got != x.want {
			t.Errorf("%+v.IsValid() = %t", x.d, got)
		}
	}
	if !d.IsQuarterEnd() || edgar13f.MustParseDate("2024-06-29").IsQuarterEnd() {
		t.Error("IsQuarterEnd")
	}
	// A time late in the evening in New York is still that day there.
	ny := time.FixedZone("EST", -5*3600)
	if got := edgar13f.DateOf(time.Date(2024, 12, 31, 23, 30, 0, 0, ny)); got != d {
		t.Errorf("DateOf = %v; want %v", got, d)
	}
	var u edgar13f.Date
	if err := u.UnmarshalText([]byte("2024-12-31")); err != nil || u != d {
		t.Errorf("UnmarshalText = %v, %v", u, err)
	}
}

// TestDamagedRowsEntryIsRefetched: a cached table that passes its checksum
// but cannot be decoded (a bad row flag) is read from EDGAR again, and the
// answer is the same.
func TestDamagedRowsEntryIsRefetched(t *testing.T) {
	cache := edgartest.NewMemCache()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c, f := edgartest.MirrorClient(t, edgar13f.WithCache(cache), edgar13f.WithClock(edgartest.Clock(func() time.Time { return now })))
	ctx := context.Background()
	period, asOf := edgar13f.MustParseDate("2023-12-31"), edgar13f.MustParseDate("2024-03-01")
	want, err := c.Holdings(ctx, "1067983", period, asOf)
	if err != nil {
		t.Fatal(err)
	}
	key := c.EDGAR().Source() + "|" + c.RowsKey(want.Base.Accession)
	entry, err := cache.Get(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := infotable.Decode(entry)
	if err != nil {
		t.Fatal(err)
	}
	// Re-encode with a row flag no encoder writes, and a valid checksum.
	enc := infotable.AppendEncoded(nil, rows, infotable.Tally{})
	body := enc[:len(enc)-4]
	strStart := 7 // magic, version and a zero tally
	d := body[strStart:]
	_, n1 := binary.Uvarint(d)
	strLen, n2 := binary.Uvarint(d[n1:])
	flagsAt := strStart + n1 + n2 + int(strLen)
	body[flagsAt] = 0xff
	damaged := binary.LittleEndian.AppendUint32(body, crc32.Checksum(body, crc32.MakeTable(crc32.Castagnoli)))
	if _, err := infotable.Count(damaged); err != nil {
		t.Fatalf("the damaged entry must pass the checksum: %v", err)
	}
	cache.Put(ctx, key, damaged)
	f.Take()
	got, err := c.Holdings(ctx, "1067983", period, asOf)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answer after a damaged entry (-want +got):\n%s", diff)
	}
	if n := f.Len(); n != 1 {
		t.Errorf("%d fetches after a damaged entry; want 1 (the filing again)", n)
	}
}

// TestSharedFetchSurvivesLeaderCancel: two callers ask for the same filing
// list; the one whose request is in flight gives up. The other, still
// waiting for that shared fetch, must get its answer, not the other's
// cancellation.
func TestSharedFetchSurvivesLeaderCancel(t *testing.T) {
	// The first request is held until its context ends; later ones go through.
	started := make(chan struct{})
	var once sync.Once
	f := &edgartest.CountingFetcher{Next: mirror.NewFetcher(edgartest.MirrorFS(t)), Before: func(ctx context.Context, _ string) error {
		first := false
		once.Do(func() { first = true })
		if !first {
			return nil
		}
		close(started)
		<-ctx.Done()
		return ctx.Err()
	}}
	c, err := edgar13f.NewClient(edgar13f.WithFetcher(f), edgar13f.WithCache(nil))
	if err != nil {
		t.Fatal(err)
	}
	joined := make(chan string, 1)
	c.EDGAR().OnJoin(func(key string) {
		select {
		case joined <- key:
		default:
		}
	})
	period, asOf := edgar13f.MustParseDate("2023-12-31"), edgar13f.MustParseDate("2024-03-01")
	ctxA, cancelA := context.WithCancel(context.Background())
	errA := make(chan error, 1)
	go func() {
		_, err := c.Holdings(ctxA, "1067983", period, asOf)
		errA <- err
	}()
	<-started
	type result struct {
		snap *edgar13f.Snapshot
		err  error
	}
	resB := make(chan result, 1)
	go func() {
		s, err := c.Holdings(context.Background(), "1067983", period, asOf)
		resB <- result{s, err}
	}()
	if key := <-joined; !strings.Contains(key, "1067983") {
		t.Fatalf("B joined the fetch of %s, want the filing list's", key)
	}
	cancelA()
	if err := <-errA; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled caller got %v; want context.Canceled", err)
	}
	select {
	case r := <-resB:
		if r.err != nil || r.snap.Base.Accession != "0000950123-24-002518" {
			t.Fatalf("waiting caller got %v, %v; want the answer", r.snap, r.err)
		}
	case <-time.After(2 * time.Minute): // a guard against hanging, not a wait
		t.Fatal("waiting caller did not answer")
	}
}
