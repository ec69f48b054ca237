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

// TestNoGraph checks the two layouts of the vectors, on the simulator and
// on the real node at EDGAR13F_OPENSEARCH_TEST_URL: a store whose first
// Put is made with ExactNearest keeps its vectors without an HNSW graph
// (a knn_vector without a method, _meta no_graph, a state document of
// format 2 with no_graph), and a Store opened on it without the option
// answers Nearest exactly (a knn query would fail: the graph is not
// there), also after a Put of its own, and also when a Put made with the
// option created the index but was killed before its commit; a store with
// a graph answers a Store with ExactNearest as it answers one without.
func TestNoGraph(t *testing.T) {
	onSimulatorAndNode(t, "nograph", testNoGraph)
}

func testNoGraph(t *testing.T, c *osgo.Client, prefix string) {
	open := func(name string, opts ...Option) *Store {
		t.Helper()
		s, err := Open(c, prefix+"-"+name, append([]Option{Replicas(0)}, opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		return s
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

	// A store made with ExactNearest.
	exact := open("flat", ExactNearest())
	t.Cleanup(func() {
		if err := exact.Drop(ctx); err != nil {
			t.Error(err)
		}
	})
	if err := exact.Put(ctx, apple(), chunks, appleVectors(), meta3); err != nil {
		t.Fatal(err)
	}
	vector, noGraph := vectorMapping(t, exact)
	if _, ok := vector["method"]; ok || !noGraph || vector["type"] != "knn_vector" {
		t.Errorf("mapping of a store made with ExactNearest: vector %v, _meta no_graph %v; want a knn_vector without a method, no_graph true", vector, noGraph)
	}
	stateOf := func(s *Store) *state {
		t.Helper()
		st, err := s.readState(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	if st := stateOf(exact); !st.NoGraph || st.Format != noGraphFormat {
		t.Errorf("state of a store made with ExactNearest: format %d, no_graph %v; want format %d, no_graph", st.Format, st.NoGraph, noGraphFormat)
	}
	want := nearest(exact, "ExactNearest on the store without a graph")
	other := open("flat")
	if got := nearest(other, "no option, on the store without a graph"); !cmp.Equal(got, want) {
		t.Errorf("Nearest without the option = %+v; want %+v (ExactNearest's)", got, want)
	}
	// A Put without the option adds to the store as it is.
	if err := other.Put(ctx, apple(), chunks, appleVectors(), meta3); err != nil {
		t.Fatal(err)
	}
	if got := nearest(other, "no option, after its own Put"); !cmp.Equal(got, want) {
		t.Errorf("Nearest after a Put without the option = %+v; want %+v", got, want)
	}
	if st := stateOf(other); !st.NoGraph {
		t.Errorf("state after a Put without the option: no_graph %v; want it kept", st.NoGraph)
	}

	// A Put made with ExactNearest that created the data index and was
	// killed before its commit: the Put that commits first, without the
	// option, records the index's layout as its _meta gives it.
	killed := open("killed", ExactNearest())
	t.Cleanup(func() {
		if err := killed.Drop(ctx); err != nil {
			t.Error(err)
		}
	})
	if _, err := killed.ensureDataIndex(ctx, 0, meta3); err != nil {
		t.Fatal(err)
	}
	later := open("killed")
	if err := later.Put(ctx, apple(), chunks, appleVectors(), meta3); err != nil {
		t.Fatal(err)
	}
	if st := stateOf(later); !st.NoGraph {
		t.Errorf("state after the first commit into an index without a graph, by a Store without the option: no_graph %v; want true", st.NoGraph)
	}
	if got := nearest(later, "no option, on the index a killed Put made"); !cmp.Equal(got, want) {
		t.Errorf("Nearest = %+v; want %+v", got, want)
	}

	// A store made without the option has a graph; ExactNearest queries
	// it exactly.
	graph := open("hnsw")
	t.Cleanup(func() {
		if err := graph.Drop(ctx); err != nil {
			t.Error(err)
		}
	})
	if err := graph.Put(ctx, apple(), chunks, appleVectors(), meta3); err != nil {
		t.Fatal(err)
	}
	vector, noGraph = vectorMapping(t, graph)
	if _, ok := vector["method"]; !ok || noGraph {
		t.Errorf("mapping of a store made without ExactNearest: vector %v, _meta no_graph %v; want an HNSW method", vector, noGraph)
	}
	if st := stateOf(graph); st.NoGraph || st.Format != stateFormat {
		t.Errorf("state of a store with a graph: format %d, no_graph %v; want format %d", st.Format, st.NoGraph, stateFormat)
	}
	want = nearest(graph, "no option, on the store with a graph")
	if got := nearest(open("hnsw", ExactNearest()), "ExactNearest on the store with a graph"); !cmp.Equal(got, want) {
		t.Errorf("Nearest with ExactNearest = %+v; want %+v", got, want)
	}
}

// vectorMapping returns the mapping of the vector field of s's data index
// and its _meta's no_graph.
func vectorMapping(t *testing.T, s *Store) (vector map[string]any, noGraph bool) {
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
	noGraph, _ = m.Meta["no_graph"].(bool)
	return m.Properties["vector"], noGraph
}

// TestStateFormats: a state document is read only in the format its
// layout has (1, or 2 with no_graph); any other is refused with an error
// naming it, so that a store is never read or written as another layout.
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
		format  int
		noGraph bool
		ok      bool
	}{
		{1, false, true},
		{2, true, true},
		{2, false, false},
		{1, true, false},
		{3, true, false},
		{3, false, false},
	} {
		st := map[string]any{"format": tt.format, "epoch": 0, "model": meta3.Model, "dim": meta3.Dim, "sealed": true, "hides": 1, "hidden": []any{}, "locks": []any{}}
		if tt.noGraph {
			st["no_graph"] = true
		}
		if _, err := s.do(ctx, "write state", http.MethodPut, "/"+s.stateIndex()+"/_doc/state", nil, st); err != nil {
			t.Fatal(err)
		}
		got, err := s.readState(ctx)
		switch {
		case tt.ok && (err != nil || got.NoGraph != tt.noGraph):
			t.Errorf("format %d, no_graph %v: %+v, %v; want it read", tt.format, tt.noGraph, got, err)
		case !tt.ok && (err == nil || !strings.Contains(err.Error(), "has format "+strconv.Itoa(tt.format))):
			t.Errorf("format %d, no_graph %v: %v; want an error naming the format", tt.format, tt.noGraph, err)
		}
	}
}
