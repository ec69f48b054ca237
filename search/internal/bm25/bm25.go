// Package bm25 is the filing search's lexical analysis and BM25 formula,
// the same for every store: the embedded store indexes the terms of
// bleve's "en" analyzer, and the OpenSearch store indexes the terms Terms
// returns (the same analyzer, run in Go), so that both count the same
// terms, the same document lengths and the same statistics, and score
// alike to the last bit.
package bm25

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/registry"
)

// BM25 parameters: bleve's (search.BM25_k1, search.BM25_b) and Lucene's
// defaults.
const (
	K1 = 1.2
	B  = 0.75
)

// analyzer is bleve's "en" analyzer: Unicode word tokens, possessives
// removed, lower case, English stop words dropped, Porter stemming.
var analyzer = func() analysis.Analyzer {
	an, err := registry.NewCache().AnalyzerNamed(en.AnalyzerName)
	if err != nil {
		panic("bm25: bleve's en analyzer: " + err.Error())
	}
	return an
}()

// Terms returns the analysed terms of text, in order, repeats included:
// the terms a store indexes for a chunk's [store.LexicalText], and their
// number is the chunk's BM25 document length.
func Terms(text string) []string {
	toks := analyzer.Analyze([]byte(text))
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = string(t.Term)
	}
	return out
}

// QueryTerms returns the distinct analysed terms of a query, sorted
// (bytewise): each counts once, and a chunk's score sums its terms' parts
// in this order.
func QueryTerms(query string) []string {
	terms := Terms(query)
	slices.Sort(terms)
	return slices.Compact(terms)
}

// IDF is the inverse document frequency of a term that df of n chunks
// hold: ln(1 + (n − df + 0.5)/(df + 0.5)).
func IDF(n, df int64) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}

// Part is what a term of weight idf adds to the score of a chunk holding
// it tf times among dl terms, where the chunks average avgdl terms
// (Lucene's form, without the constant factor k1 + 1):
// idf·tf/(tf + k1·(1 − b + b·dl/avgdl)).
func Part(idf float64, tf, dl int64, avgdl float64) float64 {
	f := float64(tf)
	return idf * f / (f + K1*(1-B+B*float64(dl)/avgdl))
}

// MaxTermBytes is the longest term, in bytes, that [Wire] passes
// unchanged.
const MaxTermBytes = 200

// Wire returns term as a search engine's whitespace tokenizer keeps it
// whole: unchanged when it is at most MaxTermBytes long and holds no
// character Java counts as whitespace (a Unicode word token never does),
// else a middle dot and the hex SHA-256 of the term (a Lucene tokenizer
// cuts a token at 255 characters; no analysed term begins with a middle
// dot, so distinct terms stay distinct).
func Wire(term string) string {
	if len(term) <= MaxTermBytes && !strings.ContainsFunc(term, javaWhitespace) {
		return term
	}
	sum := sha256.Sum256([]byte(term))
	return "\u00b7" + hex.EncodeToString(sum[:])
}

// javaWhitespace is Java's Character.isWhitespace, where Lucene's
// whitespace tokenizer splits: Unicode space, line and paragraph
// separators but the non-breaking ones, and the ASCII controls
// U+0009-U+000D and U+001C-U+001F.
func javaWhitespace(r rune) bool {
	switch {
	case r == '\u00a0' || r == '\u2007' || r == '\u202f':
		return false
	case r >= '\t' && r <= '\r', r >= 0x1c && r <= 0x1f:
		return true
	}
	return unicode.In(r, unicode.Zs, unicode.Zl, unicode.Zp)
}
