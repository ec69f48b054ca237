package embedded_test

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/registry"
	"pgregory.net/rapid"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/search/store"
	"github.com/edgar13f/edgar13f/search/store/embedded"
)

var ctx = context.Background()

func chunkID(acc, item string, i int) string {
	sum := sha1.Sum([]byte(fmt.Sprintf("%s|%s|%d", acc, item, i)))
	return hex.EncodeToString(sum[:])[:16]
}

var oracleWords = strings.Fields("credit credits regulatory regulation vehicle vehicles export exports china battery supply chain tariff risk risks revenue growth the of and in to company")

// An oracleChunk is a chunk as the oracle sees it: its filing's date and
// company, its Item, and its analysed terms.
type oracleChunk struct {
	c     store.Chunk
	f     store.Filing
	terms []string
}

// TestBM25Oracle checks every Lexical answer against BM25 computed from
// scratch (the same English analysis, then N, df and the average length
// counted over the chunks of the filings visible on asOf, k1 1.2, b 0.75):
// the same chunks in the same order, scores equal within 1e-12 relative.
// Unlike the point-in-time property, it also catches statistics taken from
// each filing alone (bleve's alias scoring) or from the whole store.
func TestBM25Oracle(t *testing.T) {
	an, err := registry.NewCache().AnalyzerNamed(en.AnalyzerName)
	if err != nil {
		t.Fatal(err)
	}
	analyse := func(s string) []string {
		var out []string
		for _, tok := range an.Analyze([]byte(s)) {
			out = append(out, string(tok.Term))
		}
		return out
	}
	base := edgar13f.MustParseDate("2024-01-01")
	rapid.Check(t, func(rt *rapid.T) {
		dir := t.TempDir()
		s, err := embedded.Open(dir)
		if err != nil {
			rt.Fatal(err)
		}
		defer s.Close()
		// Lexicon segments of two filings, made as the Puts go, with the
		// entries of filings put again among them.
		defer embedded.SetLexGroup(2)()
		var all []oracleChunk
		nf := rapid.IntRange(1, 5).Draw(rt, "filings")
		for p := range nf + rapid.IntRange(0, 3).Draw(rt, "again") {
			i := p
			if p >= nf {
				i = rapid.IntRange(0, nf-1).Draw(rt, "put again")
			}
			acc := fmt.Sprintf("%010d-24-%06d", i+1, i+1)
			all = slices.DeleteFunc(all, func(oc oracleChunk) bool { return oc.f.Accession == acc })
			f := store.Filing{Accession: acc, CIK: fmt.Sprint(i%2 + 1), Ticker: []string{"AAA", "BBB"}[i%2], Form: "10-K",
				FilingDate: base.AddDays(rapid.IntRange(0, 4).Draw(rt, "filed")), FiscalYear: 2023}
			var chunks []store.Chunk
			for j := range rapid.IntRange(0, 6).Draw(rt, "chunks") {
				text := strings.Join(rapid.SliceOfN(rapid.SampledFrom(oracleWords), 1, 30).Draw(rt, "text"), " ")
				item := rapid.SampledFrom([]string{"1", "7"}).Draw(rt, "item")
				chunks = append(chunks, store.Chunk{ID: chunkID(acc, item, j+100*p), Accession: acc, Item: item, Index: j, Text: text})
			}
			if err := s.Put(ctx, f, chunks, nil, store.Meta{}); err != nil {
				rt.Fatal(err)
			}
			f.Chunks = len(chunks)
			for _, c := range chunks {
				all = append(all, oracleChunk{c: c, f: f, terms: analyse(c.Text)})
			}
		}
		asOf := base.AddDays(rapid.IntRange(-1, 5).Draw(rt, "asOf"))
		query := strings.Join(rapid.SliceOfN(rapid.SampledFrom(oracleWords), 1, 4).Draw(rt, "query"), " ")
		filter := store.Filter{AsOf: asOf}
		if rapid.Bool().Draw(rt, "by item") {
			filter.Item = "7"
		}
		if rapid.Bool().Draw(rt, "by ticker") {
			filter.Ticker = "BBB"
		}
		k := rapid.IntRange(1, 12).Draw(rt, "k")
		if rapid.Bool().Draw(rt, "reopened") {
			// Close merges the rest into the lexicon, which the store
			// opened again uses.
			if err := s.Close(); err != nil {
				rt.Fatal(err)
			}
			if s, err = embedded.Open(dir); err != nil {
				rt.Fatal(err)
			}
			defer s.Close()
		}

		// The oracle.
		var visible []oracleChunk
		length := 0
		df := map[string]int{}
		for _, oc := range all {
			if asOf.Before(oc.f.FilingDate) {
				continue
			}
			visible = append(visible, oc)
			length += len(oc.terms)
			seen := map[string]bool{}
			for _, term := range oc.terms {
				if !seen[term] {
					seen[term] = true
					df[term]++
				}
			}
		}
		qterms := slices.Compact(slices.Sorted(slices.Values(analyse(query))))
		type scored struct {
			id    string
			score float64
		}
		var want []scored
		n := float64(len(visible))
		for _, oc := range visible {
			if (filter.Item != "" && oc.c.Item != filter.Item) || (filter.Ticker != "" && oc.f.Ticker != filter.Ticker) {
				continue
			}
			score, matched := 0.0, false
			for _, q := range qterms {
				tf := 0
				for _, term := range oc.terms {
					if term == q {
						tf++
					}
				}
				if tf == 0 {
					continue
				}
				matched = true
				idf := math.Log(1 + (n-float64(df[q])+0.5)/(float64(df[q])+0.5))
				avgdl := float64(length) / n
				score += idf * float64(tf) / (float64(tf) + 1.2*(1-0.75+0.75*float64(len(oc.terms))/avgdl))
			}
			if matched {
				want = append(want, scored{oc.c.ID, score})
			}
		}
		slices.SortFunc(want, func(a, b scored) int {
			if a.score != b.score {
				if a.score > b.score {
					return -1
				}
				return 1
			}
			return strings.Compare(a.id, b.id)
		})
		want = want[:min(k, len(want))]

		got, err := s.Lexical(ctx, query, filter, k)
		if err != nil {
			rt.Fatal(err)
		}
		if len(got) != len(want) {
			rt.Fatalf("Lexical(%q, %+v, %d): %d matches, the oracle %d: got %v want %v", query, filter, k, len(got), len(want), got, want)
		}
		for i := range want {
			g, w := got[i], want[i]
			if g.Chunk.ID != w.id || math.Abs(g.Score-w.score) > 1e-12*math.Abs(w.score) {
				rt.Fatalf("Lexical(%q, %+v, %d) match %d = %s %.17g; the oracle %s %.17g", query, filter, k, i, g.Chunk.ID, g.Score, w.id, w.score)
			}
		}
	})
}
