package chunk

import (
	"fmt"
	"math"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer/codec"
)

// The cl100k_base tokenizer: tiktoken's pre-tokenizing pattern, written out
// by hand, and byte-pair merging over the ranks that
// github.com/tiktoken-go/tokenizer builds into the binary.
//
// That module's own Encode is not used: its compiled regular expression
// splits a run of white space that holds more than one line break
// differently from tiktoken ("today\n \n" is 2 tokens for tiktoken, 3 for
// it), and it reads text at about 7 MB/s. Only its table of ranks is read,
// once, through the public Decode of its codec package.

// cl100kOrdinary is the number of ordinary (non-special) tokens of
// cl100k_base: ranks 0 to 100255.
const cl100kOrdinary = 100256

// ranks maps each token's bytes to its rank.
type ranks map[string]uint32

var cl100k = sync.OnceValue(loadCl100k)

func loadCl100k() ranks {
	// The codec package rather than tokenizer.Get, which would link the
	// tables of every encoding (12 MB more in a binary, not 2).
	cl := codec.NewCl100kBase()
	r := make(ranks, cl100kOrdinary)
	id := make([]uint, 1)
	for i := range cl100kOrdinary {
		id[0] = uint(i)
		tok, err := cl.Decode(id)
		if err != nil || tok == "" {
			panic(fmt.Sprintf("chunk: cl100k_base has no token %d: %v", i, err))
		}
		r[tok] = uint32(i)
	}
	if len(r) != cl100kOrdinary {
		panic(fmt.Sprintf("chunk: cl100k_base ranks: %d distinct tokens, want %d", len(r), cl100kOrdinary))
	}
	return r
}

// Count returns the number of cl100k_base tokens of text, as tiktoken's
// encode_ordinary counts them: special tokens such as "<|endoftext|>" are
// ordinary text. Invalid UTF-8 is read as U+FFFD, as a Python str would
// hold it. The ranks are built into the binary (4 MB of it); the first
// call loads them into memory (tens of milliseconds, 8 MB of heap).
func Count(text string) int {
	if !utf8.ValidString(text) {
		text = strings.ToValidUTF8(text, "\uFFFD")
	}
	r := cl100k()
	n := 0
	var scratch []int32
	for i := 0; i < len(text); {
		j := nextPiece(text, i)
		piece := text[i:j]
		if _, ok := r[piece]; ok {
			n++
		} else {
			var c int
			c, scratch = r.merge(piece, nil, scratch)
			n += c
		}
		i = j
	}
	return n
}

// tokenEnds appends to ends the byte offset in text at which each of
// text's cl100k_base tokens ends, in order. text must be valid UTF-8.
// Some tokens end inside a character: callers cutting text check
// utf8.RuneStart.
func tokenEnds(text string, ends []int) []int {
	r := cl100k()
	var scratch []int32
	for i := 0; i < len(text); {
		j := nextPiece(text, i)
		piece := text[i:j]
		if _, ok := r[piece]; ok {
			ends = append(ends, j)
		} else {
			start := len(ends)
			_, scratch = r.merge(piece, &ends, scratch)
			for k := start; k < len(ends); k++ {
				ends[k] += i
			}
		}
		i = j
	}
	return ends
}

