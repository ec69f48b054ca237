package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/examples/internal/wire"
)

// BenchmarkHoldingsResult50k builds the tool result of a synthetic
// 50,000-row holdings answer, encodes it into a JSON-RPC response as the
// SDK does and writes it through the server's answerWriter: everything the
// server does for a call after the library has answered. The whole call
// through the built binary is bench/'s BenchmarkMCPHoldingsStdio50k.
func BenchmarkHoldingsResult50k(b *testing.B) {
	d := edgar13f.MustParseDate("2023-09-30")
	c := edgar13f.Citation{Accession: "0000950123-23-011029", Form: edgar13f.Form13FHR, FilingDate: d.AddDays(45)}
	s := &edgar13f.Snapshot{CIK: "1067983", Period: d, AsOf: c.FilingDate, Base: c, Sources: []edgar13f.Citation{c}}
	for i := range 50000 {
		s.Holdings = append(s.Holdings, edgar13f.Holding{Accession: c.Accession, NameOfIssuer: fmt.Sprintf("ISSUER NUMBER %d CORP", i),
			TitleOfClass: "COM", CUSIP: fmt.Sprintf("%09d", i), Value: int64(i) * 1000, SharesOrPrincipal: int64(i) * 10,
			ShPrn: edgar13f.Shares, InvestmentDiscretion: "SOLE", VotingSole: int64(i)})
	}
	var out countWriter
	srv := &server{answers: newAnswerWriter(&out)}
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
		msg, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: id, Result: raw})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := srv.answers.Write(append(msg, '\n')); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(out), "bytes")
}

type countWriter int

func (c *countWriter) Write(p []byte) (int, error) { *c += countWriter(len(p)); return len(p), nil }
