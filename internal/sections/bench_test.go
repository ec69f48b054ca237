package sections

import (
	"os"
	"testing"
)

// BenchmarkSection: one section of Apple's 1.5 MB 10-K, cold from the
// document's bytes (conversion to text, headings, the section).
func BenchmarkSection(b *testing.B) {
	doc := benchDoc(b)
	for b.Loop() {
		d, err := Parse("10-K", doc)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := d.Section(Item{Number: "1A"}, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkText: the conversion of Apple's 10-K from HTML to text alone.
func BenchmarkText(b *testing.B) {
	doc := benchDoc(b)
	for b.Loop() {
		toText(doc)
	}
}

func benchDoc(b *testing.B) []byte {
	doc, err := os.ReadFile(appleDoc)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	return doc
}

// BenchmarkSections: every Item of Johnson & Johnson's 3.7 MB 10-K, whole,
// cold from the document's bytes: what the filing search does per report.
func BenchmarkSections(b *testing.B) {
	doc := readDoc(b, documents+"jnj-10-k-2025-02-13.htm.gz")
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		d, err := Parse("10-K", doc)
		if err != nil {
			b.Fatal(err)
		}
		if n := len(d.Sections()); n != 23 {
			b.Fatalf("%d sections", n)
		}
	}
}