// merge runs byte-pair merging over piece: the adjacent pair of parts
// whose joined bytes have the lowest rank is merged, the leftmost of
// equal ranks first, until no joined pair is a token. It returns the
// number of tokens and, when ends is not nil, appends the end offset of
// each token within piece to *ends. scratch is reused memory.
func (r ranks) merge(piece string, ends *[]int, scratch []int32) (int, []int32) {
	if len(piece) >= heapMergeFrom {
		return r.mergeHeap(piece, ends), scratch
	}
	// pos holds the start of every part and then len(piece); rank[k] is
	// the rank of parts k and k+1 joined, or none.
	n := len(piece)
	if cap(scratch) < 2*(n+1) {
		scratch = make([]int32, 2*(n+1))
	}
	pos, rank := scratch[:n+1], scratch[n+1:2*(n+1)]
	for k := range pos {
		pos[k] = int32(k)
	}
	pair := func(k int) int32 {
		if k+2 >= len(pos) {
			return none
		}
		if v, ok := r[piece[pos[k]:pos[k+2]]]; ok {
			return int32(v)
		}
		return none
	}
	for k := 0; k < n; k++ {
		rank[k] = pair(k)
	}
	rank[n] = none
	for len(pos) > 2 {
		best, at := int32(none), -1
		for k := 0; k+1 < len(pos); k++ {
			if rank[k] < best {
				best, at = rank[k], k
			}
		}
		if at < 0 {
			break
		}
		// Part at+1 disappears into part at.
		pos = append(pos[:at+1], pos[at+2:]...)
		rank = append(rank[:at+1], rank[at+2:]...)
		rank[at] = pair(at)
		if at > 0 {
			rank[at-1] = pair(at - 1)
		}
	}
	if ends != nil {
		for _, p := range pos[1:] {
			*ends = append(*ends, int(p))
		}
	}
	return len(pos) - 1, scratch
}

// none is the rank of a pair that is not a token.
const none = math.MaxInt32

// heapMergeFrom is the piece length from which merge keeps its candidate
// pairs in a heap: a long run of one character ("--------...", a base64
// blob) would otherwise cost time quadratic in its length.
const heapMergeFrom = 128

// mergeHeap is merge in O(n log n): the parts are a linked list and the
// candidate pairs a min-heap by (rank, offset); entries made stale by a
// merge are skipped when popped.
func (r ranks) mergeHeap(piece string, ends *[]int) int {
	n := int32(len(piece))
	next := make([]int32, n+1)
	prev := make([]int32, n+1)
	rank := make([]int32, n+1)
	for i := range next {
		next[i], prev[i], rank[i] = int32(i)+1, int32(i)-1, none
	}
	next[n] = -1
	pair := func(i int32) int32 {
		j := next[i]
		if j < 0 {
			return none
		}
		k := next[j]
		if k < 0 {
			return none
		}
		if v, ok := r[piece[i:k]]; ok {
			return int32(v)
		}
		return none
	}
	h := make(pairHeap, 0, n)
	for i := int32(0); i < n; i++ {
		if rank[i] = pair(i); rank[i] != none {
			h = append(h, cand{rank[i], i})
		}
	}
	h.init()
	parts := int(n)
	for len(h) > 0 {
		c := h.pop()
		if rank[c.at] != c.rank {
			continue // stale: the pair changed since it was pushed
		}
		j := next[c.at]
		k := next[j]
		next[c.at] = k
		if k >= 0 {
			prev[k] = c.at
		}
		rank[j] = none
		parts--
		for _, b := range [2]int32{c.at, prev[c.at]} {
			if b < 0 {
				continue
			}
			if rank[b] = pair(b); rank[b] != none {
				h.push(cand{rank[b], b})
			}
		}
	}
	if ends != nil {
		for i := next[0]; i >= 0; i = next[i] {
			*ends = append(*ends, int(i))
		}
	}
	return parts
}

// A cand is a pair of parts that could merge: the rank of their joined
// bytes and the offset of the first.
type cand struct{ rank, at int32 }

// pairHeap is a binary min-heap of candidates by rank, then offset.
type pairHeap []cand

func (h pairHeap) less(a, b int) bool {
	return h[a].rank < h[b].rank || h[a].rank == h[b].rank && h[a].at < h[b].at
}

