package edgar13f_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/edgartest"
)

// Faults of the wire (status codes, throttle pages, cut bodies, stalls):
// each is recovered from, or fails with a clear typed error.

const (
	faultCIK     = "9000001"
	faultList    = "/submissions/CIK0009000001.json"
	faultTxt     = "/0009000001-25-000004.txt"
	faultCover   = "/000900000125000004/primary_doc.xml"
	faultAccLast = "0009000001-25-000004"
)

var (
	faultPeriod = date("2024-12-31")
	faultAsOf   = date("2025-04-02")
)

// faultAnswers returns the answers of the fault queries read straight from
// the mirror, checked against testdata/SCENARIOS.md.
func faultAnswers(t *testing.T) (*edgar13f.Snapshot, *edgar13f.FilingList) {
	t.Helper()
	ref, _ := edgartest.MirrorClient(t)
	ctx := context.Background()
	snap, err := ref.Holdings(ctx, faultCIK, faultPeriod, faultAsOf)
	if err != nil {
		t.Fatal(err)
	}
	var sum int64
	for _, h := range snap.Holdings {
		sum += h.Value
	}
	got := fmt.Sprintln(snap.Base.Accession, len(snap.Sources), len(snap.Holdings), sum)
	if want := "0009000001-25-000003 2 4 7123755\n"; got != want {
		t.Fatalf("reference answer %q, want %q (SCENARIOS.md)", got, want)
	}
	list, err := ref.Filings(ctx, faultCIK, faultAsOf, edgar13f.ForPeriod(faultPeriod))
	if err != nil || len(list.Filings) != 4 {
		t.Fatalf("reference Filings: %v, %v; want 4 filings", list, err)
	}
	return snap, list
}

// faultQuery returns the fault query, Filings of the period when filings
// is set and Holdings otherwise, and its answer without faults.
func faultQuery(c *edgar13f.Client, filings bool, snap *edgar13f.Snapshot, list *edgar13f.FilingList) (func(context.Context) (any, error), any) {
	if filings {
		return func(ctx context.Context) (any, error) {
			return c.Filings(ctx, faultCIK, faultAsOf, edgar13f.ForPeriod(faultPeriod))
		}, list
	}
	return func(ctx context.Context) (any, error) {
		return c.Holdings(ctx, faultCIK, faultPeriod, faultAsOf)
	}, snap
}

