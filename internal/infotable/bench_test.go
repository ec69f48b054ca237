package infotable

import (
	"bytes"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/edgar13f/edgar13f/internal/benchdata"
)

// benchRows is the size of the benchmark table, that of the largest real
// 13F reports.
const benchRows = 50_000

var (
	table50kOnce sync.Once
	table50k     []byte
)

// benchTable returns the generated 50,000-row table (about 24.6 MB).
func benchTable() []byte {
	table50kOnce.Do(func() { table50k = benchdata.InfoTable(benchRows, "") })
	return table50k
}

// benchParse runs parse over the 50k-row table and reports MB/s, B/op,
// allocs/op, ns/row and allocs/row.
func benchParse(b *testing.B, parse func([]byte, func(*Row) bool) ([]Row, error)) {
	data := benchTable()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	for b.Loop() {
		rows, err := parse(data, nil)
		if err != nil {
			b.Fatal(err)
		}
		if len(rows) != benchRows {
			b.Fatalf("%d rows, want %d", len(rows), benchRows)
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	n := float64(b.N) * benchRows
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/row")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/n, "allocs/row")
}

// BenchmarkParseReference50k is the encoding/xml baseline.
func BenchmarkParseReference50k(b *testing.B) { benchParse(b, ParseReference) }

// BenchmarkParse50k is the fast parser.
func BenchmarkParse50k(b *testing.B) { benchParse(b, Parse) }

// BenchmarkParseSpeedup50k times both parsers on the same input in each
// iteration (each of them runs times, alternating) and reports, from
// the fastest run of each, how many times faster Parse is (speedup-x) and
// both throughputs. Taking the fastest run of each in one benchmark keeps
// the ratio meaningful on a shared, noisy machine.
func BenchmarkParseSpeedup50k(b *testing.B) {
	const runs = 3
	data := benchTable()
	ref, fast := time.Duration(1<<62), time.Duration(1<<62)
	for b.Loop() {
		for range runs {
			t0 := time.Now()
			if _, err := ParseReference(data, nil); err != nil {
				b.Fatal(err)
			}
			t1 := time.Now()
			if _, err := Parse(data, nil); err != nil {
				b.Fatal(err)
			}
			ref, fast = min(ref, t1.Sub(t0)), min(fast, time.Since(t1))
		}
	}
	b.ReportMetric(float64(ref)/float64(fast), "speedup-x")
	b.ReportMetric(float64(len(data))/fast.Seconds()/1e6, "fast-MB/s")
	b.ReportMetric(float64(len(data))/ref.Seconds()/1e6, "reference-MB/s")
}

// BenchmarkParseRowError50k is Parse of the 50k-row table with a row that
// breaks a row rule at its end: the cost of refusing a large table.
func BenchmarkParseRowError50k(b *testing.B) {
	data := benchTable()
	i := bytes.LastIndex(data, []byte("</infoTable>"))
	bad := append(append(slices.Clip(data[:i]), "<putCall>MAYBE</putCall>"...), data[i:]...)
	b.SetBytes(int64(len(bad)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(bad, nil); err == nil {
			b.Fatal("Parse accepted the bad row")
		}
	}
}
