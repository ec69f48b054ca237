package onnx

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// A Tokenizer turns text into the token ids of a BERT WordPiece vocabulary,
// as the Hugging Face tokenizers library does with a tokenizer.json whose
// normalizer is BertNormalizer, pre-tokenizer BertPreTokenizer and model
// WordPiece: clean the text, pad CJK ideographs with spaces, strip accents
// and lowercase (as the file says), split on white space and punctuation,
// split each word into the longest vocabulary pieces, and frame the ids
// with [CLS] and [SEP]. What is white space, a control character, a
// non-spacing mark or punctuation, and how a character lowercases, is
// decided as that library decides it (hfunicode.go). It is safe for
// concurrent use.
type Tokenizer struct {
	vocab        map[string]int32
	unk          int32
	cls, sep     int32
	prefix       string // continuing_subword_prefix, "##"
	maxWordChars int    // a longer word is [UNK]
	cleanText    bool
	chinese      bool
	stripAccents bool
	lowercase    bool
}

// tokenizerFile is the part of tokenizer.json a Tokenizer reads.
type tokenizerFile struct {
	Normalizer *struct {
		Type               string `json:"type"`
		CleanText          bool   `json:"clean_text"`
		HandleChineseChars bool   `json:"handle_chinese_chars"`
		StripAccents       *bool  `json:"strip_accents"`
		Lowercase          bool   `json:"lowercase"`
	} `json:"normalizer"`
	PreTokenizer *struct {
		Type string `json:"type"`
	} `json:"pre_tokenizer"`
	Model struct {
		Type                    string           `json:"type"`
		UnkToken                string           `json:"unk_token"`
		ContinuingSubwordPrefix string           `json:"continuing_subword_prefix"`
		MaxInputCharsPerWord    int              `json:"max_input_chars_per_word"`
		Vocab                   map[string]int32 `json:"vocab"`
	} `json:"model"`
}

// LoadTokenizer reads a tokenizer.json file (see [ParseTokenizer]).
func LoadTokenizer(path string) (*Tokenizer, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	t, err := ParseTokenizer(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// ParseTokenizer reads the contents of a tokenizer.json. It refuses a file
// of another kind than BertNormalizer, BertPreTokenizer and WordPiece, or a
// vocabulary without [UNK], [CLS] and [SEP].
func ParseTokenizer(data []byte) (*Tokenizer, error) {
	var f tokenizerFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("tokenizer.json: %w", err)
	}
	if f.Normalizer == nil || f.Normalizer.Type != "BertNormalizer" {
		return nil, fmt.Errorf("tokenizer.json: want a BertNormalizer")
	}
	if f.PreTokenizer == nil || f.PreTokenizer.Type != "BertPreTokenizer" {
		return nil, fmt.Errorf("tokenizer.json: want a BertPreTokenizer")
	}
	if f.Model.Type != "WordPiece" {
		return nil, fmt.Errorf("tokenizer.json: model %q: want WordPiece", f.Model.Type)
	}
	t := &Tokenizer{
		vocab:        f.Model.Vocab,
		prefix:       f.Model.ContinuingSubwordPrefix,
		maxWordChars: f.Model.MaxInputCharsPerWord,
		cleanText:    f.Normalizer.CleanText,
		chinese:      f.Normalizer.HandleChineseChars,
		lowercase:    f.Normalizer.Lowercase,
	}
	// BertNormalizer strips accents when strip_accents says so, and when
	// it is null (unset) whenever it lowercases.
	if f.Normalizer.StripAccents != nil {
		t.stripAccents = *f.Normalizer.StripAccents
	} else {
		t.stripAccents = t.lowercase
	}
	if t.maxWordChars <= 0 {
		t.maxWordChars = 100
	}
	for _, s := range []struct {
		name string
		id   *int32
	}{{f.Model.UnkToken, &t.unk}, {"[CLS]", &t.cls}, {"[SEP]", &t.sep}} {
		id, ok := t.vocab[s.name]
		if !ok {
			return nil, fmt.Errorf("tokenizer.json: the vocabulary has no %q", s.name)
		}
		*s.id = id
	}
	return t, nil
}

// Encode returns the ids of text framed by [CLS] and [SEP], at most max
// ids in all (the words past the window are cut, as the reference
// truncation does); max below 2 means no limit.
func (t *Tokenizer) Encode(text string, max int) []int32 {
	ids := []int32{t.cls}
	limit := -1
	if max >= 2 {
		limit = max - 1 // room for [SEP]
	}
	for _, w := range t.words(t.normalize(text)) {
		ids = t.appendPieces(ids, w)
		if limit >= 0 && len(ids) >= limit {
			ids = ids[:limit]
			break
		}
	}
	return append(ids, t.sep)
}

// normalize applies BertNormalizer.
func (t *Tokenizer) normalize(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if t.cleanText {
			if r == 0 || r == 0xFFFD || isControl(r) {
				continue
			}
			if isWhitespace(r) {
				r = ' '
			}
		}
		if t.chinese && isChineseChar(r) {
			b.WriteByte(' ')
			b.WriteRune(r)
			b.WriteByte(' ')
			continue
		}
		b.WriteRune(r)
	}
	s = b.String()
	if t.stripAccents {
		s = norm.NFD.String(s)
		s = strings.Map(func(r rune) rune {
			if unicode.Is(hfMn, r) {
				return -1
			}
			return r
		}, s)
	}
	if t.lowercase {
		s = lower(s)
	}
	return s
}

