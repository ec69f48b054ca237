package storetest

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/edgar13f/edgar13f/search/store"
)

// The point-in-time property: for random small corpora of synthetic
// filings with random dates (some put twice, the second version replacing
// the first, possibly on another date), random queries, filters, k and
// asOf, a store that holds every filing answers on asOf exactly as a store
// that only ever held the final versions of the filings made by asOf:
// the same chunks in the same order with the same filings, scores equal
// within 1e-9 relative, the same Filings. And every match passes the
// filter and was filed by asOf.

// pitVocabulary mixes stems that the English analysis folds together,
// stop words, and words shared by many chunks, so that term statistics
// matter.
var pitVocabulary = []string{
	"credit", "credits", "regulatory", "regulation", "vehicle", "vehicles",
	"export", "exports", "controls", "china", "battery", "batteries",
	"supply", "chain", "tariff", "risk", "risks", "revenue", "growth",
	"the", "of", "and", "in", "to",
}

var pitCompanies = []struct{ cik, ticker string }{{"1", "AAA"}, {"22", "BBB"}, {"333", "CCC"}}

var (
	pitForms = []string{"10-K", "10-K/A", "10-Q"}
	pitItems = []string{"1", "1A", "7"}
	pitBase  = date("2024-01-01")
)

const pitDim = 3

var pitMeta = store.Meta{Model: "storetest-pit", Dim: pitDim}

// pitVersion is one version of a filing: what one Put stores.
type pitVersion struct {
	f       store.Filing
	chunks  []store.Chunk
	vectors [][]float32
}

func drawText(t *rapid.T, label string) string {
	words := rapid.SliceOfN(rapid.SampledFrom(pitVocabulary), 1, 24).Draw(t, label)
	return strings.Join(words, " ")
}

func drawVector(t *rapid.T, label string) []float32 {
	v := rapid.SliceOfN(rapid.IntRange(-2, 2), pitDim, pitDim).Draw(t, label)
	out := make([]float32, pitDim)
	for i, x := range v {
		out[i] = float32(x)
	}
	return out
}

func drawVersion(t *rapid.T, acc string, n int) pitVersion {
	co := rapid.SampledFrom(pitCompanies).Draw(t, "company")
	f := store.Filing{
		Accession:  acc,
		CIK:        co.cik,
		Ticker:     co.ticker,
		Company:    "Company " + co.cik,
		Form:       rapid.SampledFrom(pitForms).Draw(t, "form"),
		FilingDate: pitBase.AddDays(rapid.IntRange(0, 6).Draw(t, "filed")),
		FiscalYear: rapid.IntRange(2022, 2024).Draw(t, "fiscal year"),
		URL:        "https://www.sec.gov/Archives/edgar/data/" + co.cik + "/" + acc + ".htm",
	}
	f.Period = f.FilingDate.AddDays(-30)
	v := pitVersion{f: f}
	nChunks := rapid.IntRange(0, 5).Draw(t, fmt.Sprintf("chunks of %s/%d", acc, n))
	index := map[string]int{}
	for range nChunks {
		item := rapid.SampledFrom(pitItems).Draw(t, "item")
		text := drawText(t, "text")
		c := store.Chunk{
			ID:        chunkID(acc, item, index[item]),
			Accession: acc,
			Item:      item,
			ItemTitle: "Item " + item,
			Index:     index[item],
			Tokens:    len(strings.Fields(text)),
			Text:      text,
		}
		index[item]++
		v.chunks = append(v.chunks, c)
		v.vectors = append(v.vectors, drawVector(t, "vector"))
	}
	return v
}

func drawFilter(t *rapid.T) store.Filter {
	f := store.Filter{AsOf: pitBase.AddDays(rapid.IntRange(-1, 7).Draw(t, "asOf"))}
	if rapid.Bool().Draw(t, "by ticker") {
		f.Ticker = rapid.SampledFrom(pitCompanies).Draw(t, "ticker").ticker
	}
	if rapid.Bool().Draw(t, "by cik") {
		f.CIK = rapid.SampledFrom(pitCompanies).Draw(t, "cik").cik
	}
	if rapid.Bool().Draw(t, "by form") {
		f.Form = rapid.SampledFrom(pitForms).Draw(t, "form")
	}
	if rapid.Bool().Draw(t, "by item") {
		f.Item = rapid.SampledFrom(pitItems).Draw(t, "item")
	}
	if rapid.Bool().Draw(t, "by items") {
		f.Items = []string{rapid.SampledFrom(pitItems).Draw(t, "items 1"), rapid.SampledFrom(pitItems).Draw(t, "items 2")}
	}
	if rapid.Bool().Draw(t, "by fiscal year") {
		f.FiscalYear = rapid.IntRange(2022, 2024).Draw(t, "fiscal year")
	}
	return f
}

// passes reports whether a match satisfies the filter.
func passes(m store.Match, f store.Filter) bool {
	return !f.AsOf.Before(m.Filing.FilingDate) &&
		(f.Ticker == "" || m.Filing.Ticker == f.Ticker) &&
		(f.CIK == "" || m.Filing.CIK == f.CIK) &&
		(f.Form == "" || m.Filing.Form == f.Form) &&
		f.KeepsItem(m.Chunk.Item) &&
		(f.FiscalYear == 0 || m.Filing.FiscalYear == f.FiscalYear)
}

