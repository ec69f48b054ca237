// Package bench_test holds benchmarks that drive the example binaries as a
// user runs them, on the 50,000-row benchmark filing of internal/benchdata.
package bench_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/edgar13f/edgar13f/internal/benchdata"
)

const benchRows = 50_000

// mcpSession is a running edgar13f-mcp process spoken to over its stdin
// and stdout, as an MCP client does.
type mcpSession struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	id   int
	line []byte // the last response line, reused
}

// startMCP builds edgar13f-mcp, writes the 50k-row benchmark mirror to a
// directory and starts the server reading it, with a private cache. It
// returns the session after the MCP handshake and the benchmark filing.
func startMCP(b *testing.B) (*mcpSession, benchdata.Filing) {
	b.Helper()
	dir := b.TempDir()
	bin := filepath.Join(dir, "edgar13f-mcp")
	// The examples are a module of their own: built from their directory.
	build := exec.Command("go", "build", "-o", bin, "./edgar13f-mcp")
	build.Dir = filepath.Join("..", "examples")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	f := benchdata.DefaultFiling
	f.Rows = benchRows
	mirror := filepath.Join(dir, "mirror")
	if err := os.CopyFS(mirror, benchdata.Mirror(f, benchdata.InfoTable(benchRows, ""))); err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(bin)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "EDGAR13F_FIXTURE_DIR=" + mirror, "EDGAR13F_CACHE_DIR=" + filepath.Join(dir, "cache")}
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	s := &mcpSession{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}
	b.Cleanup(func() { _ = in.Close(); _ = cmd.Wait() })
	s.request(b, "initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}`)
	if _, err := io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"); err != nil {
		b.Fatal(err)
	}
	return s, f
}

// request sends one JSON-RPC request and returns its whole response line,
// valid until the next request.
func (s *mcpSession) request(b *testing.B, method, params string) []byte {
	s.id++
	if _, err := fmt.Fprintf(s.in, `{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`+"\n", s.id, method, params); err != nil {
		b.Fatal(err)
	}
	s.line = s.line[:0]
	for {
		chunk, err := s.out.ReadSlice('\n')
		s.line = append(s.line, chunk...)
		if err == nil {
			break
		}
		if err != bufio.ErrBufferFull {
			b.Fatalf("%s: %v", method, err)
		}
	}
	if want := fmt.Appendf(nil, `"id":%d`, s.id); !bytes.Contains(s.line[:min(len(s.line), 64)], want) {
		b.Fatalf("%s: response %.200s does not answer id %d", method, s.line, s.id)
	}
	return s.line
}

// BenchmarkMCPHoldingsStdio50k times a warm get_holdings_as_of call for
// the 50,000-row filing through the built edgar13f-mcp binary over stdio:
// from writing the request line to reading the whole response line, with
// the cache already filled by a first call. It also reports the response
// size and the time of that first (cold) call.
func BenchmarkMCPHoldingsStdio50k(b *testing.B) {
	s, f := startMCP(b)
	params := fmt.Sprintf(`{"name":"get_holdings_as_of","arguments":{"cik":%q,"period":%q,"as_of":"2025-06-30"}}`, f.CIK, f.Period)
	start := time.Now()
	first := bytes.Clone(s.request(b, "tools/call", params))
	cold := time.Since(start)
	var res struct {
		Result struct {
			Content []struct{ Text string }
			IsError bool
		}
	}
	if err := json.Unmarshal(first, &res); err != nil || res.Result.IsError || len(res.Result.Content) != 1 {
		b.Fatalf("first call: %v %.300s", err, first)
	}
	var answer struct{ Holdings []json.RawMessage }
	if err := json.Unmarshal([]byte(res.Result.Content[0].Text), &answer); err != nil || len(answer.Holdings) != benchRows {
		b.Fatalf("first call: %v, %d rows, want %d", err, len(answer.Holdings), benchRows)
	}
	var last []byte
	for b.Loop() {
		last = s.request(b, "tools/call", params)
	}
	// The same answer but for the id.
	firstID, lastID := fmt.Appendf(nil, `"id":%d,`, 2), fmt.Appendf(nil, `"id":%d,`, s.id)
	if !bytes.Equal(bytes.Replace(last, lastID, firstID, 1), first) {
		b.Fatalf("a warm response (%d bytes) differs from the first (%d bytes)", len(last), len(first))
	}
	b.ReportMetric(float64(len(first)), "bytes")
	b.ReportMetric(float64(cold.Milliseconds()), "first-call-ms")
}
