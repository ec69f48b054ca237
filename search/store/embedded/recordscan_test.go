package embedded

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/search/store"
)

// scanAgrees reports how scanRecord's reading of b differs from
// encoding/json's ("" when it does not, or when either declines: scanRecord
// may decline what encoding/json reads, never read it otherwise), with
// full and without.
func scanAgrees(b []byte) (diff string, scanned, decoded bool) {
	var want recordJSON
	err := json.Unmarshal(b, &want)
	decoded = err == nil
	scanned = true
	for _, full := range []bool{false, true} {
		got, ok := scanRecord(b, full)
		scanned = scanned && ok
		if !ok || err != nil {
			continue
		}
		switch {
		case got.accession != want.Filing.Accession:
			return "accession " + got.accession + " against " + want.Filing.Accession, true, true
		case got.chunks != int64(want.Filing.Chunks) || got.length != want.Length || len(got.entries) != len(want.Chunks):
			return "counts", true, true
		}
		for i, e := range got.entries {
			w := want.Chunks[i]
			if !full {
				w = chunkEntry{Item: w.Item, Len: w.Len, Norm: w.Norm}
			}
			if e.ID != w.ID || e.Item != w.Item || e.Title != w.Title || e.Index != w.Index || e.Tokens != w.Tokens ||
				e.Len != w.Len || e.Off != w.Off || e.Size != w.Size || math.Float64bits(e.Norm) != math.Float64bits(w.Norm) {
				return fmt.Sprintf("chunk %d (full %v): %+v against %+v", i, full, e, w), true, true
			}
		}
	}
	return "", scanned, decoded
}

