package varint

import (
	"encoding/binary"
	"math"
	"testing"
)

// TestAgreesWithBinary: every value encoding/binary writes reads back, from
// a byte slice and from a string, and a cut or overlong varint fails as
// binary.Uvarint says it does.
func TestAgreesWithBinary(t *testing.T) {
	us := []uint64{0, 1, 127, 128, 255, 300, 1 << 32, math.MaxUint64 - 1, math.MaxUint64}
	is := []int64{0, 1, -1, 63, -64, 64, math.MaxInt64, math.MinInt64}
	var b []byte
	for _, u := range us {
		b = binary.AppendUvarint(b, u)
	}
	for _, i := range is {
		b = binary.AppendVarint(b, i)
	}
	b = AppendString(b, "CUSIP 037833100")
	check := func(name string, got, want any) {
		t.Helper()
		if got != want {
			t.Errorf("%s: got %v, want %v", name, got, want)
		}
	}
	rb, rs := NewReader(b), NewReader(string(b))
	for _, u := range us {
		check("Uvarint", rb.Uvarint(), u)
		check("Uvarint (string)", rs.Uvarint(), u)
	}
	for _, i := range is {
		check("Varint", rb.Varint(), i)
		check("Varint (string)", rs.Varint(), i)
	}
	check("String", string(rb.String()), "CUSIP 037833100")
	check("String (string)", rs.String(), "CUSIP 037833100")
	if rb.Failed() || rs.Failed() || rb.Len() != 0 || rs.Len() != 0 {
		t.Fatalf("failed %t %t, %d and %d bytes left", rb.Failed(), rs.Failed(), rb.Len(), rs.Len())
	}

	// Every prefix of every varint, and the overlong encodings.
	bad := [][]byte{
		{}, {0x80}, {0xff, 0xff},
		{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02},       // over 64 bits
		{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}, // 11 bytes
	}
	for _, u := range us {
		e := binary.AppendUvarint(nil, u)
		for n := range len(e) {
			bad = append(bad, e[:n])
		}
	}
	for _, e := range bad {
		if _, n := binary.Uvarint(e); n > 0 {
			t.Fatalf("%x is a good varint to encoding/binary", e)
		}
		r := NewReader(e)
		if v := r.Uvarint(); !r.Failed() || v != 0 {
			t.Errorf("Uvarint(%x) = %d, failed %t; want a failure", e, v, r.Failed())
		}
	}
}

func TestFailureSticks(t *testing.T) {
	r := NewReader([]byte{5, 'a', 'b'})
	if s := r.String(); !r.Failed() || s != nil {
		t.Fatalf("String of 5 bytes from 2 = %q, failed %t", s, r.Failed())
	}
	if r.Byte() != 0 || r.Uvarint() != 0 || r.Count() != 0 {
		t.Error("reads after a failure returned values")
	}
	rs := NewReader("\x09ab")
	if n := rs.Count(); !rs.Failed() || n != 0 {
		t.Errorf("Count of 9 with 2 bytes left = %d, failed %t", n, rs.Failed())
	}
}

func FuzzReader(f *testing.F) {
	f.Add([]byte{0x96, 0x01, 3, 'a', 'b', 'c'})
	f.Fuzz(func(t *testing.T, b []byte) {
		r, rs := NewReader(b), NewReader(string(b))
		for !r.Failed() && r.Len() > 0 {
			want, n := binary.Uvarint(b[len(b)-r.Len():])
			got := r.Uvarint()
			if gs := rs.Uvarint(); gs != got || rs.Failed() != r.Failed() {
				t.Fatalf("string and slice readers differ: %d/%t and %d/%t", gs, rs.Failed(), got, r.Failed())
			}
			if (n > 0) == r.Failed() || (n > 0 && got != want) {
				t.Fatalf("Uvarint = %d (failed %t), encoding/binary = %d, %d", got, r.Failed(), want, n)
			}
		}
	})
}
