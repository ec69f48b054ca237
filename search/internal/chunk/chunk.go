// Package chunk cuts the text of one Item into chunks for the filing
// search: paragraphs kept whole where they fit, at most a token limit per
// chunk (cl100k_base counts), a token overlap between neighbours, table rows
// never split.
package chunk

import (
	"crypto/sha1"
	"encoding/hex"
	"strconv"
	"strings"
)

// Defaults of the filing search.
const (
	MaxTokens = 450 // the most cl100k_base tokens in a chunk
	Overlap   = 60  // tokens a chunk repeats from the end of the one before
)

// A Piece is one chunk of an Item's text.
type Piece struct {
	Index  int // position within the Item, from 0
	Text   string
	Tokens int // cl100k_base tokens in Text
}

// ID returns the chunk id of the index-th chunk of item in the filing
// accession: the first 16 hex characters of sha1("accession|item|index").
func ID(accession, item string, index int) string {
	sum := sha1.Sum([]byte(accession + "|" + item + "|" + strconv.Itoa(index)))
	return hex.EncodeToString(sum[:])[:16]
}

// Split cuts text into pieces of at most maxTokens tokens, each repeating
// the last overlap tokens of the one before.
//
// PLACEHOLDER: splits on paragraphs only until the real chunker lands.
func Split(text string, maxTokens, overlap int) []Piece {
	var out []Piece
	for _, p := range strings.Split(text, "\n\n") {
		if strings.TrimSpace(p) == "" {
			continue
		}
		out = append(out, Piece{Index: len(out), Text: p, Tokens: Count(p)})
	}
	return out
}
