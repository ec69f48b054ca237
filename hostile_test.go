package edgar13f_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/edgartest"
)

// Hostile documents: built to exhaust memory or time, each is refused in
// bounded memory, never hangs, and leaves nothing in the cache.

// hangGuard ends a call that never returns. It is no speed claim: these
// calls take well under a second on an idle machine, and the guard is long
// enough that no load makes a working call reach it.
const hangGuard = 5 * time.Minute

// multiGB is the size a hostile server claims or streams.
const multiGB = 5 << 30

// streamZeros writes up to n bytes of filler (as gzip when gz) until the
// client goes away.
func streamZeros(n int64, declare, gz bool) func(http.ResponseWriter, *http.Request, []byte) {
	return func(w http.ResponseWriter, r *http.Request, _ []byte) {
		if declare {
			w.Header().Set("Content-Length", strconv.FormatInt(n, 10))
		}
		var out io.Writer = w
		if gz {
			w.Header().Set("Content-Encoding", "gzip")
			zw := gzip.NewWriter(w)
			defer zw.Close()
			out = zw
		}
		w.WriteHeader(http.StatusOK)
		chunk := bytes.Repeat([]byte(" "), 64<<10)
		for sent := int64(0); sent < n; sent += int64(len(chunk)) {
			if _, err := out.Write(chunk); err != nil || r.Context().Err() != nil {
				return
			}
		}
	}
}

// billionLaughs is an XML document whose entities would expand to about 3 GB.
const billionLaughs = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lollollollollollollollollollol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
`

// inXML puts hostile XML in place of the first element named tag of an XML
// document (inside a submission text file or alone).
func inXML(tag, hostile string) func([]byte) []byte {
	return func(b []byte) []byte {
		open := []byte("<" + tag)
		i := bytes.Index(b, open)
		if i < 0 {
			panic("no <" + tag + "> in document")
		}
		return slices.Concat(b[:i], []byte(hostile), b[i:])
	}
}

// TestHostileDocuments feeds documents built to exhaust memory or time; each
// is refused with a clear error (or read correctly) within a bound on the
// bytes allocated, and nothing of it stays in the cache. Nothing here is
// timed: a document that made the Client hang would run into the hang
// guard, a deadline generous enough for any load the machine is under.
func TestHostileDocuments(t *testing.T) {
	wantSnap, wantFilings := faultAnswers(t)
	deep := "<edgarSubmission>" + strings.Repeat("<a>", 200_000) + strings.Repeat("</a>", 200_000) + "</edgarSubmission>"
	deepTable := strings.Repeat("<infoTable>", 200_000)
	laughsCover := billionLaughs + "<edgarSubmission><headerData><submissionType>&lol9;</submissionType></headerData></edgarSubmission>"
	laughsRow := "<infoTable><nameOfIssuer>&lol9;</nameOfIssuer></infoTable>"
	tests := []struct {
		name     string
		filings  bool
		fault    *edgartest.Fault
		maxAlloc int64 // bytes allocated by the whole call
		fails    func(error) string
		requests int // requests for the faulted path, 0 = not checked
	}{
		{name: "multi-GB filing list, no length", fault: &edgartest.Fault{Match: faultList, Serve: streamZeros(multiGB, false, false)},
			maxAlloc: 400 << 20, fails: wantIs(edgar13f.ErrTooLarge), requests: 1}, // a 64 MiB limit read by doubling buffers
		{name: "multi-GB cover, gzip bomb", filings: true, fault: &edgartest.Fault{Match: faultCover, Serve: streamZeros(multiGB, false, true)},
			maxAlloc: 128 << 20, fails: wantIs(edgar13f.ErrTooLarge), requests: 1}, // 16 MiB limit
		{name: "multi-GB submission text, declared", fault: &edgartest.Fault{Match: faultTxt, Serve: streamZeros(multiGB, true, false)},
			maxAlloc: 20 << 20, fails: wantIs(edgar13f.ErrTooLarge), requests: 1},
		{name: "billion laughs cover", filings: true, fault: &edgartest.Fault{Match: faultCover, Serve: edgartest.Replace([]byte(laughsCover))},
			maxAlloc: 20 << 20, fails: wantParseError(faultCover)},
		{name: "billion laughs in submission text", fault: &edgartest.Fault{Match: faultTxt, Serve: edgartest.Edit(inXML("infoTable", laughsRow))},
			maxAlloc: 20 << 20, fails: wantParseError(faultTxt)},
		{name: "deeply nested cover", filings: true, fault: &edgartest.Fault{Match: faultCover, Serve: edgartest.Replace([]byte(deep))},
			maxAlloc: 200 << 20, fails: wantParseError(faultCover)},
		{name: "deeply nested information table", fault: &edgartest.Fault{Match: faultTxt, Serve: edgartest.Edit(inXML("infoTable", deepTable))},
			maxAlloc: 200 << 20, fails: wantParseError(faultTxt)},
		{name: "invalid UTF-8 in filing list", fault: &edgartest.Fault{Match: faultList, Serve: edgartest.Edit(func(b []byte) []byte {
			return bytes.Replace(b, []byte("TIMELINE"), []byte("TIME\xff\xfeLINE"), 1)
		})}, maxAlloc: 20 << 20}, // the entity name is not part of any answer
		{name: "invalid UTF-8 in information table", fault: &edgartest.Fault{Match: faultTxt, Serve: edgartest.Edit(func(b []byte) []byte {
			return bytes.Replace(b, []byte("<nameOfIssuer>"), []byte("<nameOfIssuer>\xff\xfe"), 1)
		})}, maxAlloc: 20 << 20, fails: wantParseError(faultTxt)},
		{name: "NUL bytes in cover", filings: true, fault: &edgartest.Fault{Match: faultCover, Serve: edgartest.Edit(func(b []byte) []byte {
			return bytes.Replace(b, []byte("<reportType>"), []byte("<reportType>\x00\x00"), 1)
		})}, maxAlloc: 20 << 20, fails: wantParseError(faultCover)},
		{name: "NUL bytes in information table", fault: &edgartest.Fault{Match: faultTxt, Serve: edgartest.Edit(func(b []byte) []byte {
			return bytes.Replace(b, []byte("<nameOfIssuer>"), []byte("<nameOfIssuer>\x00"), 1)
		})}, maxAlloc: 20 << 20, fails: wantParseError(faultTxt)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := edgartest.NewServer(t, tt.fault)
			c := e.Client(t, "")
			query, want := faultQuery(c, tt.filings, wantSnap, wantFilings)
			ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
			defer cancel()
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			got, err := query(ctx)
			runtime.ReadMemStats(&after)
			alloc := int64(after.TotalAlloc - before.TotalAlloc)
			t.Logf("%v; %d MiB allocated", err, alloc>>20)
			if ctx.Err() != nil {
				t.Fatalf("hang guard: the call was still running after %v (%v)", hangGuard, err)
			}
			if tt.fails == nil {
				if err != nil {
					t.Fatalf("call failed: %v", err)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("answer (-want +got):\n%s", diff)
				}
			} else if msg := tt.fails(err); msg != "" {
				t.Fatalf("call returned %v; %s", err, msg)
			}
			if alloc > tt.maxAlloc {
				t.Errorf("call allocated %d MiB, want at most %d MiB", alloc>>20, tt.maxAlloc>>20)
			}
			if n := e.Count(tt.fault.Match); tt.requests != 0 && n != tt.requests {
				t.Errorf("%d requests for %s, want %d (not retried)", n, tt.fault.Match, tt.requests)
			}
			answersOnceCleared(t, e, query, want)
		})
	}
}
