// Package chunk cuts the text of one Item into chunks for the filing
// search: paragraphs kept whole where they fit, at most a token limit per
// chunk (cl100k_base counts, see [Count]), a token overlap between
// neighbours, table rows never split.
//
// # What a paragraph is
//
// The Item text of package internal/sections has one block of the
// document per line ("\n" between lines, no blank lines): a paragraph, a
// heading, a list item, or a table row written "a | b | c". So every
// non-blank line is a paragraph here; blank lines, where a text has them,
// only separate lines. Leading and trailing white space of a line is not
// part of it.
//
// # How text is cut
//
// [Split] packs whole lines greedily: a chunk takes lines while they fit.
// A line longer than the limit is cut into sentences (a table row into
// cells, each starting with its "|"), which are packed the same way; a
// sentence or cell still longer than the limit is cut between words into
// fragments of at most maxTokens-overlap tokens, and a word that long
// between tokens (never inside a character).
//
// # Overlap
//
// Every chunk after the first starts with the end of the chunk before it:
// the longest run of whole lines and sentences from the end of the
// previous chunk's own text (not its overlap) that has at most overlap
// tokens. When not even the last sentence fits, whole words are taken,
// and when not one word fits, tokens; but a table row is repeated whole
// or not at all (a piece ending with a row longer than the overlap has
// none after it). The overlap also shrinks so that it
// and the chunk's first line together stay within the limit: a line of
// 440 tokens keeps its place whole behind an overlap of at most about 10
// tokens, and is cut only when it alone is longer than the limit. So the
// overlap is never more than overlap tokens, and is shorter where whole
// sentences do not add up to it or the first line needs the room.
//
// Every piece is one substring of the text, and its [Piece.Tokens], the
// exact count of its Text, overlap included, is at most maxTokens.
package chunk

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Defaults of the filing search.
const (
	MaxTokens = 450 // the most cl100k_base tokens in a chunk
	Overlap   = 60  // tokens a chunk repeats from the end of the one before
)

// MinMaxTokens is the smallest limit [Split] accepts: a character is up
// to 4 tokens, and a chunk must hold one whole after its overlap.
const MinMaxTokens = 16

// A Piece is one chunk of an Item's text.
type Piece struct {
	Index  int // position within the Item, from 0
	Text   string
	Tokens int // cl100k_base tokens in Text

	// Start and End locate Text in the text given to Split:
	// text[Start:End] == Text.
	Start, End int
	// Overlap is the length in bytes of the start of Text that repeats
	// the piece before, white space after it included: Text[Overlap:] is
	// the piece's own text. It is 0 for the first piece.
	Overlap int
}

// ID returns the chunk id of the index-th chunk of item in the filing
// accession: the first 16 hex characters of sha1("accession|item|index").
func ID(accession, item string, index int) string {
	sum := sha1.Sum([]byte(accession + "|" + item + "|" + strconv.Itoa(index)))
	return hex.EncodeToString(sum[:])[:16]
}

// Split cuts text into pieces of at most maxTokens tokens each, overlap
// included, each after the first starting with up to overlap tokens from
// the end of the one before (see the package documentation for where it
// cuts). A text of white space only has no pieces. Invalid UTF-8 is
// first replaced by U+FFFD, and Start and End then refer to the replaced
// text. Split is deterministic.
//
// Split panics if maxTokens is less than [MinMaxTokens] or overlap is
// negative or more than maxTokens/2.
func Split(text string, maxTokens, overlap int) []Piece {
	if maxTokens < MinMaxTokens || overlap < 0 || overlap > maxTokens/2 {
		panic(fmt.Sprintf("chunk: Split(maxTokens=%d, overlap=%d): want maxTokens >= %d and 0 <= overlap <= maxTokens/2", maxTokens, overlap, MinMaxTokens))
	}
	if !utf8.ValidString(text) {
		text = strings.ToValidUTF8(text, "\uFFFD")
	}
	s := splitter{text: text, max: maxTokens, overlap: overlap}
	s.cutUnits()
	return s.pack()
}

// A unit is a span of the text that a chunk takes whole: a line, or a
// sentence, cell or fragment of a line too long for one chunk. Units
// start and end with non-space characters; only white space lies between
// two units.
type unit struct {
	start, end int
	tokens     int
	kind       unitKind
}

