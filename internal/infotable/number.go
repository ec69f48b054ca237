package infotable

import (
	"fmt"
	"math"
	"strings"
)

// parseNumber parses a non-negative decimal number as filed in a table: an
// integer part with optional thousands separators ("1,234,567"), optionally
// followed by "." and a fraction ("1234.00", "1234.", ".5"). A fraction is
// rounded to the nearest integer, halves away from zero ("10.5" is 11). s
// must already be trimmed.
func parseNumber(s string) (int64, error) {
	if strings.HasPrefix(s, "-") {
		return 0, fmt.Errorf("negative number %q", s)
	}
	intPart, frac, _ := strings.Cut(s, ".")
	if intPart == "" && frac == "" || !validGrouping(intPart) || !allDigits(frac) {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	var n int64
	for i := 0; i < len(intPart); i++ {
		c := intPart[i]
		if c == ',' {
			continue
		}
		d := int64(c - '0')
		if n > (math.MaxInt64-d)/10 {
			return 0, fmt.Errorf("number %q is out of range", s)
		}
		n = n*10 + d
	}
	if frac != "" && frac[0] >= '5' {
		if n == math.MaxInt64 {
			return 0, fmt.Errorf("number %q is out of range", s)
		}
		n++
	}
	return n, nil
}

// allDigits reports whether s consists of ASCII digits only ("" does).
func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// validGrouping reports whether s is empty, a run of digits, or digits
// grouped by commas as thousands separators: 1 to 3 leading digits, then
// groups of exactly 3.
func validGrouping(s string) bool {
	first, rest, grouped := strings.Cut(s, ",")
	if !grouped {
		return allDigits(s)
	}
	if len(first) < 1 || len(first) > 3 || !allDigits(first) {
		return false
	}
	for {
		g, more, ok := strings.Cut(rest, ",")
		if len(g) != 3 || !allDigits(g) {
			return false
		}
		if !ok {
			return true
		}
		rest = more
	}
}

// parseNumberBytes is parseNumber for bytes, without allocating for plain
// digit strings.
func parseNumberBytes(s []byte) (int64, error) {
	if len(s) > 0 && len(s) <= 18 {
		var n int64
		for _, c := range s {
			if c < '0' || c > '9' {
				goto general
			}
			n = n*10 + int64(c-'0')
		}
		return n, nil
	}
general:
	return parseNumber(string(s))
}
