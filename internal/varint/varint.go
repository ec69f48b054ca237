// Package varint reads the compact encodings edgar13f keeps in its cache
// (parsed information tables, the name index): the varints of
// encoding/binary and strings prefixed by their length, from a byte slice
// or, without copying it, from a string. Writing needs nothing of its own:
// binary.AppendUvarint and binary.AppendVarint, and [AppendString].
package varint

import "encoding/binary"

// A Reader reads varints and byte runs from the start of b. Once a read
// fails (b ends too soon, or a varint overflows 64 bits), Failed reports
// true and every later read returns a zero value, so that a decoder can
// check once, at the end or per record.
type Reader[T ~string | ~[]byte] struct {
	b      T
	off    int
	failed bool
}

// NewReader returns a Reader of b.
func NewReader[T ~string | ~[]byte](b T) Reader[T] { return Reader[T]{b: b} }

// Failed reports whether a read has failed.
func (r *Reader[T]) Failed() bool { return r.failed }

// Fail marks the Reader failed, for a value that decoded but makes no sense.
func (r *Reader[T]) Fail() { r.failed = true }

// Len returns the number of bytes not read yet.
func (r *Reader[T]) Len() int { return len(r.b) - r.off }

// Byte reads one byte.
func (r *Reader[T]) Byte() byte {
	if r.failed || r.off >= len(r.b) {
		r.failed = true
		return 0
	}
	c := r.b[r.off]
	r.off++
	return c
}

// Uvarint reads an unsigned varint as binary.AppendUvarint writes it.
func (r *Reader[T]) Uvarint() uint64 {
	if r.failed {
		return 0
	}
	var v uint64
	for i, shift := r.off, uint(0); i < len(r.b) && shift < 64; i, shift = i+1, shift+7 {
		c := r.b[i]
		if c < 0x80 {
			if shift == 63 && c > 1 {
				break // overflows 64 bits
			}
			r.off = i + 1
			return v | uint64(c)<<shift
		}
		v |= uint64(c&0x7f) << shift
	}
	r.failed = true
	return 0
}

// Varint reads a zig-zag varint as binary.AppendVarint writes it.
func (r *Reader[T]) Varint() int64 {
	u := r.Uvarint()
	x := int64(u >> 1)
	if u&1 != 0 {
		x = ^x
	}
	return x
}

// Next returns the next n bytes.
func (r *Reader[T]) Next(n uint64) T {
	if r.failed || n > uint64(r.Len()) {
		r.failed = true
		var zero T
		return zero
	}
	s := r.b[r.off : r.off+int(n)]
	r.off += int(n)
	return s
}

// String reads a length, then that many bytes.
func (r *Reader[T]) String() T { return r.Next(r.Uvarint()) }

// Count reads a length of something still to be read, which cannot
// exceed the bytes left (every element takes at least one byte), so that a
// corrupt length cannot make its caller allocate much.
func (r *Reader[T]) Count() int {
	n := r.Uvarint()
	if n > uint64(r.Len()) {
		r.failed = true
		return 0
	}
	return int(n)
}

// AppendString appends s prefixed by its length, as String reads it.
func AppendString[T ~string | ~[]byte](b []byte, s T) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}
