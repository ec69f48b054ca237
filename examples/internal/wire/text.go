package wire

import (
	"io"
	"unicode/utf8"
)

// A TextWriter writes what is written to it to an io.Writer as the inside
// of a JSON string (without the quotes), escaped exactly as encoding/json's
// Marshal escapes a string, HTML characters included. A text block an MCP
// server writes this way is, byte for byte, what the MCP SDK writes for the
// same text. A newline at the very end of the text is left out: each
// answer of this package ends in one, and a text block holds the object
// alone.
//
// Writes may split the text anywhere, even inside a UTF-8 sequence. Close
// writes what is still held; it does not close the underlying writer.
type TextWriter struct {
	w       io.Writer
	buf     []byte
	carry   []byte // the start of a UTF-8 sequence that the next Write completes
	newline bool   // the text so far ends in a newline not yet written
	err     error
}

// NewTextWriter returns a TextWriter writing to w.
func NewTextWriter(w io.Writer) *TextWriter {
	return &TextWriter{w: w, buf: make([]byte, 0, flushAt+flushAt/8)}
}

// Write escapes p.
func (t *TextWriter) Write(p []byte) (int, error) {
	n := len(p)
	if t.err != nil || n == 0 {
		return 0, t.err
	}
	if t.newline {
		t.buf = append(t.buf, '\\', 'n')
		t.newline = false
	}
	if len(t.carry) > 0 { // rare: a write ended inside a UTF-8 sequence
		p = append(t.carry, p...)
		t.carry = nil
	}
	if p[len(p)-1] == '\n' {
		p, t.newline = p[:len(p)-1], true
	} else if k := unfinished(p); k > 0 {
		t.carry = append([]byte(nil), p[len(p)-k:]...)
		p = p[:len(p)-k]
	}
	t.buf = appendEscaped(t.buf, p, true)
	if len(t.buf) >= flushAt {
		t.flush()
	}
	return n, t.err
}

// unfinished returns the length of the UTF-8 sequence at the end of p that
// more bytes could complete, or 0.
func unfinished(p []byte) int {
	for k := 1; k < utf8.UTFMax && k <= len(p); k++ {
		c := p[len(p)-k]
		if c < utf8.RuneSelf {
			return 0
		}
		if utf8.RuneStart(c) {
			if utf8.FullRune(p[len(p)-k:]) {
				return 0
			}
			return k
		}
	}
	return 0
}

// empty reports whether t holds nothing and has not failed.
func (t *TextWriter) empty() bool {
	return len(t.buf) == 0 && len(t.carry) == 0 && !t.newline && t.err == nil
}

// escaped writes bytes escaped already to t's writer; its errors are t's.
type escaped struct{ t *TextWriter }

func (e escaped) Write(p []byte) (int, error) {
	if e.t.err == nil {
		_, e.t.err = e.t.w.Write(p)
	}
	if e.t.err != nil {
		return 0, e.t.err
	}
	return len(p), nil
}

func (t *TextWriter) flush() {
	if t.err == nil && len(t.buf) > 0 {
		_, t.err = t.w.Write(t.buf)
	}
	t.buf = t.buf[:0]
}

// Close writes the held bytes (an unfinished UTF-8 sequence is escaped as
// invalid) and returns the first error of the underlying writer.
func (t *TextWriter) Close() error {
	if len(t.carry) > 0 {
		t.buf = appendEscaped(t.buf, t.carry, true)
		t.carry = nil
	}
	t.flush()
	return t.err
}
