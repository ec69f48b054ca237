// Package settingstest is the one test table of the example programs'
// settings (wire.Settings), which each program's tests run through its
// own start: the CLI's run, the MCP server's and the HTTP API's start.
package settingstest

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/edgar13f/edgar13f/examples/internal/testkit"
	"github.com/edgar13f/edgar13f/examples/internal/wire"
)

// A Starter starts one example program in-process with args (settings
// flags) and the environment env (as "NAME=value"), as far as reading
// its settings: the CLI's run, the MCP server's and the HTTP API's start.
// It returns the exit code (0 when the program would go on to work), what
// the program wrote on standard error, and the settings it resolved (nil
// when it stopped before).
type Starter func(t *testing.T, args, env []string) (code int, stderr string, cfg *wire.Config)

// Resolved is what a settings case checks of the settings a program went
// on with.
type Resolved struct {
	UserAgent, CacheDir, FixtureDir, BaseURL, Addr string
	RedactOff, AgentMode                           bool
}

// settingsCase is one case of the settings table's test.
type settingsCase struct {
	name      string
	args, env []string
	refusedBy wire.Program // the programs that refuse to start (exit 2)
	message   string       // the refusal, the same in every program; a prefix when it ends in "..."
	want      Resolved     // the settings of a program that starts (Addr, AgentMode: of the programs that read them)
}

