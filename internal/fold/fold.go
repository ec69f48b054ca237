// Package fold folds text for case-insensitive matching with runs of white
// space counted as one space: the matching of issuer names (the Issuer
// filter) and of entity names (FindManager).
package fold

import (
	"strings"
	"unicode/utf8"
)

// String lower-cases s and collapses runs of white space to one space,
// trimming it at both ends.
func String(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// Append appends String(s) to b, without allocating for ASCII text.
func Append(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return append(b, String(s)...)
		}
	}
	space := false
	start := len(b)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || '\t' <= c && c <= '\r':
			space = true
			continue
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		if space && len(b) > start {
			b = append(b, ' ')
		}
		space = false
		b = append(b, c)
	}
	return b
}
