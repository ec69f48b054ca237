package factstore

import (
	"bufio"
	"bytes"
	"fmt"
	"slices"
	"testing"
	"unsafe"
)

// TestPartTagsHoldNoSpill checks that the tags of a part, which outlive
// it, do not keep its spill bytes in memory: a tag's string must not be a
// view of them, or an import holds every part's spill until it ends (at
// 10 million facts, 1.3 GiB of heap instead of one part's).
func TestPartTagsHoldNoSpill(t *testing.T) {
	var buf bytes.Buffer
	sp := &spill{bufs: []*bufio.Writer{bufio.NewWriter(&buf)}, n: []int64{0}}
	for i, tag := range []string{"Revenues", "Revenues", "NetIncomeLoss", "Assets"} {
		f := Fact{Taxonomy: "us-gaap", Tag: tag, Unit: "USD", CIK: int64(320193 + i), End: 20000, ValueText: "1", Value: 1,
			Accession: "0000320193-24-000001", Form: "10-K", Filed: 20100}
		if err := sp.add(&f, 1); err != nil {
			t.Fatal(err)
		}
	}
	if err := sp.bufs[0].Flush(); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	facts, err := readSpill(b, sp.n[0])
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(facts, func(a, b Fact) int { return CompareFacts(&a, &b) })
	tags := partTags(facts, 0)
	var got []string
	for _, tg := range tags {
		got = append(got, fmt.Sprintf("%s:%s %s %d", tg.Taxonomy, tg.Tag, tg.Unit, tg.Facts))
	}
	if want := []string{"us-gaap:Assets USD 1", "us-gaap:NetIncomeLoss USD 1", "us-gaap:Revenues USD 2"}; !slices.Equal(got, want) {
		t.Fatalf("tags %q, want %q", got, want)
	}
	lo, hi := uintptr(unsafe.Pointer(&b[0])), uintptr(unsafe.Pointer(&b[0]))+uintptr(len(b))
	for _, tg := range tags {
		for _, s := range []string{tg.Taxonomy, tg.Tag, tg.Unit} {
			if p := uintptr(unsafe.Pointer(unsafe.StringData(s))); p >= lo && p < hi {
				t.Errorf("tag %s:%s (%s): %q is a view of the part's spill bytes", tg.Taxonomy, tg.Tag, tg.Unit, s)
			}
		}
	}
}
