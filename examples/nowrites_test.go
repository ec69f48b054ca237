package examples_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edgar13f/edgar13f/examples/internal/testkit"
)

// TestNoWritesOutsideCacheDir runs the CLI and the MCP server with HOME,
// XDG_* and TMPDIR pointed at fresh directories and a read-only working
// directory, and lists every file before and after: only the default cache
// directory may change. A cache directory configured elsewhere must be
// caught as a write outside it.
func TestNoWritesOutsideCacheDir(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binaries")
	}
	bin := t.TempDir()
	for _, name := range []string{"edgar13f", "edgar13f-mcp"} {
		if _, err := testkit.Build(bin, "./"+name, false); err != nil {
			t.Fatal(err)
		}
	}
	srv, _ := testkit.MirrorServer(t, nil)

	const accession = "0009000001-25-000003"
	cli := func(t *testing.T, cmd *exec.Cmd) {
		cmd.Args = append(cmd.Args, "holdings", "9000001", "--period", "2024-12-31", "--as-of", "2025-04-02", "--format", "json")
		out, err := cmd.Output()
		if err != nil || !bytes.Contains(out, []byte(accession)) {
			t.Fatalf("edgar13f holdings: %v\n%s", err, out)
		}
	}
	server := func(t *testing.T, cmd *exec.Cmd) {
		ctx := testkit.Context(t)
		s := testkit.Connect(t, cmd)
		defer s.Close()
		res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "get_holdings_as_of",
			Arguments: json.RawMessage(`{"cik":"9000001","period":"2024-12-31","as_of":"2025-04-02"}`)})
		if err != nil || res.IsError || len(res.Content) != 1 {
			t.Fatalf("tools/call: %v, %+v", err, res)
		}
		if text, ok := res.Content[0].(*mcp.TextContent); !ok || !strings.Contains(text.Text, accession) {
			t.Fatalf("tools/call answered %+v", res.Content[0])
		}
	}
	tests := []struct {
		name      string
		bin       string
		run       func(*testing.T, *exec.Cmd)
		elsewhere string // a cache directory given outside the allowed one, relative to root
	}{
		{"CLI", "edgar13f", cli, ""},
		{"MCP server", "edgar13f-mcp", server, ""},
		{"CLI with a cache directory elsewhere", "edgar13f", cli, "home/elsewhere"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			var env []string
			for _, v := range []string{"HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR", "TMPDIR"} {
				d := filepath.Join(root, strings.ToLower(v))
				if err := os.Mkdir(d, 0o700); err != nil {
					t.Fatal(err)
				}
				env = append(env, v+"="+d)
			}
			work := filepath.Join(root, "work")
			if err := os.Mkdir(work, 0o555); err != nil {
				t.Fatal(err)
			}
			env = append(env, "PATH="+os.Getenv("PATH"), "SEC_USER_AGENT=edgar13f tests test@example.com", "EDGAR13F_BASE_URL="+srv.URL)
			if tt.elsewhere != "" {
				env = append(env, "EDGAR13F_CACHE_DIR="+filepath.Join(root, tt.elsewhere))
			}
			allowed := filepath.Join(root, "xdg_cache_home", "edgar13f")
			before := testkit.ListTree(t, root)
			cmd := exec.Command(filepath.Join(bin, tt.bin))
			cmd.Dir, cmd.Env = work, env
			tt.run(t, cmd)
			after := testkit.ListTree(t, root)
			changed := testkit.ChangesOutside(before, after, allowed)
			if tt.elsewhere == "" {
				if diff := cmp.Diff([]string(nil), changed); diff != "" {
					t.Errorf("paths changed outside the cache directory (-want +got):\n%s", diff)
				}
				if len(testkit.ChangesOutside(before, after, filepath.Join(root, "nowhere"))) < 5 {
					t.Errorf("the default cache directory %s was not used", allowed)
				}
			} else if !slices.Contains(changed, filepath.Join(root, tt.elsewhere)) {
				t.Errorf("writes to %s went unnoticed: changed %q", tt.elsewhere, changed)
			}
		})
	}
}
