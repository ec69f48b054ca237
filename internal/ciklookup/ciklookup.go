// Package ciklookup reads EDGAR's cik-lookup-data.txt, the list of every
// current and former entity name with its CIK, one "NAME:CIK:" line each.
//
// The file is large (about a million lines), so it is read as a stream. It
// is not UTF-8: names hold Latin-1 bytes. A line that is valid UTF-8 is
// taken as it is; any other line is decoded as windows-1252 (ISO-8859-1 with
// printable characters in 0x80-0x9F), so every name comes out as UTF-8.
package ciklookup

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/edgar13f/edgar13f/internal/edgarid"
)

// MaxLine is the longest line Parse accepts, in bytes.
const MaxLine = 64 << 10

// An Entry is one line of the file: a name and the CIK it belongs to.
type Entry struct {
	Name string // UTF-8, surrounding white space removed
	CIK  uint64
}

// Parse reads r line by line and calls fn for every entry, in file order.
// Blank lines are skipped. A line without a "NAME:CIK:" shape, a CIK of
// more than 10 digits or fn's error stops the reading; the error names
// the line.
func Parse(r io.Reader, fn func(Entry) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLine)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimRight(sc.Bytes(), "\r")
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		e, err := parseLine(line)
		if err != nil {
			return fmt.Errorf("ciklookup: line %d: %v", n, err)
		}
		if err := fn(e); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return fmt.Errorf("ciklookup: line longer than %d bytes", MaxLine)
		}
		return fmt.Errorf("ciklookup: %w", err)
	}
	return nil
}

// parseLine splits "NAME:CIK:" at its last two colons: names may contain
// colons themselves.
func parseLine(line []byte) (Entry, error) {
	rest, ok := bytes.CutSuffix(bytes.TrimRight(line, " \t"), []byte(":"))
	if !ok {
		return Entry{}, errors.New("no trailing ':'")
	}
	i := bytes.LastIndexByte(rest, ':')
	if i < 0 {
		return Entry{}, errors.New("no ':' between name and CIK")
	}
	digits := bytes.TrimSpace(rest[i+1:])
	cik, ok := edgarid.ParseCIK(digits)
	if !ok {
		return Entry{}, fmt.Errorf("CIK %q is not 1 to 10 digits", digits)
	}
	name := strings.TrimSpace(DecodeName(rest[:i]))
	if name == "" {
		return Entry{}, errors.New("empty name")
	}
	return Entry{Name: name, CIK: cik}, nil
}

// DecodeName returns b as UTF-8: unchanged when it is valid UTF-8, else
// decoded byte by byte as windows-1252.
func DecodeName(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var s strings.Builder
	s.Grow(len(b) + len(b)/4)
	for _, c := range b {
		switch {
		case c < 0x80:
			s.WriteByte(c)
		case c < 0xA0:
			s.WriteRune(cp1252[c-0x80])
		default:
			s.WriteRune(rune(c))
		}
	}
	return s.String()
}

// cp1252 maps the bytes 0x80-0x9F of windows-1252 to Unicode; the five
// bytes it leaves undefined map to the control character of the same value.
var cp1252 = [32]rune{
	'€', 0x81, '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', 0x8D, 'Ž', 0x8F,
	0x90, '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', 0x9D, 'ž', 'Ÿ',
}
