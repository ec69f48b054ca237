package onnx_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f/search"
	"github.com/edgar13f/edgar13f/search/eval"
)

func TestDiag(t *testing.T) {
	if !*evalSweep {
		t.Skip()
	}
	s := indexEval(t, strings.Split(*evalModels, ",")[0], *evalWindows)
	e := s.engine(t, search.DefaultFusion)
	var b strings.Builder
	for _, q := range loadQueries(t, []string{"paraphrase-queries.json", "paraphrase-heldout.json"}) {
		fmt.Fprintf(&b, "\n## %s [%s %s %q]\n", q.Q, q.Ticker, q.Item, q.Must)
		for _, m := range []search.Mode{search.BM25, search.KNN} {
			r, err := e.Search(context.Background(), q.Q, eval.CorpusAsOf, m, search.Ticker(q.Ticker), search.Limit(10))
			if err != nil {
				t.Fatal(err)
			}
			rank := 0
			for i, h := range r.Hits {
				if eval.Relevant(q, h) {
					rank = i + 1
					break
				}
			}
			fmt.Fprintf(&b, "  %s rank %d; top: ", m, rank)
			for _, h := range r.Hits[:3] {
				txt := h.Text
				if len(txt) > 90 {
					txt = txt[:90]
				}
				fmt.Fprintf(&b, "[%s %s %q] ", h.Form, h.Item, txt)
			}
			b.WriteString("\n")
		}
	}
	t.Log(b.String())
}
