package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edgar13f/edgar13f/examples/internal/testkit"
	"github.com/edgar13f/edgar13f/examples/internal/wire"
)

// rawSession runs srv over pipes with out wrapping the server's side of
// standard output, and returns a function sending one line and reading
// the response line.
func rawSession(t *testing.T, srv *mcp.Server, out func(io.Writer) io.WriteCloser) func(line string) string {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, &mcp.IOTransport{Reader: inR, Writer: out(outW)}) }()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		outR.Close()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("server did not stop")
		}
	})
	lines := bufio.NewReaderSize(outR, 1<<16)
	return func(line string) string {
		t.Helper()
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(line, `"id"`) {
			resp, err := lines.ReadString('\n')
			if err != nil {
				t.Fatal(err)
			}
			return resp
		}
		return ""
	}
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// TestAnswerBytes: the response line the server writes for an answer is
// byte for byte the one the SDK writes when the tool result carries the
// whole answer text, for single calls and for batches.
func TestAnswerBytes(t *testing.T) {
	snap := testkit.TrickySnapshot()
	write := func(w io.Writer) error { return wire.WriteHoldings(w, snap, false) }
	var full bytes.Buffer
	if err := write(&full); err != nil {
		t.Fatal(err)
	}
	text := strings.TrimSuffix(full.String(), "\n")

	tool := &mcp.Tool{Name: "holdings", InputSchema: json.RawMessage(`{"type":"object"}`)}
	plain := mcp.NewServer(&mcp.Implementation{Name: "edgar13f", Version: wire.Version}, nil)
	plain.AddTool(tool, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
	})
	var answers *answerWriter
	s := &server{}
	spliced := mcp.NewServer(&mcp.Implementation{Name: "edgar13f", Version: wire.Version}, nil)
	spliced.AddTool(tool, s.handle(func(context.Context, json.RawMessage) (answer, error) { return write, nil }))

	for _, version := range []string{"2025-06-18", "2025-03-26"} {
		t.Run(version, func(t *testing.T) {
			want := rawSession(t, plain, func(w io.Writer) io.WriteCloser { return nopCloser{w} })
			got := rawSession(t, spliced, func(w io.Writer) io.WriteCloser {
				answers = newAnswerWriter(w)
				s.answers = answers
				return answers
			})
			lines := []string{
				`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
				`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
				`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"holdings","arguments":{}}}`,
			}
			if version < "2025-06-18" { // batches are allowed before 2025-06-18
				lines = append(lines, `[{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"holdings"}},{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"holdings"}}]`)
			}
			for _, line := range lines {
				w, g := want(line), got(line)
				if diff := cmp.Diff(w, g); diff != "" {
					t.Fatalf("response to %.60s (-SDK +spliced):\n%s", line, diff)
				}
				if line[0] == '[' && strings.Count(g, `{\"status\":\"ok\"`) != 2 {
					t.Errorf("batch response does not carry both answers: %.300s", g)
				}
			}
			if !strings.Contains(full.String(), "&") || !strings.Contains(want(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"holdings"}}`), `\u0026`) {
				t.Fatal("the answer does not exercise HTML escaping")
			}
			got(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"holdings"}}`)
			if n := len(answers.pending); n != 0 {
				t.Errorf("%d answers still pending after every response was written", n)
			}
		})
	}
}

// TestAnswerWriterPassesOtherText: text that only looks like a placeholder
// (another process's, an unknown one, an unfinished one) is written as is.
func TestAnswerWriterPassesOtherText(t *testing.T) {
	var out bytes.Buffer
	a := newAnswerWriter(&out)
	id := a.placeholder(func(w io.Writer) error { _, err := io.WriteString(w, "A&\n"); return err })
	other := newAnswerWriter(io.Discard).placeholder(func(io.Writer) error { return nil })
	p := strings.TrimSuffix(id, "1")
	msg := `{"a":"` + other + `","b":"` + p + `2","c":"` + p + `1x","d":"` + p + `","e":"` + id + `","f":"` + id + "\"}\n"
	if n, err := a.Write([]byte(msg)); n != len(msg) || err != nil {
		t.Fatalf("Write = %d, %v", n, err)
	}
	want := `{"a":"` + other + `","b":"` + p + `2","c":"` + p + `1x","d":"` + p + `","e":"A\u0026","f":"` + id + "\"}\n"
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestAnswerWriterError: a failing answer or output fails the Write, so
// that the SDK sees a broken connection instead of a truncated message.
func TestAnswerWriterError(t *testing.T) {
	boom := errors.New("boom")
	a := newAnswerWriter(io.Discard)
	id := a.placeholder(func(w io.Writer) error { return boom })
	if _, err := a.Write([]byte(`{"text":"` + id + `"}`)); err != boom {
		t.Errorf("Write = %v, want %v", err, boom)
	}
}
