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

// rawConn is a server run over pipes, spoken to line by line.
type rawConn struct {
	t    *testing.T
	in   *io.PipeWriter
	out  *bufio.Reader
	outR *io.PipeReader
	done chan error // receives what the server's Run returned
}

// rawSession runs srv over pipes through the transport that newTransport
// makes of the server's ends of them.
func rawSession(t *testing.T, srv *mcp.Server, newTransport func(in io.ReadCloser, out io.Writer) mcp.Transport) *rawConn {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	c := &rawConn{t: t, in: inW, out: bufio.NewReaderSize(outR, 1<<16), outR: outR, done: make(chan error, 1)}
	go func() { c.done <- srv.Run(ctx, newTransport(inR, outW)) }()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		outR.Close()
		c.wait()
	})
	return c
}

// sdkTransport is the SDK's own stdio transport over in and out.
func sdkTransport(in io.ReadCloser, out io.Writer) mcp.Transport {
	return &mcp.IOTransport{Reader: in, Writer: nopCloser{out}}
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// send writes line and, if it carries an id, returns the next line the
// server writes.
func (c *rawConn) send(line string) string {
	c.t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatal(err)
	}
	if !strings.Contains(line, `"id"`) {
		return ""
	}
	return c.line()
}

// line returns the next line the server writes.
func (c *rawConn) line() string {
	c.t.Helper()
	resp, err := c.out.ReadString('\n')
	if err != nil {
		c.t.Fatal(err)
	}
	return resp
}

// closeOutput closes the reading end of the server's output.
func (c *rawConn) closeOutput() { c.outR.Close() }

// wait returns what the server's Run returned, once it has (hangGuard
// bounds a server that never stops; it is no speed requirement).
func (c *rawConn) wait() error {
	select {
	case err := <-c.done:
		c.done <- err
		return err
	case <-time.After(hangGuard):
		c.t.Error("server did not stop")
		return nil
	}
}

// answerServers returns two servers with the same tools, one returning
// the whole text of write's answer in its results (what the SDK encodes
// itself), the other s's placeholders for it. Tool "progress" reports its
// progress before it answers, if the call asks for it.
func answerServers(s *server, write answer) (plain, spliced *mcp.Server) {
	var full bytes.Buffer
	if err := write(&full); err != nil {
		panic(err)
	}
	text := strings.TrimSuffix(full.String(), "\n")
	whole := func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
	}
	placeheld := s.handle(func(context.Context, json.RawMessage) (answer, error) { return write, nil })
	withProgress := func(h mcp.ToolHandler) mcp.ToolHandler {
		return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if token := req.Params.GetProgressToken(); token != nil {
				if err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Message: "A&<b>", Progress: 1}); err != nil {
					return nil, err
				}
			}
			return h(ctx, req)
		}
	}
	servers := []*mcp.Server{nil, nil}
	for i, h := range []mcp.ToolHandler{whole, placeheld} {
		servers[i] = mcp.NewServer(&mcp.Implementation{Name: "edgar13f", Version: wire.Version}, nil)
		servers[i].AddTool(&mcp.Tool{Name: "holdings", InputSchema: json.RawMessage(`{"type":"object"}`)}, h)
		servers[i].AddTool(&mcp.Tool{Name: "progress", InputSchema: json.RawMessage(`{"type":"object"}`)}, withProgress(h))
	}
	return servers[0], servers[1]
}

