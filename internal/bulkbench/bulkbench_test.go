package bulkbench

import (
	"bytes"
	"testing"

	"github.com/edgar13f/edgar13f/internal/datasetzip"
)

// TestWrite: the generated window reads back as a Data Sets window whose
// INFOTABLE holds every row, each filing's rows agree with its cover
// total, and no filing is far larger than the skew allows (the rows the
// skew leaves over are spread, not given to one filing).
func TestWrite(t *testing.T) {
	const rows = 64_000
	var buf bytes.Buffer
	if _, err := Write(&buf, rows); err != nil {
		t.Fatal(err)
	}
	a, err := datasetzip.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()), Window)
	if err != nil {
		t.Fatal(err)
	}
	fs, err := a.Filings()
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != filingsFor(rows) {
		t.Fatalf("%d filings, want %d", len(fs), filingsFor(rows))
	}
	counted := map[string]int64{}
	tb, err := a.Table(datasetzip.InfoTable)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	var row datasetzip.InfoRow
	n := 0
	for tb.Next() {
		if err := tb.InfoRow(&row); err != nil {
			t.Fatal(err)
		}
		counted[string(row.Accession)]++
		n++
	}
	if err := tb.Err(); err != nil {
		t.Fatal(err)
	}
	if n != rows {
		t.Fatalf("%d INFOTABLE rows, want %d", n, rows)
	}
	limit := int64(4*rows/len(fs)) + int64(rows/len(fs)) // the largest skew plus the spread left-over
	for _, f := range fs {
		if counted[f.Accession] != f.TableEntryTotal {
			t.Errorf("%s: %d rows, cover says %d", f.Accession, counted[f.Accession], f.TableEntryTotal)
		}
		if counted[f.Accession] > limit {
			t.Errorf("%s holds %d rows, more than %d", f.Accession, counted[f.Accession], limit)
		}
	}
}
