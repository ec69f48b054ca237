package main

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edgar13f/edgar13f/examples/internal/testkit"
	"github.com/edgar13f/edgar13f/examples/internal/wire"
)

// TestMirrorLacksCompanyLogged: a company the fixture directory's tree has
// no file of is declined unknown_cik exactly as the frozen contract's
// server declines it (SPEC section 9: the answer is EDGAR's, whatever the
// source), and the server says on standard error, as the CLI does, that
// the tree lacks the company and which file it looked for. A decline of a
// company the tree has (no 13F filed by that date) logs nothing. The
// cases are testkit.MirrorLacksCompany, shared with the HTTP API's test.
func TestMirrorLacksCompanyLogged(t *testing.T) {
	var stderr testkit.SyncBuffer
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

	const tool = "list_13f_filings"
	for _, tc := range testkit.MirrorLacksCompany {
		args := fmt.Sprintf(`{"cik":%q,"as_of":%q}`, tc.CIK, tc.AsOf)
		before := len(stderr.String())
		r := callTool(t, s, tool, args, wire.Disclaimer)
		if r.isError || r.obj["status"] != "declined" || r.obj["reason"] != "unknown_cik" || r.obj["message"] != tc.Message {
			t.Errorf("%s(%s) = %v; want declined unknown_cik %q", tool, args, r.obj, tc.Message)
		}
		if msg, _ := r.obj["message"].(string); strings.Contains(msg, "mirror") {
			t.Errorf("%s(%s): the answer speaks of the mirror: %q", tool, args, msg)
		}
		logged, want := stderr.String()[before:], tc.Logged("edgar13f-mcp", tool, mirror)
		if want == "" && logged != "" || want != "" && !strings.HasPrefix(logged, want) {
			t.Errorf("%s(%s) logged %q; want %q", tool, args, logged, want)
		}
	}
}
