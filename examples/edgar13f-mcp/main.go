// Command edgar13f-mcp is a Model Context Protocol server, over stdio, that
// answers point-in-time questions about SEC Form 13F holdings with the
// edgar13f library: which 13F filings a manager had made by a date, what
// it held for a quarter as known on a date, and how two quarters compare.
//
// It is configured by the environment (SEC_USER_AGENT, EDGAR13F_CACHE_DIR,
// EDGAR13F_REDACT, EDGAR13F_AGENT_MODE, EDGAR13F_FIXTURE_DIR,
// EDGAR13F_BASE_URL); see examples/README.md.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/examples/internal/wire"
)

func main() { os.Exit(run()) }

func run() int {
	cfg := wire.ConfigFromEnv(os.Getenv)
	opts, err := cfg.ClientOptions()
	if err == nil {
		var c *edgar13f.Client
		if c, err = edgar13f.NewClient(opts...); err == nil {
			out := newAnswerWriter(os.Stdout)
			return serve(newServer(c, cfg.AgentMode, out), out)
		}
	}
	fmt.Fprintf(os.Stderr, "edgar13f-mcp: %v\n", err)
	return 2
}

// serve runs srv over stdin and out (standard output) until stdin ends or
// a signal arrives.
func serve(srv *mcp.Server, out io.WriteCloser) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	done := make(chan error, 1)
	go func() {
		done <- srv.Run(ctx, &mcp.IOTransport{
			Reader: io.NopCloser(&lineFilter{r: bufio.NewReader(os.Stdin), log: os.Stderr}),
			Writer: out,
		})
	}()
	select {
	case err := <-done:
		if err != nil && ctx.Err() == nil && err != io.EOF {
			fmt.Fprintf(os.Stderr, "edgar13f-mcp: %v\n", err)
			return 1
		}
	case <-ctx.Done():
		// A signal: give a call in flight a moment to see its context end.
		select {
		case <-done:
		case <-time.After(2 * time.Second):
		}
	}
	return 0
}

// maxLine bounds one inbound JSON-RPC line, as the SDK's stdio transport does.
const maxLine = mcp.DefaultMaxLineLength

// lineFilter passes on the lines of r that are JSON-RPC messages (or
// batches) and drops every other line with a note on log, so that one
// malformed line cannot end the session.
type lineFilter struct {
	r       *bufio.Reader
	log     io.Writer
	pending []byte
}

func (f *lineFilter) Read(p []byte) (int, error) {
	for len(f.pending) == 0 {
		line, err := f.readLine()
		if len(line) > 0 && f.valid(line) {
			f.pending = append(line, '\n')
		}
		if err != nil && len(f.pending) == 0 {
			return 0, err
		}
	}
	n := copy(p, f.pending)
	f.pending = f.pending[n:]
	return n, nil
}

// readLine returns the next line without its end, or nil for one longer
// than maxLine.
func (f *lineFilter) readLine() ([]byte, error) {
	var line []byte
	tooLong := false
	for {
		chunk, err := f.r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > maxLine {
				tooLong, line = true, nil
				fmt.Fprintf(f.log, "edgar13f-mcp: ignoring an input line longer than %d bytes\n", maxLine)
			} else {
				line = append(line, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return bytes.TrimSpace(line), err
	}
}

func (f *lineFilter) valid(line []byte) bool {
	items := []json.RawMessage{line}
	if line[0] == '[' { // a batch
		if err := json.Unmarshal(line, &items); err != nil || len(items) == 0 {
			fmt.Fprintf(f.log, "edgar13f-mcp: ignoring a malformed JSON-RPC batch (%d bytes)\n", len(line))
			return false
		}
	}
	for _, it := range items {
		if _, err := jsonrpc.DecodeMessage(it); err != nil {
			fmt.Fprintf(f.log, "edgar13f-mcp: ignoring a malformed JSON-RPC line (%d bytes): %v\n", len(line), err)
			return false
		}
	}
	return true
}
