package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edgar13f/edgar13f/examples/internal/testkit"
)

// start starts cmd and returns pipes to its standard input and output and
// a channel receiving the result of its Wait.
func start(t *testing.T, cmd *exec.Cmd) (io.WriteCloser, io.ReadCloser, <-chan error) {
	t.Helper()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	return stdin, stdout, done
}

// connectPipes speaks MCP to a server started by start.
func connectPipes(t *testing.T, stdin io.WriteCloser, stdout io.ReadCloser) *mcp.ClientSession {
	t.Helper()
	ctx := testkit.Context(t)
	s, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, &mcp.IOTransport{Reader: stdout, Writer: stdin}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	return s
}

// hangGuard is how long a test waits for the server before it reports a
// hang. It bounds a test that would otherwise never end; it is not a speed
// requirement, so it is far longer than any healthy run needs.
const hangGuard = 2 * time.Minute

// wait returns the exit code of the server whose Wait result done
// receives, failing the test if the server hangs (is still running after
// hangGuard).
func wait(t *testing.T, done <-chan error) int {
	t.Helper()
	select {
	case err := <-done:
		code, err := testkit.ExitCode(err)
		if err != nil {
			t.Fatalf("wait: %v", err)
		}
		return code
	case <-time.After(hangGuard):
		t.Fatalf("server hung: still running %v after it should have exited", hangGuard)
		return -1
	}
}

// TestExitOnEOF: the end of standard input, and nothing else, ends the
// server with exit code 0. The test closes stdin and sends no signal (the
// SDK's command transport would send SIGTERM after a while, which would
// hide a server that ignores end of input), so the server exits on its own
// or the hang guard fails the test.
func TestExitOnEOF(t *testing.T) {
	stdin, stdout, done := start(t, command(t, "EDGAR13F_FIXTURE_DIR="+mirror))
	s := connectPipes(t, stdin, stdout)
	defer s.Close()
	if r := call(t, s, "list_13f_filings", `{"cik":"9000003","as_of":"2025-05-16"}`); r.obj["status"] != "ok" {
		t.Fatalf("answer %v", r.obj)
	}
	if err := stdin.Close(); err != nil {
		t.Fatalf("close stdin: %v", err)
	}
	if code := wait(t, done); code != 0 {
		t.Errorf("exit code %d at end of input, want 0", code)
	}
}