type unitKind uint8

const (
	proseLine unitKind = iota // a whole line of prose
	rowLine                   // a whole table row
	part                      // a sentence, cell or fragment of a longer line
)

type splitter struct {
	text         string
	max, overlap int
	units        []unit
	ends, starts []int // scratch
}

// cutUnits cuts the text into units of at most s.max tokens.
func (s *splitter) cutUnits() {
	for at := 0; at < len(s.text); {
		nl := strings.IndexByte(s.text[at:], '\n')
		end := len(s.text)
		if nl >= 0 {
			end = at + nl
		}
		a, b := trim(s.text, at, end)
		at = end + 1
		if a == b {
			continue
		}
		line := s.text[a:b]
		row := isRow(line)
		if n := Count(line); n <= s.max {
			k := proseLine
			if row {
				k = rowLine
			}
			s.units = append(s.units, unit{a, b, n, k})
			continue
		}
		var starts []int
		if row {
			starts = cellStarts(line, nil)
		} else {
			starts = sentenceStarts(line, nil)
		}
		prev := a
		for i := 0; i <= len(starts); i++ {
			e := b
			if i < len(starts) {
				e = a + starts[i]
			}
			pa, pb := trim(s.text, prev, e)
			prev = e
			if pa == pb {
				continue
			}
			if n := Count(s.text[pa:pb]); n <= s.max {
				s.units = append(s.units, unit{pa, pb, n, part})
			} else {
				s.cutWords(pa, pb, s.max-s.overlap)
			}
		}
	}
}

// cutWords cuts text[a:b] into fragment units of at most budget tokens,
// between words where a word boundary falls within the budget, else
// between tokens at a character boundary.
func (s *splitter) cutWords(a, b, budget int) {
	s.ends = tokenEnds(s.text[a:b], s.ends[:0])
	ends := s.ends // token ends relative to a, increasing, last == b-a
	first := 0     // index of the first token of the next fragment
	start := a
	for start < b {
		last := min(first+budget, len(ends)) - 1
		cut := -1 // index of the token after which to cut
		for k := last; k >= first && cut < 0; k-- {
			if e := a + ends[k]; e == b || isSpaceAt(s.text, e) {
				cut = k
			}
		}
		for k := last; k >= first && cut < 0; k-- {
			if e := a + ends[k]; utf8.RuneStart(s.text[e]) {
				cut = k
			}
		}
		if cut < 0 {
			// Only when budget is less than one character's tokens.
			cut = last
			for e := a + ends[cut]; e < b && !utf8.RuneStart(s.text[e]); e = a + ends[cut] {
				cut++
			}
		}
		end := a + ends[cut]
		fa, fb := trim(s.text, start, end)
		n := Count(s.text[fa:fb])
		if n > budget && cut > first {
			// Cut text can tokenize differently: take one token less.
			budget--
			continue
		}
		s.units = append(s.units, unit{fa, fb, n, part})
		budget = s.max - s.overlap
		first = cut + 1
		start = end
		for start < b && isSpaceAt(s.text, start) {
			_, w := utf8.DecodeRuneInString(s.text[start:])
			start += w
		}
		for first < len(ends) && a+ends[first] <= start {
			first++
		}
	}
}

// pack packs the units into pieces.
func (s *splitter) pack() []Piece {
	var out []Piece
	prevFirst := -1 // first unit of the previous piece's own text
	for i := 0; i < len(s.units); {
		u := s.units[i]
		budget := 0 // the overlap's budget
		if prevFirst >= 0 {
			budget = min(s.overlap, s.max-u.tokens-s.sepTokens(i))
		}
		ovStart, ovTokens := -1, 0
		if budget > 0 {
			ovStart, ovTokens = s.overlapStart(prevFirst, i-1, budget)
		}
		// Take units while the estimate fits, then count exactly.
		est := ovTokens + u.tokens
		if ovStart >= 0 {
			est += s.sepTokens(i)
		}
		j := i + 1
		for j < len(s.units) {
			add := s.sepTokens(j) + s.units[j].tokens
			if est+add > s.max {
				break
			}
			est += add
			j++
		}
		// Count exactly: drop units while too long; try one more while the
		// exact count leaves room for its own tokens (the estimate of the
		// white space before it can be a token high).
		var start, n int
		lim := len(s.units) // units from lim on were found too many
		for {
			start = u.start
			if ovStart >= 0 {
				start = ovStart
			}
			n = Count(s.text[start:s.units[j-1].end])
			if n <= s.max {
				if j < lim && n+s.units[j].tokens <= s.max {
					j++
					continue
				}
				break
			}
			if j-1 > i {
				j--
				lim = j
				continue
			}
			// One unit, which fits alone: shorten the overlap.
			budget = ovTokens - (n - s.max)
			ovStart, ovTokens = -1, 0
			if budget > 0 {
				ovStart, ovTokens = s.overlapStart(prevFirst, i-1, budget)
			}
		}
		end := s.units[j-1].end
		out = append(out, Piece{
			Index:   len(out),
			Text:    s.text[start:end],
			Tokens:  n,
			Start:   start,
			End:     end,
			Overlap: u.start - start,
		})
		prevFirst, i = i, j
	}
	return out
}

