package opensearch

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f/search/store"
)

// benchChunks are n chunks of about 450 tokens with vectors of dimension
// dim.
func benchChunks(n, dim int) ([]store.Chunk, [][]float32) {
	f := apple()
	text := strings.Repeat("The Company is subject to export controls and trade restrictions in several markets. ", 30)
	chunks := make([]store.Chunk, n)
	vectors := make([][]float32, n)
	for i := range chunks {
		chunks[i] = store.Chunk{ID: chunkID(f.Accession, "7", i), Accession: f.Accession, Item: "7", ItemTitle: "Management's Discussion and Analysis", Index: i, Tokens: 450, Text: text}
		v := make([]float32, dim)
		for j := range v {
			v[j] = float32((i*31+j*17)%97)/97 - 0.5
		}
		vectors[i] = v
	}
	return chunks, vectors
}

// BenchmarkBulkEncode measures the client's work to encode 1,000 chunks
// with 768-dimension vectors as _bulk lines.
func BenchmarkBulkEncode(b *testing.B) {
	chunks, vectors := benchChunks(1000, 768)
	f := apple()
	docs := make([]bulkDoc, len(chunks))
	for i, c := range chunks {
		docs[i] = bulkDoc{id: "g:" + c.ID, doc: chunkDoc("g", f, c, vectors[i])}
	}
	b.ReportAllocs()
	var size int
	for b.Loop() {
		lines, err := bulkLines(docs)
		if err != nil {
			b.Fatal(err)
		}
		size = 0
		for _, l := range lines {
			size += len(l)
		}
	}
	b.ReportMetric(float64(size)/1000, "bytes/chunk")
}

// BenchmarkDecodeHits measures decoding a search answer of 50 chunks into
// matches.
func BenchmarkDecodeHits(b *testing.B) {
	chunks, _ := benchChunks(50, 0)
	f := apple()
	var hits []string
	for i, c := range chunks {
		src, _ := json.Marshal(chunkDoc("g", f, c, nil))
		hits = append(hits, fmt.Sprintf(`{"_index":"t-data-0","_id":"g:%s","_score":%g,"_source":%s,"sort":[%g,"%s"]}`, c.ID, 10-float64(i)/10, src, 10-float64(i)/10, c.ID))
	}
	body := []byte(`{"took":5,"timed_out":false,"_shards":{"total":1,"successful":1,"skipped":0,"failed":0},"hits":{"total":{"value":50,"relation":"eq"},"max_score":10,"hits":[` + strings.Join(hits, ",") + `]}}`)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		var r searchResponse
		if err := json.Unmarshal(body, &r); err != nil {
			b.Fatal(err)
		}
		ms, err := matches(&r, func(x float64) float64 { return x })
		if err != nil || len(ms) != 50 {
			b.Fatal(len(ms), err)
		}
	}
}