// oddString is a string with what JSON escapes: quotes, backslashes,
// control characters, HTML characters, line separators, bytes that are
// not UTF-8, and keys' names.
func oddString(r *rand.Rand) string {
	parts := []string{"1A", `"`, `\`, "\n", "\x00", "\x1f", "<", ">", "&", "\u2028", "\u2029", "é", "日本", "\xff", "\xc3",
		`","len":9,"x":"`, "item", "len", "norm", "chunks", "}", "]", "{", "[", ":", ",", " ", "\\u0041"}
	var b strings.Builder
	for range r.IntN(5) {
		b.WriteString(parts[r.IntN(len(parts))])
	}
	return b.String()
}

func randomRecord(r *rand.Rand) []byte {
	n := r.IntN(6)
	rec := record{Format: recordFormat, Filing: store.Filing{Accession: oddString(r), CIK: oddString(r), Ticker: oddString(r), Company: oddString(r),
		Form: "10-K", FilingDate: edgar13f.MustParseDate("2020-02-03"), URL: oddString(r), Chunks: n}}
	if r.IntN(2) == 0 {
		rec.Meta = store.Meta{Model: oddString(r), Dim: 1 + r.IntN(9)}
	}
	for i := range n {
		c := chunkEntry{ID: oddString(r), Item: oddString(r), Title: oddString(r), Index: i, Tokens: r.IntN(1000), Len: r.IntN(1 << r.IntN(40)), Off: r.Int64N(1 << 40), Size: r.IntN(5000)}
		switch r.IntN(4) {
		case 0:
			c.Norm = r.Float64() * math.Pow(10, float64(r.IntN(80)-40))
		case 1:
			c.Norm = math.SmallestNonzeroFloat64 * float64(r.IntN(5))
		case 2:
			c.Norm = math.MaxFloat64 / float64(1+r.IntN(3))
		}
		rec.Length += int64(c.Len)
		rec.Chunks = append(rec.Chunks, c)
	}
	b, err := json.Marshal(rec)
	if err != nil {
		panic(err)
	}
	return b
}

// TestScanRecordAgrees: on every record MarshalJSON writes, however odd
// its strings and numbers, scanRecord reads what encoding/json reads; on
// those records damaged byte by byte, it reads the same or declines.
func TestScanRecordAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	declined := 0
	for i := range 3000 {
		b := randomRecord(r)
		diff, scanned, decoded := scanAgrees(b)
		if diff != "" {
			t.Fatalf("record %d: %s: %s", i, diff, b)
		}
		if !decoded || !scanned {
			t.Fatalf("record %d: scanned %v, decoded %v: %s", i, scanned, decoded, b)
		}
		for range 20 {
			m := []byte(string(b))
			switch r.IntN(3) {
			case 0:
				const bytes = "\"\\{}[],:0123456789eE.-+ tnfa\x00\xff"
				m[r.IntN(len(m))] = bytes[r.IntN(len(bytes))]
			case 1:
				j := r.IntN(len(m))
				m = append(m[:j], m[j+1:]...)
			case 2:
				j := r.IntN(len(m))
				m = append(m[:j], append([]byte(`,"Len":5`), m[j:]...)...)
			}
			diff, scanned, decoded := scanAgrees(m)
			if diff != "" {
				t.Fatalf("record %d damaged: %s: %s", i, diff, m)
			}
			if decoded && !scanned {
				declined++
			}
		}
	}
	t.Logf("%d damaged records encoding/json read and scanRecord declined", declined)
}

// TestScanRecordDeclines: what encoding/json would read otherwise than
// the plain scan, scanRecord declines.
func TestScanRecordDeclines(t *testing.T) {
	for _, b := range []string{
		`{"filing":{"accession":"a","chunks":1},"length":5,"chunks":[{"item":"1","len":5,"LEN":6}]}`,
		`{"filing":{"accession":"a","chunks":1},"length":5,"chunks":[{"Item":"1","len":5}]}`,
		`{"Filing":{"accession":"b","chunks":1},"filing":{"accession":"a","chunks":1},"length":5,"chunks":[{"item":"1","len":5}]}`,
		`{"filing":{"accession":"a","chunks":1},"length":5,"chunks":[{"item":"1","len":5.0}]}`,
		`{"filing":{"accession":"a","chunks":1},"length":5,"chunks":[{"item":"1","len":1e1}]}`,
		`{"filing":{"accession":"a","chunks":1},"length":5,"chunks":[{"item":"1","len":99999999999999999999}]}`,
		`{"filing":{"accession":"a","chunks":1},"length":5,"chunks":[{"item":"1","len":05}]}`,
		`{"filing":{"accession":"a","chunks":1},"length":5,"chunks":[{"item":"1","len":5}]} x`,
		`{"filing":{"accession":"a","chunks":1},"length":5,"chunks":[{"item":"1"}]}`,
		`{"filing":{"accession":"a","chunks":1},"length":5,"chunks":[{"item":"1","len":5,"ID":"x"}]}`,
		`{"filing":{"accession":"a","chunks":1},"length":5,"chunks":[{"item":"1","len":5,"off":1.5}]}`,
	} {
		if r, ok := scanRecord([]byte(b), true); ok {
			t.Errorf("scanRecord(%s) = %+v; want it declined", b, r)
		}
	}
	b := `{"filing":{"accession":"a\u0062","chunks":1},"length":5,"chunks":[{"item":"\u00e9\n","len":-0,"norm":1E-3}], "other": [true, false, null, {"x": [1, -2.5e+3]}]}`
	if diff, scanned, decoded := scanAgrees([]byte(b)); diff != "" || !scanned || !decoded {
		t.Errorf("scanRecord(%s): %q, scanned %v, decoded %v", b, diff, scanned, decoded)
	}
}

// FuzzScanRecord: on any bytes encoding/json reads as a record,
// scanRecord reads the same or declines.
func FuzzScanRecord(f *testing.F) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 20 {
		f.Add(randomRecord(r))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if diff, _, _ := scanAgrees(b); diff != "" {
			t.Fatalf("%s: %q", diff, b)
		}
	})
}

// BenchmarkScanRecord reads a filing.json of 400 chunks as a query opening
// the filing does (full false), as an answer from it does (full true),
// and with encoding/json.
func BenchmarkScanRecord(b *testing.B) {
	rec := record{Format: recordFormat, Filing: store.Filing{Accession: "0000100000-15-000000", CIK: "100000", Form: "10-K",
		FilingDate: edgar13f.MustParseDate("2015-01-01"), Chunks: 400}}
	var off int64
	for i := range 400 {
		c := chunkEntry{ID: fmt.Sprintf("%016x", uint64(i)*0x9e3779b97f4a7c15), Item: []string{"1", "1A", "7", "8"}[i/100], Index: i % 100,
			Tokens: 350 + i%50, Len: 170 + i%40, Off: off, Size: 1800 + i%90}
		off += int64(c.Size)
		rec.Length += int64(c.Len)
		rec.Chunks = append(rec.Chunks, c)
	}
	data, err := json.Marshal(rec)
	if err != nil {
		b.Fatal(err)
	}
	for _, full := range []bool{false, true} {
		b.Run(fmt.Sprintf("full=%v", full), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, ok := scanRecord(data, full); !ok {
					b.Fatal("declined")
				}
			}
		})
	}
	b.Run("encoding/json", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			var r record
			if err := json.Unmarshal(data, &r); err != nil {
				b.Fatal(err)
			}
		}
	})
}