// sepTokens estimates the tokens of the white space between unit i-1 and
// unit i: line breaks are a token of their own unless they follow
// punctuation, a space joins the word after it.
func (s *splitter) sepTokens(i int) int {
	if i == 0 {
		return 0
	}
	sep := s.text[s.units[i-1].end:s.units[i].start]
	if r, _ := utf8.DecodeLastRuneInString(s.text[:s.units[i-1].end]); isOther(r) {
		// After punctuation, line breaks join its token (".\n\n").
		sep = strings.TrimLeft(sep, "\r\n")
	}
	switch sep {
	case "", " ":
		return 0
	case "\n":
		return 1
	default:
		return Count(sep)
	}
}

// overlapStart returns where the overlap of the piece after the units
// first..last starts, and its tokens: the start of the longest suffix of
// text[units[first].start:units[last].end] that begins at a line or
// sentence and has at most budget tokens; else at a word; else at a token
// (see the package documentation). It returns -1, 0 when nothing fits.
func (s *splitter) overlapStart(first, last, budget int) (int, int) {
	hi := s.units[last].end
	var cands []int // line and sentence starts, nearest to hi first
	sum := 0        // estimated tokens from the last candidate to hi
	nearest := -1   // the start of the last line or sentence
walk:
	for k := last; k >= first; k-- {
		u := s.units[k]
		sep := 0
		if k < last {
			sep = s.sepTokens(k + 1)
		}
		if sum+sep+u.tokens <= budget || u.kind != proseLine {
			if nearest < 0 {
				nearest = u.start
				if u.kind == rowLine {
					nearest = -2 // a row is repeated whole or not at all
				}
			}
			if sum+sep+u.tokens > budget {
				break
			}
			sum += sep + u.tokens
			cands = append(cands, u.start)
			continue
		}
		// A line of prose too long to repeat whole: its last sentences.
		s.starts = sentenceStarts(s.text[u.start:u.end], s.starts[:0])
		to := u.end
		for m := len(s.starts); m >= 0; m-- {
			from := u.start
			if m > 0 {
				from += s.starts[m-1]
			}
			if nearest < 0 {
				nearest = from
			}
			a, b := trim(s.text, from, to)
			n := Count(s.text[a:b])
			if to == u.end {
				n += sep
			} // else the space before the next sentence joins its first word
			if sum+n > budget {
				break walk
			}
			sum += n
			cands = append(cands, from)
			to = from
		}
		break
	}
	// Verify, from the longest candidate down.
	for m := len(cands) - 1; m >= 0; m-- {
		if n := Count(s.text[cands[m]:hi]); n <= budget {
			return cands[m], n
		}
	}
	if nearest < 0 {
		return -1, 0
	}
	return s.fineOverlap(nearest, hi, budget)
}