func (h pairHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h *pairHeap) push(c cand) {
	*h = append(*h, c)
	s := *h
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if !s.less(i, p) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

func (h *pairHeap) pop() cand {
	s := *h
	top := s[0]
	s[0] = s[len(s)-1]
	*h = s[:len(s)-1]
	h.down(0)
	return top
}

func (h pairHeap) down(i int) {
	for {
		c := 2*i + 1
		if c >= len(h) {
			return
		}
		if c+1 < len(h) && h.less(c+1, c) {
			c++
		}
		if !h.less(c, i) {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}

// nextPiece returns the end of the pre-token that starts at i in s. It
// matches what tiktoken's cl100k_base pattern
//
//	(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// matches at i: the first alternative that matches, each as a
// backtracking engine would (\s is Unicode White_Space, as
// unicode.IsSpace; \p{L} unicode.IsLetter; \p{N} unicode.IsNumber). Every
// position starts a match, so the pieces cover s.
func nextPiece(s string, i int) int {
	c, w := decode(s, i)
	// 's 't 're 've 'm 'll 'd, any case.
	if c == '\'' {
		if e := contraction(s, i+1); e > 0 {
			return e
		}
	}
	// [^\r\n\p{L}\p{N}]?\p{L}+
	if isLetter(c) {
		return letters(s, i+w)
	}
	if c != '\r' && c != '\n' && !isNumber(c) {
		if c2, _ := decode(s, i+w); i+w < len(s) && isLetter(c2) {
			return letters(s, i+w)
		}
	}
	// \p{N}{1,3}
	if isNumber(c) {
		j := i + w
		for k := 1; k < 3 && j < len(s); k++ {
			c2, w2 := decode(s, j)
			if !isNumber(c2) {
				break
			}
			j += w2
		}
		return j
	}
	// ' ?[^\s\p{L}\p{N}]+[\r\n]*'
	j := i
	if c == ' ' {
		j += w
	}
	if j < len(s) {
		if c2, _ := decode(s, j); isOther(c2) {
			for j < len(s) {
				c2, w2 := decode(s, j)
				if !isOther(c2) {
					break
				}
				j += w2
			}
			for j < len(s) && (s[j] == '\r' || s[j] == '\n') {
				j++
			}
			return j
		}
	}
	// What is left starts with white space: c is neither a letter, a
	// number, nor other (and a lone ' ' before other was taken above).
	end, lastBreak, lastStart := i, -1, i
	for end < len(s) {
		c2, w2 := decode(s, end)
		if !unicode.IsSpace(c2) {
			break
		}
		if c2 == '\r' || c2 == '\n' {
			lastBreak = end
		}
		lastStart = end
		end += w2
	}
	if end == i {
		// Not reached for valid input: every rune is a letter, number,
		// space or other. Take one byte so the caller always advances.
		return i + 1
	}
	// \s*[\r\n]+: the run up to and including its last line break.
	if lastBreak >= 0 {
		return lastBreak + 1
	}
	// \s+(?!\S): the whole run at the end of the text; else all of it
	// but its last character, which then leads the next piece.
	if end == len(s) || lastStart == i {
		// \s+ when the run is one character followed by non-space.
		return end
	}
	return lastStart
}

// contraction returns the end of 's 't 're 've 'm 'll 'd (any case) after
// the apostrophe ending at i, or 0. Case folding is Unicode's simple
// folding, which also folds "ſ" (U+017F) to "s".
func contraction(s string, i int) int {
	if i >= len(s) {
		return 0
	}
	c, w := decode(s, i)
	switch unicode.ToLower(c) {
	case 's', 'ſ', 't', 'm', 'd':
		return i + w
	case 'r', 'v':
		if i+w < len(s) && (s[i+w] == 'e' || s[i+w] == 'E') {
			return i + w + 1
		}
	case 'l':
		if i+w < len(s) && (s[i+w] == 'l' || s[i+w] == 'L') {
			return i + w + 1
		}
	}
	return 0
}

// letters returns the end of the run of letters starting at i.
func letters(s string, i int) int {
	for i < len(s) {
		c, w := decode(s, i)
		if !isLetter(c) {
			break
		}
		i += w
	}
	return i
}

func decode(s string, i int) (rune, int) {
	if i >= len(s) {
		return utf8.RuneError, 0
	}
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(s[i:])
}

func isLetter(c rune) bool {
	if c < utf8.RuneSelf {
		return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
	}
	return unicode.IsLetter(c)
}

func isNumber(c rune) bool {
	if c < utf8.RuneSelf {
		return '0' <= c && c <= '9'
	}
	return unicode.IsNumber(c)
}

// isOther reports whether c is none of \s, \p{L} and \p{N}.
func isOther(c rune) bool {
	return !isLetter(c) && !isNumber(c) && !unicode.IsSpace(c)
}