// answersOnceCleared clears e's faults and checks that query, asked again
// of the same Client (and so of what the fault left in its cache), gives
// want.
func answersOnceCleared(t *testing.T, e *edgartest.Server, query func(context.Context) (any, error), want any) {
	t.Helper()
	e.SetFaults()
	got, err := query(context.Background())
	if err != nil {
		t.Fatalf("after the fault cleared: %v", err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answer after the fault cleared (-want +got):\n%s", diff)
	}
}

// Outcome checks for faults that end in an error.

func wantFetchError(code int, target error) func(error) string {
	return func(err error) string {
		var fe *edgar13f.FetchError
		if !errors.As(err, &fe) || fe.StatusCode != code || (target != nil && !errors.Is(err, target)) {
			return fmt.Sprintf("want *FetchError with status %d wrapping %v", code, target)
		}
		return ""
	}
}

func wantParseError(doc string) func(error) string {
	return func(err error) string {
		var pe *edgar13f.ParseError
		if !errors.As(err, &pe) || !strings.HasSuffix(pe.Document, doc) {
			return "want *ParseError for " + doc
		}
		return ""
	}
}

func wantIs(target error) func(error) string {
	return func(err error) string {
		if !errors.Is(err, target) {
			return fmt.Sprintf("want an error matching %v", target)
		}
		return ""
	}
}

// TestFaults runs each fault of the table against the real HTTP
// path: the call recovers with the right answer or fails with a clear typed
// error (a call given a deadline fails with it), and once the fault clears,
// the same Client (same cache) answers correctly.
func TestFaults(t *testing.T) {
	wantSnap, wantFilings := faultAnswers(t)
	unequal := edgartest.EditRecent(func(r map[string]any) {
		forms := r["form"].([]any)
		r["form"] = forms[:len(forms)-1]
	})
	missing := edgartest.EditRecent(func(r map[string]any) { delete(r, "accessionNumber") })
	brokenXML := func(b []byte) []byte {
		return bytes.Replace(b, []byte("</periodOfReport>"), []byte("</periodOfRep"), 1)
	}
	tests := []struct {
		name     string
		filings  bool // query Filings instead of Holdings
		fault    *edgartest.Fault
		policy   edgar13f.RetryPolicy
		deadline time.Duration
		minTime  time.Duration          // least time the call must take (honoured Retry-After)
		fails    func(err error) string // nil: the call must recover
	}{
		{name: "429 without Retry-After", fault: &edgartest.Fault{Match: faultList, Times: 2, Serve: edgartest.Status(429)}},
		{name: "429 Retry-After seconds", fault: &edgartest.Fault{Match: faultList, Times: 1, Serve: edgartest.Status(429, "Retry-After", "1")},
			policy: edgar13f.RetryPolicy{BaseDelay: time.Millisecond, MaxDelay: 3 * time.Second}, minTime: 900 * time.Millisecond},
		{name: "429 Retry-After HTTP-date", fault: &edgartest.Fault{Match: faultTxt, Times: 1, Serve: func(w http.ResponseWriter, r *http.Request, b []byte) {
			edgartest.Status(429, "Retry-After", time.Now().Add(2*time.Second).UTC().Format(http.TimeFormat))(w, r, b)
		}}, policy: edgar13f.RetryPolicy{BaseDelay: time.Millisecond, MaxDelay: 3 * time.Second}, minTime: 900 * time.Millisecond},
		{name: "403 SEC rate threshold page", fault: &edgartest.Fault{Match: faultTxt, Times: 2, Serve: edgartest.HTMLPage(403)}},
		{name: "HTML page with 200 for JSON", fault: &edgartest.Fault{Match: faultList, Times: 2, Serve: edgartest.HTMLPage(200)}},
		{name: "HTML page with 200 for submission text", fault: &edgartest.Fault{Match: faultTxt, Times: 1, Serve: edgartest.HTMLPage(200)}},
		{name: "HTML page with 200 for cover XML", filings: true, fault: &edgartest.Fault{Match: faultCover, Times: 1, Serve: edgartest.HTMLPage(200)}},
		{name: "500 burst", fault: &edgartest.Fault{Match: faultList, Times: 3, Serve: edgartest.Status(500)}},
		{name: "503 burst", fault: &edgartest.Fault{Match: faultTxt, Times: 4, Serve: edgartest.Status(503)}},
		{name: "503 without end", fault: &edgartest.Fault{Match: faultTxt, Serve: edgartest.Status(503)}, fails: wantFetchError(503, nil)},
		{name: "connection reset mid-body", fault: &edgartest.Fault{Match: faultTxt, Times: 2, Serve: edgartest.ResetMidBody}},
		{name: "truncated gzip body", fault: &edgartest.Fault{Match: faultList, Times: 2, Serve: edgartest.TruncatedGzip}},
		{name: "slower than the deadline", fault: &edgartest.Fault{Match: faultTxt, Serve: edgartest.Stall}, deadline: 500 * time.Millisecond,
			fails: wantIs(context.DeadlineExceeded)},
		{name: "malformed XML in submission text", fault: &edgartest.Fault{Match: faultTxt, Serve: edgartest.Edit(brokenXML)}, fails: wantParseError(faultTxt)},
		{name: "malformed cover XML", filings: true, fault: &edgartest.Fault{Match: faultCover, Serve: edgartest.Edit(brokenXML)}, fails: wantParseError(faultCover)},
		{name: "submissions JSON missing a column", fault: &edgartest.Fault{Match: faultList, Serve: edgartest.Edit(missing)}, fails: wantParseError(faultList)},
		{name: "submissions JSON arrays of unequal length", fault: &edgartest.Fault{Match: faultList, Serve: edgartest.Edit(unequal)}, fails: wantParseError(faultList)},
		{name: "submissions JSON cut short", fault: &edgartest.Fault{Match: faultList, Serve: edgartest.Edit(func(b []byte) []byte { return b[:len(b)/2] })},
			fails: wantParseError(faultList)},
		{name: "404 for one filing document", fault: &edgartest.Fault{Match: faultTxt, Serve: edgartest.Status(404)}, fails: wantFetchError(404, edgar13f.ErrNotFound)},
		{name: "404 for the filing list", fault: &edgartest.Fault{Match: faultList, Serve: edgartest.Status(404)}, fails: wantIs(edgar13f.UnknownCIK)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := edgartest.NewServer(t, tt.fault)
			var opts []edgar13f.ClientOption
			if tt.policy != (edgar13f.RetryPolicy{}) {
				opts = append(opts, edgar13f.WithRetryPolicy(tt.policy))
			}
			c := e.Client(t, "", opts...)
			query, want := faultQuery(c, tt.filings, wantSnap, wantFilings)
			deadline := tt.deadline
			if deadline == 0 {
				deadline = hangGuard
			}
			ctx, cancel := context.WithTimeout(context.Background(), deadline)
			start := time.Now()
			got, err := query(ctx)
			elapsed := time.Since(start)
			cancel()
			if tt.fails == nil {
				if err != nil {
					t.Fatalf("call failed: %v", err)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("answer under fault (-want +got):\n%s", diff)
				}
				// A lower bound only: load can make a call slower, never faster.
				if elapsed < tt.minTime {
					t.Errorf("call took %v, want at least %v (Retry-After)", elapsed, tt.minTime)
				}
				if n := e.Count(tt.fault.Match); n != tt.fault.Times+1 {
					t.Errorf("%d requests for %s, want %d", n, tt.fault.Match, tt.fault.Times+1)
				}
			} else {
				if msg := tt.fails(err); msg != "" {
					t.Fatalf("call returned %v; %s", err, msg)
				}
				t.Logf("error: %v", err)
			}
			answersOnceCleared(t, e, query, want)
		})
	}
}