// fineOverlap returns the longest suffix of text[lo:hi] that starts at a
// word, else at a token on a character boundary, and has at most budget
// tokens; or -1, 0. The tokens of text[lo:hi] estimate each suffix's
// count; the chosen one is counted exactly.
func (s *splitter) fineOverlap(lo, hi, budget int) (int, int) {
	s.ends = tokenEnds(s.text[lo:hi], s.ends[:0])
	ends := s.ends
	// after(p) estimates the tokens of text[p:hi]: those ending after p.
	k := len(ends)
	after := func(p int) int {
		for k > 0 && lo+ends[k-1] > p {
			k--
		}
		return len(ends) - k
	}
	var cands []int // nearest to hi first
	for p := hi - 1; p > lo; p-- {
		if !utf8.RuneStart(s.text[p]) || isSpaceAt(s.text, p) {
			continue
		}
		if r, _ := utf8.DecodeLastRuneInString(s.text[:p]); !unicode.IsSpace(r) {
			continue
		}
		if after(p) > budget {
			break
		}
		cands = append(cands, p)
	}
	if len(cands) == 0 {
		// Not one word fits: token ends within the last word.
		k = len(ends)
		for i := len(ends) - 2; i >= 0; i-- {
			p := lo + ends[i]
			if isSpaceAt(s.text, p) || after(p) > budget {
				break
			}
			if utf8.RuneStart(s.text[p]) {
				cands = append(cands, p)
			}
		}
	}
	for m := len(cands) - 1; m >= 0; m-- {
		if n := Count(s.text[cands[m]:hi]); n <= budget {
			return cands[m], n
		}
	}
	return -1, 0
}

// trim returns the span text[a:b] without white space at either end.
func trim(text string, a, b int) (int, int) {
	for a < b {
		r, w := utf8.DecodeRuneInString(text[a:b])
		if !unicode.IsSpace(r) {
			break
		}
		a += w
	}
	for b > a {
		r, w := utf8.DecodeLastRuneInString(text[a:b])
		if !unicode.IsSpace(r) {
			break
		}
		b -= w
	}
	return a, b
}

func isSpaceAt(text string, i int) bool {
	r, _ := utf8.DecodeRuneInString(text[i:])
	return unicode.IsSpace(r)
}

// isRow reports whether line is a table row as internal/sections writes
// them: cells joined by " | ".
func isRow(line string) bool { return strings.Contains(line, " | ") }

// cellStarts appends the offsets in a table row of each "|" that starts
// a cell after the first.
func cellStarts(row string, out []int) []int {
	for i := 1; i+1 < len(row); i++ {
		if row[i] == '|' && row[i-1] == ' ' && row[i+1] == ' ' {
			out = append(out, i)
		}
	}
	return out
}

// sentenceStarts appends the offsets in line at which a sentence after
// the first starts: after ".", "!" or "?" (and closing quotes or
// brackets), white space, then a capital letter, a digit, an opening
// quote or bracket, or a bullet. A period after an abbreviation ("U.S.",
// "Inc.", "No.", an initial) ends no sentence.
func sentenceStarts(line string, out []int) []int {
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c != '.' && c != '!' && c != '?' {
			continue
		}
		j := i + 1
		for j < len(line) {
			if strings.IndexByte(`"')]`, line[j]) >= 0 {
				j++
			} else if strings.HasPrefix(line[j:], "”") || strings.HasPrefix(line[j:], "’") {
				j += len("”")
			} else {
				break
			}
		}
		k := j
		for k < len(line) && isSpaceAt(line, k) {
			_, w := utf8.DecodeRuneInString(line[k:])
			k += w
		}
		if k == j || k == len(line) {
			continue
		}
		r, _ := utf8.DecodeRuneInString(line[k:])
		if !unicode.IsUpper(r) && !unicode.IsDigit(r) && !strings.ContainsRune(`"'([“‘•`, r) {
			continue
		}
		if c == '.' && abbreviation(line[:i]) {
			continue
		}
		out = append(out, k)
		i = k - 1
	}
	return out
}

// abbreviation reports whether the word ending before a period is an
// abbreviation rather than a sentence's last word.
func abbreviation(before string) bool {
	w := before[strings.LastIndexFunc(before, unicode.IsSpace)+1:]
	w = strings.TrimLeft(w, `"'([“‘`)
	if strings.ContainsRune(w, '.') {
		return true // "U.S", "e.g", "i.e"
	}
	if r, n := utf8.DecodeRuneInString(w); n == len(w) && unicode.IsLetter(r) {
		return true // an initial
	}
	switch strings.ToLower(w) {
	case "mr", "mrs", "ms", "dr", "jr", "sr", "st", "inc", "corp", "co", "ltd",
		"no", "nos", "vs", "messrs", "fig", "approx":
		return true
	}
	return false
}
