package companyfacts

import (
	"encoding/json"
	"testing"
)

// naiveDoc is how a companyfacts document decodes with encoding/json into
// plain structs: the reference Decode is measured against.
type naiveDoc struct {
	CIK        int    `json:"cik"`
	EntityName string `json:"entityName"`
	Facts      map[string]map[string]struct {
		Label       string `json:"label"`
		Description string `json:"description"`
		Units       map[string][]struct {
			Start string  `json:"start"`
			End   string  `json:"end"`
			Val   float64 `json:"val"`
			Accn  string  `json:"accn"`
			FY    int     `json:"fy"`
			FP    string  `json:"fp"`
			Form  string  `json:"form"`
			Filed string  `json:"filed"`
			Frame string  `json:"frame"`
		} `json:"units"`
	} `json:"facts"`
}

// BenchmarkDecode decodes Apple's 3.5 MB companyfacts with Decode and, in
// the same run, with encoding/json into plain structs.
func BenchmarkDecode(b *testing.B) {
	data := readReal(b, "CIK0000320193")
	b.Run("Decode", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Decode(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			var d naiveDoc
			if err := json.Unmarshal(data, &d); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkWarmAnswer answers from the cached form: Load of Apple's
// encoding plus one Annual query, and the query alone on loaded Facts.
func BenchmarkWarmAnswer(b *testing.B) {
	f := decodeReal(b, "CIK0000320193")
	blob := f.Bytes()
	asOf := DayOf(2024, 12, 31)
	b.Logf("cached form: %d bytes (JSON %d bytes)", len(blob), len(readReal(b, "CIK0000320193")))
	b.Run("Load+Annual", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			g, err := Load(blob)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := g.Annual("revenue", asOf, DefaultYears); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Annual", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := f.Annual("revenue", asOf, DefaultYears); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Annual-30y-eps", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := f.Annual("eps", asOf, MaxYears); err != nil {
				b.Fatal(err)
			}
		}
	})
}