// lower lowercases as BertNormalizer does (Rust's char::to_lowercase,
// which maps 'İ' to "i̇").
func lower(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if l, ok := hfLower[r]; ok {
			b.WriteString(l)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// words applies BertPreTokenizer: split on white space, and make each
// punctuation character a word of its own.
func (t *Tokenizer) words(s string) []string {
	var out []string
	start := -1
	for i, r := range s {
		switch {
		case isWhitespace(r):
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
		case isBertPunct(r):
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
			out = append(out, string(r))
		default:
			if start < 0 {
				start = i
			}
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

// appendPieces appends the WordPiece ids of one word: the longest prefix
// in the vocabulary, then the longest continuation ("##...") of the rest,
// and so on; a word with a part no piece matches, or of more than
// maxWordChars characters, is one [UNK].
func (t *Tokenizer) appendPieces(ids []int32, word string) []int32 {
	runes := []rune(word)
	if len(runes) > t.maxWordChars {
		return append(ids, t.unk)
	}
	n := len(ids)
	for start := 0; start < len(runes); {
		end := len(runes)
		found := int32(-1)
		for ; end > start; end-- {
			piece := string(runes[start:end])
			if start > 0 {
				piece = t.prefix + piece
			}
			if id, ok := t.vocab[piece]; ok {
				found = id
				break
			}
		}
		if found < 0 {
			return append(ids[:n], t.unk)
		}
		ids = append(ids, found)
		start = end
	}
	return ids
}

// The character classes are the tokenizers library's (hfunicode.go,
// generated from it): it decides with tables of an older Unicode version
// than Go's unicode package, and lowercases with Rust's.

// isWhitespace is the tokenizers' is_whitespace: tab, newline, carriage
// return and Unicode's White_Space.
func isWhitespace(r rune) bool { return unicode.Is(hfSpace, r) }

// isControl is the tokenizers' is_control: a character of the "Other"
// categories, but tab, newline and carriage return (and, as the
// tokenizers' tables have it, not an unassigned one).
func isControl(r rune) bool { return unicode.Is(hfControl, r) }

// isBertPunct is ASCII punctuation (which counts $+<=>^`|~ too) or a
// Unicode punctuation character.
func isBertPunct(r rune) bool { return unicode.Is(hfPunct, r) }

// isChineseChar reports a CJK Unified Ideograph, as BERT's tokenizer
// defines it.
func isChineseChar(r rune) bool {
	return r >= 0x4E00 && r <= 0x9FFF ||
		r >= 0x3400 && r <= 0x4DBF ||
		r >= 0x20000 && r <= 0x2A6DF ||
		r >= 0x2A700 && r <= 0x2B73F ||
		r >= 0x2B740 && r <= 0x2B81F ||
		r >= 0x2B920 && r <= 0x2CEAF ||
		r >= 0xF900 && r <= 0xFAFF ||
		r >= 0x2F800 && r <= 0x2FA1F
}
