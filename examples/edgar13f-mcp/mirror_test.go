package main

import (
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edgar13f/edgar13f/examples/internal/testkit"
	"github.com/edgar13f/edgar13f/examples/internal/wire"
)

// syncBuffer is a strings.Builder safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestMirrorLacksCompanyLogged: a company the fixture directory's tree has
// no file of is declined unknown_cik exactly as the frozen contract's
// server declines it (SPEC section 9: the answer is EDGAR's, whatever the
// source), and the server says on standard error, as the CLI does, that
// the tree lacks the company and which file it looked for. A decline of a
// company the tree has (no 13F filed by that date) logs nothing.
func TestMirrorLacksCompanyLogged(t *testing.T) {
	var stderr syncBuffer
	st, code := startServer(nil, io.Discard, &stderr, testkit.Getenv([]string{"EDGAR13F_FIXTURE_DIR=" + mirror, "EDGAR13F_CACHE_DIR=" + t.TempDir()}))
	if st == nil {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	defer st.close()
	ctx := testkit.Context(t)
	ct, stt := mcp.NewInMemoryTransports()
	ss, err := st.srv.Connect(ctx, stt, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	s, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	want := "edgar13f-mcp: list_13f_filings declined unknown_cik: the mirror tree " + mirror +
		" lacks this company: it has no file data.sec.gov/submissions/CIK0000789019.json"
	for _, tc := range []struct{ tool, args, reason, message, log string }{
		{"list_13f_filings", `{"cik":"789019","as_of":"2025-03-01"}`, "unknown_cik", "EDGAR has no filer with CIK 789019", want},
		{"list_13f_filings", `{"cik":"1067983","as_of":"1990-03-01"}`, "unknown_cik", "CIK 1067983 filed no 13F on or before 1990-03-01", ""},
	} {
		before := len(stderr.String())
		r := callTool(t, s, tc.tool, tc.args, wire.Disclaimer)
		if r.isError || r.obj["status"] != "declined" || r.obj["reason"] != tc.reason || tc.message != "" && r.obj["message"] != tc.message {
			t.Errorf("%s(%s) = %v; want declined %s %q", tc.tool, tc.args, r.obj, tc.reason, tc.message)
		}
		if msg, _ := r.obj["message"].(string); strings.Contains(msg, "mirror") {
			t.Errorf("%s(%s): the answer speaks of the mirror: %q", tc.tool, tc.args, msg)
		}
		logged := stderr.String()[before:]
		if tc.log == "" && logged != "" || tc.log != "" && !strings.HasPrefix(logged, tc.log) {
			t.Errorf("%s(%s) logged %q; want %q", tc.tool, tc.args, logged, tc.log)
		}
	}
}