func TestSIGTERMMidCall(t *testing.T) {
	edgar, started := testkit.StallingEDGAR(t)
	cmd := command(t, "SEC_USER_AGENT=edgar13f tests test@example.com", "EDGAR13F_BASE_URL="+edgar)
	stdin, stdout, done := start(t, cmd)
	s := connectPipes(t, stdin, stdout)
	defer s.Close()
	ctx := testkit.Context(t)
	go s.CallTool(ctx, &mcp.CallToolParams{Name: "get_holdings_as_of", Arguments: json.RawMessage(`{"cik":"1067983","period":"2023-09-30","as_of":"2024-05-15"}`)})
	select {
	case <-started:
	case <-time.After(hangGuard):
		t.Fatal("hung: no request reached EDGAR")
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := wait(t, done); code != 0 {
		t.Errorf("exit code %d after SIGTERM, want 0", code)
	}
}

func TestMalformedLines(t *testing.T) {
	stdin, stdout, done := start(t, command(t, "EDGAR13F_FIXTURE_DIR="+mirror))
	// Garbage before the handshake: not JSON, JSON but not JSON-RPC, an empty batch.
	for _, line := range []string{"this is not json", `{"jsonrpc":"2.0","id":1`, `{"hello":"world"}`, `[]`, `[1,2]`, `   `} {
		if _, err := io.WriteString(stdin, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	s := connectPipes(t, stdin, stdout)
	r := call(t, s, "list_13f_filings", `{"cik":"9000003","as_of":"2025-05-16"}`)
	if diff := cmp.Diff(map[string]any{"isError": false, "status": "ok"}, summary(r)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	s.Close()
	if code := wait(t, done); code != 0 {
		t.Errorf("exit code %d, want 0", code)
	}
}

func TestRefusesToStart(t *testing.T) {
	notTree := t.TempDir()
	tests := []struct {
		name string
		env  []string
		want string
	}{
		{"fixture with redaction off", []string{"EDGAR13F_FIXTURE_DIR=" + mirror, "EDGAR13F_REDACT=off"},
			"edgar13f-mcp: --no-redact (EDGAR13F_REDACT=off) cannot be combined with --fixture-dir (EDGAR13F_FIXTURE_DIR): rows of a fixture directory are always redacted\n"},
		{"fixture with base URL", []string{"EDGAR13F_FIXTURE_DIR=" + mirror, "EDGAR13F_BASE_URL=http://127.0.0.1:1"},
			"edgar13f-mcp: give --fixture-dir (EDGAR13F_FIXTURE_DIR) or --base-url (EDGAR13F_BASE_URL), not both\n"},
		{"fixture not a mirror tree", []string{"EDGAR13F_FIXTURE_DIR=" + notTree},
			"edgar13f-mcp: --fixture-dir (EDGAR13F_FIXTURE_DIR): " + notTree + " is not an EDGAR mirror tree: it has no www.sec.gov or data.sec.gov directory (a mirror holds https://HOST/PATH as HOST/PATH)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, code := testkit.Run(t, command(t, tt.env...))
			if code != 2 || stderr != tt.want {
				t.Errorf("exit %d, stderr %q; want 2, %q", code, stderr, tt.want)
			}
		})
	}
}

// TestArguments: --help, -h and --version answer at once, with standard
// input left open, and anything else is a usage error.
func TestArguments(t *testing.T) {
	tests := []struct {
		args                   []string
		wantCode               int
		wantStdout, wantStderr string // prefixes
	}{
		{[]string{"--help"}, 0, "edgar13f-mcp is a Model Context Protocol server", ""},
		{[]string{"-h"}, 0, "edgar13f-mcp is a Model Context Protocol server", ""},
		{[]string{"--version"}, 0, "edgar13f-mcp 0.1.0\n", ""},
		{[]string{"serve"}, 2, "", "edgar13f-mcp: unexpected argument \"serve\"\n"},
		{[]string{"--asof", "x"}, 2, "", "edgar13f-mcp: flag provided but not defined: -asof\n"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			cmd := command(t, "EDGAR13F_FIXTURE_DIR="+mirror)
			cmd.Args = append(cmd.Args, tt.args...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			stdin, err := cmd.StdinPipe() // open until the test ends
			if err != nil {
				t.Fatal(err)
			}
			defer stdin.Close()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			code := wait(t, done)
			if code != tt.wantCode || !strings.HasPrefix(stdout.String(), tt.wantStdout) || !strings.HasPrefix(stderr.String(), tt.wantStderr) ||
				(tt.wantStderr == "") != (stderr.Len() == 0) {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d, %q..., %q...", code, stdout.String(), stderr.String(), tt.wantCode, tt.wantStdout, tt.wantStderr)
			}
		})
	}
}

// TestWarnsWithoutUserAgent: the server says at start when it would reach
// EDGAR over HTTP without a User-Agent, naming the variable to set, and
// keeps serving.
func TestWarnsWithoutUserAgent(t *testing.T) {
	const missing = `edgar13f-mcp: warning: no User-Agent for EDGAR: set SEC_USER_AGENT to "Name email@domain"`
	tests := []struct {
		name    string
		env     []string
		warning string // a prefix; "" for none
	}{
		{"live EDGAR", nil, missing},
		{"base URL", []string{"EDGAR13F_BASE_URL=http://127.0.0.1:1"}, missing},
		{"user agent without email", []string{"SEC_USER_AGENT=nobody"},
			`edgar13f-mcp: warning: User-Agent "nobody" has no email address: set SEC_USER_AGENT to "Name email@domain"`},
		{"with a user agent", []string{"SEC_USER_AGENT=edgar13f tests test@example.com"}, ""},
		{"fixture directory", []string{"EDGAR13F_FIXTURE_DIR=" + mirror}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := command(t, tt.env...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			s := testkit.Connect(t, cmd) // the warning comes before the handshake is answered
			if r := call(t, s, "list_13f_filings", `{"cik":"12a","as_of":"2025-05-16"}`); r.obj["reason"] != "invalid_argument" {
				t.Errorf("answer %v", r.obj)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(stderr.String(), tt.warning) || tt.warning == "" && stderr.Len() > 0 {
				t.Errorf("stderr %q, want %q...", stderr.String(), tt.warning)
			}
		})
	}
}
