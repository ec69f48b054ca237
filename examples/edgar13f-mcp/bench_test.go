package main

import (
	"context"
	"encoding/json"
	"io"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edgar13f/edgar13f/examples/internal/testkit"
	"github.com/edgar13f/edgar13f/examples/internal/wire"
)

// BenchmarkHoldingsResult50k builds the tool result of a synthetic
// 50,000-row holdings answer, encodes it into a JSON-RPC response as the
// SDK does and has the server's transport write it: everything the server
// does for a call after the library has answered. The whole call through
// the built binary is bench/'s BenchmarkMCPHoldingsStdio50k.
func BenchmarkHoldingsResult50k(b *testing.B) {
	s := testkit.Snapshot(50000)
	var out countWriter
	srv := &server{answers: newAnswers()}
	conn, err := (&transport{in: io.NopCloser(eofReader{}), out: &out, log: io.Discard, answers: srv.answers}).Connect(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	h := srv.handle(func(context.Context, json.RawMessage) (answer, error) {
		return func(w io.Writer) error { return wire.WriteHoldings(w, s, false) }, nil
	})
	req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "get_holdings_as_of"}}
	id, _ := jsonrpc.MakeID(float64(1))
	b.ReportAllocs()
	for b.Loop() {
		out = 0
		res, err := h(context.Background(), req)
		if err != nil {
			b.Fatal(err)
		}
		raw, err := json.Marshal(res)
		if err != nil {
			b.Fatal(err)
		}
		if err := conn.Write(context.Background(), &jsonrpc.Response{ID: id, Result: raw}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(out), "bytes")
}

type countWriter int

func (c *countWriter) Write(p []byte) (int, error) { *c += countWriter(len(p)); return len(p), nil }

// eofReader is an input that has ended.
type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }
