package opensearch

import (
	"encoding/json"
	"math"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	osgo "github.com/opensearch-project/opensearch-go/v4"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/search/store"
)

// TestNoGraph checks the three layouts of the vectors, on the simulator
// and on the real node at EDGAR13F_OPENSEARCH_TEST_URL:
//   - a store whose first Put is made with ExactNearest keeps its vectors
//     in the faiss engine's flat format and never builds a graph (a
//     knn_vector on faiss, approximate_threshold -1, _meta no_graph and
//     flat, a state document of format 3), and a Store opened on it
//     without the option answers Nearest exactly, with the same answer,
//     also after a Put of its own, and also when a Put made with the
//     option created the index but was killed before its commit; it
//     refuses to answer when the setting that keeps faiss from building
//     graphs was changed;
//   - a store of the version before, which kept such vectors in doc
//     values (a knn_vector without a method, _meta no_graph, state format
//     2), takes Puts and answers exactly, as before (a knn query would
//     fail: the graph is not there);
//   - a store with a graph answers a Store with ExactNearest as it
//     answers one without.
func TestNoGraph(t *testing.T) {
	onSimulatorAndNode(t, "nograph", testNoGraph)
}

func testNoGraph(t *testing.T, c *osgo.Client, prefix string) {
	open := func(name string, opts ...Option) *Store {
		t.Helper()
		return openDropped(t, c, prefix+"-"+name, opts...)
	}
	all := store.Filter{AsOf: edgar13f.MustParseDate("2024-12-31")}
	q := []float32{0.5, -0.25, 1}
	chunks := appleChunks()
	// The second chunk's vector is zero: it is stored without one.
	wantIDs := []string{chunks[2].ID, chunks[0].ID}
	nearest := func(s *Store, what string) []store.Match {
		t.Helper()
		ms, err := s.Nearest(ctx, q, all, 3)
		if err != nil {
			t.Fatalf("%s: Nearest: %v", what, err)
		}
		var ids []string
		for _, m := range ms {
			ids = append(ids, m.Chunk.ID)
		}
		if !cmp.Equal(ids, wantIDs) || math.Abs(ms[0].Score-1) > 1e-12 {
			t.Errorf("%s: Nearest = %+v; want %v, the first at cosine 1", what, ms, wantIDs)
		}
		return ms
	}
	put := func(s *Store, what string) {
		t.Helper()
		if err := s.Put(ctx, apple(), chunks, appleVectors(), meta3); err != nil {
			t.Fatalf("%s: Put: %v", what, err)
		}
	}
	stateOf := func(s *Store) *state {
		t.Helper()
		st, err := s.readState(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	checkState := func(s *Store, what string, format int, noGraph, flat bool) {
		t.Helper()
		if st := stateOf(s); st.Format != format || st.NoGraph != noGraph || st.Flat != flat {
			t.Errorf("state of %s: format %d, no_graph %v, flat %v; want format %d, no_graph %v, flat %v", what, st.Format, st.NoGraph, st.Flat, format, noGraph, flat)
		}
	}

	// A store made with ExactNearest: flat vectors.
	exact := open("flat", ExactNearest())
	put(exact, "ExactNearest")
	vector, m := vectorMapping(t, exact)
	if method, _ := vector["method"].(map[string]any); method["engine"] != "faiss" || m["no_graph"] != true || m["flat"] != true {
		t.Errorf("mapping of a store made with ExactNearest: vector %v, _meta %v; want a knn_vector on faiss, no_graph and flat", vector, m)
	}
	checkState(exact, "a store made with ExactNearest", flatFormat, true, true)
	want := nearest(exact, "ExactNearest on the flat store")
	other := open("flat")
	if got := nearest(other, "no option, on the flat store"); !cmp.Equal(got, want) {
		t.Errorf("Nearest without the option = %+v; want %+v (ExactNearest's)", got, want)
	}
	// A Put without the option adds to the store as it is.
	put(other, "no option, into the flat store")
	if got := nearest(other, "no option, after its own Put"); !cmp.Equal(got, want) {
		t.Errorf("Nearest after a Put without the option = %+v; want %+v", got, want)
	}
	checkState(other, "the flat store after a Put without the option", flatFormat, true, true)

	// Were the setting that keeps faiss from building graphs changed, a
	// knn query could be approximate: a Store refuses to answer.
	setThreshold := func(v int) {
		t.Helper()
		if _, err := exact.do(ctx, "put settings", http.MethodPut, "/"+exact.dataIndex(0)+"/_settings", nil, map[string]any{approximateThreshold: v}); err != nil {
			t.Fatal(err)
		}
	}
	setThreshold(0)
	if ms, err := open("flat").Nearest(ctx, q, all, 3); err == nil || !strings.Contains(err.Error(), "only while "+approximateThreshold+" is -1") {
		t.Errorf("Nearest with %s 0 = %v, %v; want an error naming it", approximateThreshold, ms, err)
	}
	setThreshold(-1)
	if got := nearest(open("flat"), "the setting back to -1"); !cmp.Equal(got, want) {
		t.Errorf("Nearest = %+v; want %+v", got, want)
	}

	// A Put made with ExactNearest that created the data index and was
	// killed before its commit: the Put that commits first, without the
	// option, records the index's layout as its _meta gives it.
	killed := open("killed", ExactNearest())
	if _, err := killed.ensureDataIndex(ctx, 0, meta3); err != nil {
		t.Fatal(err)
	}
	later := open("killed")
	put(later, "no option, into the index a killed Put made")
	checkState(later, "the first commit into a flat index, by a Store without the option", flatFormat, true, true)
	if got := nearest(later, "no option, on the index a killed Put made"); !cmp.Equal(got, want) {
		t.Errorf("Nearest = %+v; want %+v", got, want)
	}

	// A store of the version before: vectors in doc values.
	old := open("docvalues")
	if _, err := old.do(ctx, "create index", http.MethodPut, "/"+old.dataIndex(0), nil, old.dataIndexBody(meta3, 0, docValues)); err != nil {
		t.Fatal(err)
	}
	put(old, "no option, into a doc-values index")
	vector, m = vectorMapping(t, old)
	if _, ok := vector["method"]; ok || m["no_graph"] != true || m["flat"] != nil {
		t.Errorf("mapping of the doc-values store: vector %v, _meta %v; want a knn_vector without a method, no_graph", vector, m)
	}
	checkState(old, "the doc-values store", noGraphFormat, true, false)
	if got := nearest(old, "no option, on the doc-values store"); !cmp.Equal(got, want) {
		t.Errorf("Nearest on the doc-values store = %+v; want %+v", got, want)
	}
	oldExact := open("docvalues", ExactNearest())
	put(oldExact, "ExactNearest, into the doc-values store")
	checkState(oldExact, "the doc-values store after a Put with ExactNearest", noGraphFormat, true, false)
	if got := nearest(oldExact, "ExactNearest, on the doc-values store"); !cmp.Equal(got, want) {
		t.Errorf("Nearest with ExactNearest on the doc-values store = %+v; want %+v", got, want)
	}

	// A store made without the option has a graph; ExactNearest queries
	// it exactly.
	graph := open("hnsw")
	put(graph, "no option")
	vector, m = vectorMapping(t, graph)
	if method, _ := vector["method"].(map[string]any); method["engine"] != "lucene" || m["no_graph"] != nil || m["flat"] != nil {
		t.Errorf("mapping of a store made without ExactNearest: vector %v, _meta %v; want an HNSW method on lucene", vector, m)
	}
	checkState(graph, "a store with a graph", stateFormat, false, false)
	if got := nearest(graph, "no option, on the store with a graph"); !cmp.Equal(got, want) {
		t.Errorf("Nearest on the store with a graph = %+v; want %+v", got, want)
	}
	if got := nearest(open("hnsw", ExactNearest()), "ExactNearest on the store with a graph"); !cmp.Equal(got, want) {
		t.Errorf("Nearest with ExactNearest = %+v; want %+v", got, want)
	}
}

// vectorMapping returns the mapping of the vector field of s's data index
// and its _meta.
func vectorMapping(t *testing.T, s *Store) (vector, meta map[string]any) {
	t.Helper()
	name := s.dataIndex(0)
	data, err := s.do(ctx, "read mapping", http.MethodGet, "/"+name+"/_mapping", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var r map[string]struct {
		Mappings struct {
			Meta       map[string]any            `json:"_meta"`
			Properties map[string]map[string]any `json:"properties"`
		} `json:"mappings"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	m := r[name].Mappings
	return m.Properties["vector"], m.Meta
}

// TestStateFormats: a state document is read only in the format its
// layout has (1; 2 with no_graph; 3 with no_graph and flat); any other is
// refused with an error naming it, so that a store is never read or
// written as another layout.
func TestStateFormats(t *testing.T) {
	c, _ := fakeClient(t)
	s, err := Open(c, "formats")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Put(ctx, apple(), appleChunks(), appleVectors(), meta3); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		format        int
		noGraph, flat bool
		ok            bool
	}{
		{1, false, false, true},
		{2, true, false, true},
		{3, true, true, true},
		{2, false, false, false},
		{1, true, false, false},
		{3, true, false, false},
		{3, false, false, false},
		{2, true, true, false},
		{3, false, true, false},
		{0, false, true, false},
		{1, false, true, false},
		{4, true, true, false},
	} {
		st := map[string]any{"format": tt.format, "epoch": 0, "model": meta3.Model, "dim": meta3.Dim, "sealed": true, "hides": 1, "hidden": []any{}, "locks": []any{}}
		if tt.noGraph {
			st["no_graph"] = true
		}
		if tt.flat {
			st["flat"] = true
		}
		if _, err := s.do(ctx, "write state", http.MethodPut, "/"+s.stateIndex()+"/_doc/state", nil, st); err != nil {
			t.Fatal(err)
		}
		got, err := s.readState(ctx)
		switch {
		case tt.ok && (err != nil || got.NoGraph != tt.noGraph || got.Flat != tt.flat):
			t.Errorf("format %d, no_graph %v, flat %v: %+v, %v; want it read", tt.format, tt.noGraph, tt.flat, got, err)
		case !tt.ok && (err == nil || !strings.Contains(err.Error(), "has format "+strconv.Itoa(tt.format))):
			t.Errorf("format %d, no_graph %v, flat %v: %v; want an error naming the format", tt.format, tt.noGraph, tt.flat, err)
		}
	}
}
