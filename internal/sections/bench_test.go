package sections

import (
	"os"
	"testing"
)

func BenchmarkSection(b *testing.B) {
	doc, err := os.ReadFile(appleDoc)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
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

func BenchmarkText(b *testing.B) {
	doc, err := os.ReadFile(appleDoc)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		toText(doc)
	}
}
