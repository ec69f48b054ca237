package fulltext

import (
	"bytes"
	"os"
	"testing"
	"unsafe"

	"github.com/edgar13f/edgar13f/internal/edgartest/edgarfiles"
)

// FuzzParse checks that Parse never panics and that every document text it
// returns is a sub-slice of the input, capped at its length. Seeds: a real
// submission here and odd ones in testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	b, err := os.ReadFile(edgarfiles.Mirror + "/www.sec.gov/Archives/edgar/data/9000001/000900000125000004/0009000001-25-000004.txt")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data)
		if err != nil {
			if s != nil {
				t.Fatalf("Parse returned a submission with error %v", err)
			}
			return
		}
		if s.Accession == "" || s.Type == "" || len(s.Documents) == 0 {
			t.Errorf("accepted a submission without accession, type or documents: %+v", s)
		}
		for i, d := range s.Documents {
			if d.Text == nil {
				continue
			}
			if cap(d.Text) != len(d.Text) {
				t.Errorf("document %d: capacity %d beyond length %d", i, cap(d.Text), len(d.Text))
			}
			if len(d.Text) > 0 && !within(data, d.Text) {
				t.Errorf("document %d: text is not a sub-slice of the input", i)
			}
			if !bytes.Contains(data, d.Text) {
				t.Errorf("document %d: text not found in the input", i)
			}
		}
	})
}

// within reports whether sub lies inside the memory of b.
func within(b, sub []byte) bool {
	if len(b) == 0 {
		return false
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	p := uintptr(unsafe.Pointer(unsafe.SliceData(sub)))
	return p >= start && p+uintptr(len(sub)) <= start+uintptr(len(b))
}
