package main

import (
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f/examples/internal/settingstest"
	"github.com/edgar13f/edgar13f/examples/internal/testkit"
	"github.com/edgar13f/edgar13f/examples/internal/wire"
)

// TestSettingsTable runs the example programs' one settings table through
// the MCP server's start.
func TestSettingsTable(t *testing.T) {
	settingstest.Run(t, wire.MCP, func(t *testing.T, args, env []string) (int, string, *wire.Config) {
		var stdout, stderr strings.Builder
		st, code := startServer(args, &stdout, &stderr, testkit.Getenv(env))
		if st == nil {
			return code, stderr.String(), nil
		}
		st.close()
		return 0, stderr.String(), &st.cfg
	})
}

// TestUnreachableBaseURL: a tool call that needs EDGAR behind a base URL
// with nothing listening fails after the short retry budget, naming the
// setting and the URL.
func TestUnreachableBaseURL(t *testing.T) {
	refused := testkit.RefusedURL(t)
	s := testkit.Connect(t, command(t, "SEC_USER_AGENT=edgar13f tests test@example.com", "EDGAR13F_BASE_URL="+refused))
	r := callTool(t, s, "search_company", `{"name":"nvidia"}`, nil)
	msg, _ := r.obj["message"].(string)
	want := "internal error: --base-url (EDGAR13F_BASE_URL) " + refused + " is unreachable: "
	if !r.isError || !strings.HasPrefix(msg, want) || !strings.Contains(msg, "giving up after 3 attempts") {
		t.Errorf("isError %v, message %q; want %q... giving up after 3 attempts", r.isError, msg, want)
	}
}