// TestAnswerBytes: every line the server's transport writes is byte for
// byte the one the SDK's stdio transport writes when the tool result
// carries the whole answer text: answers with numeric and string ids,
// errors, notifications sent during a call, batches (before 2025-06-18),
// and the end of a session that sends a batch when batches are gone.
func TestAnswerBytes(t *testing.T) {
	snap := testkit.TrickySnapshot()
	write := func(w io.Writer) error { return wire.WriteHoldings(w, snap, false) }
	var full bytes.Buffer
	if err := write(&full); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(full.String(), "&") {
		t.Fatal("the answer does not exercise HTML escaping")
	}
	const call = `{"jsonrpc":"2.0","id":ID,"method":"tools/call","params":{"name":"holdings","arguments":{}}}`
	calls := func(ids ...string) []string {
		var lines []string
		for _, id := range ids {
			lines = append(lines, strings.Replace(call, "ID", id, 1))
		}
		return lines
	}
	for _, version := range []string{"2025-06-18", "2025-03-26"} {
		t.Run(version, func(t *testing.T) {
			s := &server{answers: newAnswers()}
			plain, spliced := answerServers(s, write)
			want := rawSession(t, plain, sdkTransport)
			got := rawSession(t, spliced, func(in io.ReadCloser, out io.Writer) mcp.Transport {
				return &transport{in: in, out: out, log: io.Discard, answers: s.answers}
			})
			lines := append([]string{
				`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
				`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
			}, calls("2", `"two"`)...)
			lines = append(lines,
				`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"no&<such>"}}`,
				`{"jsonrpc":"2.0","id":6,"method":"nosuch/method"}`,
				`{"jsonrpc":"2.0","id":7,"method":"ping"}`,
			)
			if version < batchesEndIn {
				lines = append(lines,
					"["+strings.Join(calls("3", "4"), ",")+"]",
					// The SDK escapes <, > and & in a batch, outside the answers too.
					"["+strings.Join(calls("8"), ",")+`,{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"no&<such>"}}]`,
				)
			}
			for _, line := range lines {
				w, g := want.send(line), got.send(line)
				if diff := cmp.Diff(w, g); diff != "" {
					t.Fatalf("response to %.60s (-SDK +spliced):\n%s", line, diff)
				}
				if strings.Contains(line, `"holdings"`) && strings.Count(g, `{\"status\":\"ok\"`) != strings.Count(line, `"holdings"`) {
					t.Errorf("response does not carry every answer: %.300s", g)
				}
			}
			if w := want.send(strings.Replace(call, "ID", "10", 1)); !strings.Contains(w, `\u0026`) {
				t.Fatal("the answer does not exercise HTML escaping")
			}
			got.send(strings.Replace(call, "ID", "10", 1))

			// A progress notification, then the answer.
			progress := `{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"progress","_meta":{"progressToken":"p"}}}`
			wn, wr := want.send(progress), want.line()
			gn, gr := got.send(progress), got.line()
			if diff := cmp.Diff(wn, gn); diff != "" {
				t.Fatalf("notification (-SDK +spliced):\n%s", diff)
			}
			if diff := cmp.Diff(wr, gr); diff != "" {
				t.Fatalf("response after a notification (-SDK +spliced):\n%s", diff)
			}
			if n := len(s.answers.pending); n != 0 {
				t.Errorf("%d answers still pending after every response was written", n)
			}

			if version >= batchesEndIn { // a batch now ends the session, as the SDK's does
				batch := "[" + strings.Join(calls("12", "13"), ",") + "]"
				var wout, gout bytes.Buffer
				drained := make(chan bool, 2)
				for _, c := range []struct {
					conn *rawConn
					out  *bytes.Buffer
				}{{want, &wout}, {got, &gout}} {
					go func() { _, _ = io.Copy(c.out, c.conn.out); drained <- true }()
					if _, err := io.WriteString(c.conn.in, batch+"\n"); err != nil {
						t.Fatal(err)
					}
					// The server has read the batch: what ends its input
					// now comes after it.
					c.conn.in.Close()
				}
				w, g := want.wait(), got.wait()
				if w == nil || g == nil || w.Error() != g.Error() {
					t.Errorf("after a batch: session ended with %v, want %v", g, w)
				}
				want.closeOutput()
				got.closeOutput()
				<-drained
				<-drained
				if wout.Len() != 0 || gout.Len() != 0 {
					t.Errorf("after a batch: the SDK wrote %q, the server %q; want nothing", wout.String(), gout.String())
				}
			}
		})
	}
}

// TestBatchWithNotification: a batch that holds a notification besides
// calls is answered with the responses to its calls. (The SDK's own stdio
// transport waits for a response to the notification too, and so never
// answers such a batch.)
func TestBatchWithNotification(t *testing.T) {
	snap := testkit.TrickySnapshot()
	s := &server{answers: newAnswers()}
	plain, spliced := answerServers(s, func(w io.Writer) error { return wire.WriteHoldings(w, snap, false) })
	want := rawSession(t, plain, sdkTransport)
	got := rawSession(t, spliced, func(in io.ReadCloser, out io.Writer) mcp.Transport {
		return &transport{in: in, out: out, log: io.Discard, answers: s.answers}
	})
	for _, c := range []*rawConn{want, got} {
		c.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
		c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	}
	const call = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"holdings"}}`
	w := want.send("[" + call + "]")
	// The batch, a notification and a ping call, written without reading:
	// calls are served concurrently, so either answer may come first. A
	// batch left unanswered leaves the second read waiting, and the test's
	// deadline fails it.
	for _, line := range []string{
		"[" + call + `,{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}]`,
		`{"jsonrpc":"2.0","method":"ping"}`,
		`{"jsonrpc":"2.0","id":3,"method":"ping"}`,
	} {
		if _, err := io.WriteString(got.in, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	var batchAnswer, pingAnswer string
	for range 2 {
		line := got.line()
		if strings.HasPrefix(line, "[") {
			batchAnswer = line
		} else {
			pingAnswer = line
		}
	}
	if diff := cmp.Diff(w, batchAnswer); diff != "" {
		t.Errorf("(-SDK, the call alone +spliced, with a notification):\n%s", diff)
	}
	if pingAnswer != `{"jsonrpc":"2.0","id":3,"result":{}}`+"\n" {
		t.Errorf("ping: %q", pingAnswer)
	}
}

// TestAnswersWritePassesOtherText: text that only looks like a placeholder
// (another process's, an unknown one, an unfinished one) is written as is.
func TestAnswersWritePassesOtherText(t *testing.T) {
	var out bytes.Buffer
	a := newAnswers()
	id := a.placeholder(func(w io.Writer) error { _, err := io.WriteString(w, "A&\n"); return err })
	other := newAnswers().placeholder(func(io.Writer) error { return nil })
	p := strings.TrimSuffix(id, "1")
	msg := `{"a":"` + other + `","b":"` + p + `2","c":"` + p + `1x","d":"` + p + `","e":"` + id + `","f":"` + id + "\"}\n"
	if err := a.write(&out, []byte(msg)); err != nil {
		t.Fatalf("write: %v", err)
	}
	want := `{"a":"` + other + `","b":"` + p + `2","c":"` + p + `1x","d":"` + p + `","e":"A\u0026","f":"` + id + "\"}\n"
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestAnswersWriteError: a failing answer fails the write, so that the SDK
// sees a broken connection instead of a message cut short.
func TestAnswersWriteError(t *testing.T) {
	boom := errors.New("boom")
	a := newAnswers()
	id := a.placeholder(func(w io.Writer) error { return boom })
	if err := a.write(io.Discard, []byte(`{"text":"`+id+`"}`)); err != boom {
		t.Errorf("write = %v, want %v", err, boom)
	}
}
