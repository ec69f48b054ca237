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
