package jsonscan

import (
	"bytes"
	"testing"
)

// TestSpecial8 checks the eight-byte string scan against a byte loop for
// every byte value in every position, next to ordinary and special bytes.
func TestSpecial8(t *testing.T) {
	naive := func(b []byte) bool {
		for _, c := range b {
			if c == '"' || c == '\\' || c < 0x20 {
				return true
			}
		}
		return false
	}
	for _, fill := range []byte{'a', 0x7f, 0x80, 0xff, ' ', '!', '#', '[', ']'} {
		for pos := range 8 {
			for v := range 256 {
				b := bytes.Repeat([]byte{fill}, 8)
				b[pos] = byte(v)
				x := uint64(0)
				for i := 7; i >= 0; i-- {
					x = x<<8 | uint64(b[i])
				}
				if got, want := special8(x), naive(b); got != want {
					t.Fatalf("special8(% x) = %v; want %v", b, got, want)
				}
			}
		}
	}
}
