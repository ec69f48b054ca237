package companyfacts

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/edgar13f/edgar13f/internal/civil"
)

// loop runs op b.N times and reports the process CPU time per operation
// (cpu-ns/op) beside the wall time.
func loop(b *testing.B, op func() error) {
	b.Helper()
	b.ReportAllocs()
	start := cpuTime()
	n := 0
	for b.Loop() {
		if err := op(); err != nil {
			b.Fatal(err)
		}
		n++
	}
	if used := cpuTime() - start; start != 0 && n > 0 {
		b.ReportMetric(float64(used/time.Duration(n)), "cpu-ns/op")
	}
}

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
		loop(b, func() error { _, err := Decode(data); return err })
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		loop(b, func() error { var d naiveDoc; return json.Unmarshal(data, &d) })
	})
}

// BenchmarkWarmAnswer answers from the cached form: Load of Apple's
// encoding plus one Annual query, and the query alone on loaded Facts.
func BenchmarkWarmAnswer(b *testing.B) {
	f := decodeReal(b, "CIK0000320193")
	blob := f.Bytes()
	asOf := civil.DayOf(2024, 12, 31)
	b.Logf("cached form: %d bytes (JSON %d bytes)", len(blob), len(readReal(b, "CIK0000320193")))
	b.Run("Load+Annual", func(b *testing.B) {
		loop(b, func() error {
			g, err := Load(blob)
			if err != nil {
				return err
			}
			_, err = g.Annual("revenue", asOf, DefaultYears)
			return err
		})
	})
	b.Run("Annual", func(b *testing.B) {
		loop(b, func() error { _, err := f.Annual("revenue", asOf, DefaultYears); return err })
	})
	b.Run("Annual-30y-eps", func(b *testing.B) {
		loop(b, func() error { _, err := f.Annual("eps", asOf, MaxYears); return err })
	})
}