// Run runs every case of the example programs' one settings
// test table through start, the program prog, checking that a refused
// setting is refused with exit 2 and the same message by every program,
// and that the settings of a program that starts are those the table
// says: a flag overrides its variable, a flag of fixture directory or
// base URL overrides the other's variable, and every program reads every
// variable that applies to it. A program that starts with a fixture
// directory opens its tree once (wire.OpenMirror counts the openings, so
// the cases do not run in parallel).
func Run(t *testing.T, prog wire.Program, start Starter) {
	mirror := testkit.Mirror()
	notTree := t.TempDir()
	cache, otherCache := t.TempDir(), t.TempDir()
	const base = "http://127.0.0.1:1"
	const ua = "edgar13f tests test@example.com"
	fixture := "EDGAR13F_FIXTURE_DIR=" + mirror
	cases := []settingsCase{
		{name: "fixture variable", env: []string{fixture}, want: Resolved{FixtureDir: mirror}},
		{name: "fixture flag beats base URL variable", args: []string{"--fixture-dir", mirror}, env: []string{"EDGAR13F_BASE_URL=" + base},
			want: Resolved{FixtureDir: mirror}},
		{name: "base URL flag beats fixture variable", args: []string{"--base-url", base}, env: []string{fixture},
			want: Resolved{BaseURL: base}},
		{name: "fixture flag beats fixture variable", args: []string{"--fixture-dir", mirror}, env: []string{"EDGAR13F_FIXTURE_DIR=" + notTree},
			want: Resolved{FixtureDir: mirror}},
		{name: "fixture and base URL variables", env: []string{fixture, "EDGAR13F_BASE_URL=" + base}, refusedBy: wire.AllPrograms,
			message: "give --fixture-dir (EDGAR13F_FIXTURE_DIR) or --base-url (EDGAR13F_BASE_URL), not both"},
		{name: "fixture and base URL flags", args: []string{"--fixture-dir", mirror, "--base-url", base}, refusedBy: wire.AllPrograms,
			message: "give --fixture-dir (EDGAR13F_FIXTURE_DIR) or --base-url (EDGAR13F_BASE_URL), not both"},
		{name: "redaction off variable with fixture", env: []string{fixture, "EDGAR13F_REDACT=off"}, refusedBy: wire.AllPrograms,
			message: "--no-redact (EDGAR13F_REDACT=off) cannot be combined with --fixture-dir (EDGAR13F_FIXTURE_DIR): rows of a fixture directory are always redacted"},
		{name: "no-redact flag with fixture", args: []string{"--no-redact"}, env: []string{fixture}, refusedBy: wire.AllPrograms,
			message: "--no-redact (EDGAR13F_REDACT=off) cannot be combined with --fixture-dir (EDGAR13F_FIXTURE_DIR): rows of a fixture directory are always redacted"},
		{name: "redaction off variable with fixture flag", args: []string{"--fixture-dir", mirror}, env: []string{"EDGAR13F_REDACT=off"}, refusedBy: wire.AllPrograms,
			message: "--no-redact (EDGAR13F_REDACT=off) cannot be combined with --fixture-dir (EDGAR13F_FIXTURE_DIR): rows of a fixture directory are always redacted"},
		{name: "no-redact=false overrides redaction off", args: []string{"--no-redact=false"}, env: []string{fixture, "EDGAR13F_REDACT=off"},
			want: Resolved{FixtureDir: mirror}},
		{name: "redaction off variable with base URL", env: []string{"EDGAR13F_BASE_URL=" + base, "EDGAR13F_REDACT=off"},
			want: Resolved{BaseURL: base, RedactOff: true}},
		{name: "redaction not exactly off", env: []string{"EDGAR13F_BASE_URL=" + base, "EDGAR13F_REDACT=OFF"},
			want: Resolved{BaseURL: base}},
		{name: "fixture not a mirror tree", env: []string{"EDGAR13F_FIXTURE_DIR=" + notTree}, refusedBy: wire.AllPrograms,
			message: "--fixture-dir (EDGAR13F_FIXTURE_DIR): " + notTree + " is not an EDGAR mirror tree: it has no www.sec.gov or data.sec.gov directory..."},
		{name: "base URL without scheme", env: []string{"EDGAR13F_BASE_URL=127.0.0.1:8080"}, refusedBy: wire.AllPrograms,
			message: `--base-url (EDGAR13F_BASE_URL) "127.0.0.1:8080" is not an http or https URL with a host and no query or fragment, such as http://127.0.0.1:8080`},
		{name: "base URL flag with query", args: []string{"--base-url", "http://127.0.0.1:8080/?x=1"}, refusedBy: wire.AllPrograms,
			message: `--base-url (EDGAR13F_BASE_URL) "http://127.0.0.1:8080/?x=1" is not an http or https URL with a host and no query or fragment, such as http://127.0.0.1:8080`},
		{name: "empty flag", args: []string{"--base-url", ""}, env: []string{fixture}, refusedBy: wire.AllPrograms,
			message: "--base-url is empty: give a value or leave the flag out"},
		{name: "embedder URL without model", env: []string{fixture, "EDGAR13F_EMBED_URL=http://127.0.0.1:1/v1"}, refusedBy: wire.AllPrograms,
			message: "the filing search's embedder (EDGAR13F_EMBED_URL, EDGAR13F_EMBED_MODEL): ..."},
		{name: "local embedding model with an embedder URL", env: []string{fixture, "EDGAR13F_EMBED_URL=http://127.0.0.1:1/v1", "EDGAR13F_EMBED_MODEL=local:bge-small-en-v1.5"}, refusedBy: wire.AllPrograms,
			message: "the filing search's embedder: EDGAR13F_EMBED_MODEL=local:bge-small-en-v1.5 runs in-process; unset EDGAR13F_EMBED_URL (http://127.0.0.1:1/v1), which names an embedding server"},
		{name: "user agent flag beats variable", args: []string{"--user-agent", ua}, env: []string{fixture, "SEC_USER_AGENT=other other@example.com"},
			want: Resolved{FixtureDir: mirror, UserAgent: ua}},
		{name: "user agent variable", env: []string{fixture, "SEC_USER_AGENT=" + ua}, want: Resolved{FixtureDir: mirror, UserAgent: ua}},
		{name: "cache directory flag beats variable", args: []string{"--cache-dir", otherCache}, env: []string{fixture},
			want: Resolved{FixtureDir: mirror, CacheDir: otherCache}},
		{name: "agent mode", env: []string{fixture, "EDGAR13F_AGENT_MODE=on"}, want: Resolved{FixtureDir: mirror, AgentMode: true}},
		{name: "address variable", env: []string{fixture, "EDGAR13F_HTTP_ADDR=127.0.0.1:9"}, want: Resolved{FixtureDir: mirror, Addr: "127.0.0.1:9"}},
		{name: "address not HOST:PORT", env: []string{fixture, "EDGAR13F_HTTP_ADDR=8801"}, refusedBy: wire.HTTP, want: Resolved{FixtureDir: mirror},
			message: `--addr (EDGAR13F_HTTP_ADDR) "8801" is not HOST:PORT, such as 127.0.0.1:8801`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := append([]string{"EDGAR13F_CACHE_DIR=" + cache}, tc.env...)
			opens := 0
			open := wire.OpenMirror
			wire.OpenMirror = func(dir string) (fs.FS, error) { opens++; return open(dir) }
			code, stderr, cfg := start(t, tc.args, env)
			wire.OpenMirror = open
			if tc.refusedBy&prog != 0 {
				if code != 2 || cfg != nil || !refusal(stderr, tc.message) {
					t.Errorf("exit %d, stderr %q; want exit 2 with the message %q", code, stderr, tc.message)
				}
				return
			}
			if code != 0 || cfg == nil {
				t.Fatalf("exit %d, stderr %q; want the program to start", code, stderr)
			}
			want := tc.want
			if want.CacheDir == "" {
				want.CacheDir = cache
			}
			if prog != wire.MCP {
				want.AgentMode = false
			}
			switch {
			case prog != wire.HTTP:
				want.Addr = ""
			case want.Addr == "":
				want.Addr = wire.DefaultAddr
			}
			got := Resolved{UserAgent: cfg.UserAgent, CacheDir: cfg.CacheDir, FixtureDir: cfg.FixtureDir, BaseURL: cfg.BaseURL,
				Addr: cfg.Addr, RedactOff: cfg.RedactOff, AgentMode: cfg.AgentMode}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("settings (-want +got):\n%s", diff)
			}
			if got.FixtureDir != "" && opens != 1 {
				t.Errorf("the fixture directory's tree was opened %d times at start-up; want once", opens)
			}
		})
	}
}

// refusal reports whether stderr holds message after a program's prefix
// ("edgar13f chunk: ", "edgar13f-mcp: "), at the start of a line and
// ending it unless message ends in "...".
func refusal(stderr, message string) bool {
	prefix, open := strings.CutSuffix(message, "...")
	for _, line := range strings.Split(stderr, "\n") {
		_, rest, ok := strings.Cut(line, ": ")
		if !ok || !strings.HasPrefix(line, "edgar13f") {
			continue
		}
		if rest == message || open && strings.HasPrefix(rest, prefix) {
			return true
		}
	}
	return false
}