func testPointInTime(t *testing.T, k *kit) {
	rapid.Check(t, func(rt *rapid.T) {
		withVectors := rapid.Bool().Draw(rt, "with vectors")
		meta := store.Meta{}
		if withVectors {
			meta = pitMeta
		}
		nFilings := rapid.IntRange(1, 6).Draw(rt, "filings")
		var first, final []pitVersion
		var replaced []pitVersion
		for i := range nFilings {
			acc := fmt.Sprintf("00000000%02d-24-%06d", i+1, i+1)
			v := drawVersion(rt, acc, 0)
			first = append(first, v)
			final = append(final, v)
			if rapid.Bool().Draw(rt, "replaced") {
				v2 := drawVersion(rt, acc, 1)
				replaced = append(replaced, v2)
				final[i] = v2
			}
		}
		order := rapid.Permutation(first).Draw(rt, "order")

		full := k.open(t)
		defer full.Close()
		putVersion := func(s store.Store, v pitVersion) {
			vectors := v.vectors
			if !withVectors {
				vectors = nil
			}
			if err := s.Put(ctx, v.f, v.chunks, vectors, meta); err != nil {
				rt.Fatalf("Put(%s): %v", v.f.Accession, err)
			}
		}
		for _, v := range order {
			putVersion(full, v)
		}
		for _, v := range replaced {
			putVersion(full, v)
		}

		for range 2 {
			f := drawFilter(rt)
			// The reference store only ever holds the filings made by
			// asOf, put in an order of its own.
			refNow := k.open(t)
			defer refNow.Close()
			visible := 0
			for _, v := range rapid.Permutation(final).Draw(rt, "reference order") {
				if !f.AsOf.Before(v.f.FilingDate) {
					putVersion(refNow, v)
					visible++
				}
			}
			wantFilings, err := refNow.Filings(ctx, f.AsOf)
			if err != nil {
				rt.Fatal(err)
			}
			gotFilings, err := full.Filings(ctx, f.AsOf)
			if err != nil {
				rt.Fatal(err)
			}
			if !sameFilingList(wantFilings, gotFilings) {
				rt.Fatalf("Filings(%s):\nreference %+v\nfull      %+v", f.AsOf, wantFilings, gotFilings)
			}

			query := strings.Join(rapid.SliceOfN(rapid.SampledFrom(pitVocabulary), 1, 3).Draw(rt, "query"), " ")
			kk := rapid.IntRange(1, 10).Draw(rt, "k")
			got, err := full.Lexical(ctx, query, f, kk)
			if err != nil {
				rt.Fatalf("Lexical(%q, %+v, %d) on the full store: %v", query, f, kk, err)
			}
			want, err := refNow.Lexical(ctx, query, f, kk)
			if err != nil {
				rt.Fatalf("Lexical(%q, %+v, %d) on the reference store: %v", query, f, kk, err)
			}
			compareMatches(rt, fmt.Sprintf("Lexical(%q, %+v, k=%d)", query, f, kk), f, want, got)

			if !withVectors {
				continue
			}
			vec := drawVector(rt, "query vector")
			got, err = full.Nearest(ctx, vec, f, kk)
			if err != nil {
				rt.Fatalf("Nearest(%v, %+v, %d) on the full store: %v", vec, f, kk, err)
			}
			if visible == 0 {
				// The reference store is empty: it has no vectors at all.
				want = nil
			} else if want, err = refNow.Nearest(ctx, vec, f, kk); err != nil {
				rt.Fatalf("Nearest(%v, %+v, %d) on the reference store: %v", vec, f, kk, err)
			}
			compareMatches(rt, fmt.Sprintf("Nearest(%v, %+v, k=%d)", vec, f, kk), f, want, got)
		}
	})
}

// compareMatches fails t unless got equals want: chunks, filings and
// order, scores within 1e-9 relative; and every match of got passes f.
func compareMatches(t *rapid.T, what string, f store.Filter, want, got []store.Match) {
	t.Helper()
	for _, m := range got {
		if !passes(m, f) {
			t.Fatalf("%s: match %s of filing %+v does not pass the filter", what, m.Chunk.ID, m.Filing)
		}
	}
	show := func(ms []store.Match) string {
		var b strings.Builder
		for _, m := range ms {
			fmt.Fprintf(&b, "\n\t%s %s %.17g", m.Chunk.ID, m.Filing.FilingDate, m.Score)
		}
		return b.String()
	}
	if len(want) != len(got) {
		t.Fatalf("%s: %d matches, the store of filings by asOf %d:\nfull:%s\nreference:%s", what, len(got), len(want), show(got), show(want))
	}
	for i := range want {
		w, g := want[i], got[i]
		if w.Chunk != g.Chunk || w.Filing != g.Filing || !closeRel(w.Score, g.Score) {
			t.Fatalf("%s: match %d differs from the store of filings by asOf:\nfull:%s\nreference:%s", what, i, show(got), show(want))
		}
	}
}

// closeRel reports whether a and b are equal within 1e-9 relative.
func closeRel(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b))
}
