package opensearch

// A simulator of the part of OpenSearch the Store uses, so that the
// conformance cases (package storetest) and the crash tests run without a
// cluster. It is not OpenSearch: it splits the lexical field, terms the
// Store analysed, at spaces as the data index's whitespace analyzer does,
// it evaluates the Store's two Painless scripts by
// recognising their source and computing in Go what they compute, and its
// k-NN is exact. What it checks is the Store's own logic: the state
// document's compare-and-set, hidden generations, the rerun of a query a
// Put overlaps, BM25 statistics of the visible chunks, paging, deletion.
// Searches see what was written only after a refresh, as on a cluster
// (a GET by id sees it at once), and a refresh makes the documents
// written, and deleted, since the last one visible one at a time, so that
// concurrent searches see it half done, as searches on a real cluster's
// shards can.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	osgo "github.com/opensearch-project/opensearch-go/v4"
)

type fakeDoc struct {
	src    map[string]any
	raw    json.RawMessage
	tokens []string // analysed text
	seq    int64
}

type fakeIndex struct {
	mapping  map[string]any
	settings map[string]string // by name in full, as flat_settings gives them
	docs     map[string]*fakeDoc
	order    []string // ids in insertion order (Lucene doc ids)
	// seen and seenOrder are what searches see: the documents as of the
	// last refresh (a GET by id reads docs, in real time).
	seen      map[string]*fakeDoc
	seenOrder []string
}

// fakeCluster is the simulator; failAfter, when set, fails every request
// from the n-th on (a process killed mid-way).
type fakeCluster struct {
	mu      sync.Mutex
	indices map[string]*fakeIndex
	seq     int64

	requests  int
	failAfter int // 0: never

	hook func(method, path string) // called before each request is served
}

func newFakeCluster() *fakeCluster { return &fakeCluster{indices: map[string]*fakeIndex{}} }

// fakeClient returns a client of a new fake cluster served over HTTP,
// both closed when the test ends, and the cluster.
func fakeClient(t *testing.T) (*osgo.Client, *fakeCluster) {
	t.Helper()
	fake := newFakeCluster()
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	c, err := osgo.NewClient(osgo.Config{Addresses: []string{srv.URL}, DisableRetry: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, fake
}

func (c *fakeCluster) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body := new(bytes.Buffer)
	body.ReadFrom(r.Body)
	if c.hook != nil {
		c.hook(r.Method, r.URL.Path)
	}
	c.mu.Lock()
	c.requests++
	dead := c.failAfter > 0 && c.requests >= c.failAfter
	c.mu.Unlock()
	if dead {
		// The process is gone: the connection drops.
		hj, ok := w.(http.Hijacker)
		if ok {
			conn, _, _ := hj.Hijack()
			conn.Close()
			return
		}
		http.Error(w, "gone", http.StatusServiceUnavailable)
		return
	}
	status, resp := c.route(r.Method, r.URL, body.Bytes())
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(resp)
}

func fakeError(status int, typ, reason string) (int, any) {
	e := map[string]any{"type": typ, "reason": reason}
	return status, map[string]any{"error": map[string]any{"root_cause": []any{e}, "type": typ, "reason": reason}, "status": status}
}

func (c *fakeCluster) route(method string, u *url.URL, body []byte) (int, any) {
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	q := u.Query()
	switch {
	case method == http.MethodDelete && len(parts) == 1:
		c.mu.Lock()
		defer c.mu.Unlock()
		for _, n := range strings.Split(parts[0], ",") {
			delete(c.indices, n)
		}
		return 200, map[string]any{"acknowledged": true}
	case method == http.MethodPut && len(parts) == 1:
		return c.createIndex(parts[0], body)
	case method == http.MethodGet && len(parts) == 3 && parts[1] == "_settings" && u.Query().Get("flat_settings") == "true":
		return c.setting(parts[0], parts[2])
	case method == http.MethodPut && len(parts) == 2 && parts[1] == "_settings":
		return c.putSettings(parts[0], body)
	case method == http.MethodGet && len(parts) == 2 && parts[1] == "_mapping":
		c.mu.Lock()
		defer c.mu.Unlock()
		ix, ok := c.indices[parts[0]]
		if !ok {
			return fakeError(404, "index_not_found_exception", "no such index ["+parts[0]+"]")
		}
		return 200, map[string]any{parts[0]: map[string]any{"mappings": ix.mapping}}
	case method == http.MethodGet && len(parts) == 3 && parts[1] == "_doc":
		return c.get(parts[0], parts[2])
	case method == http.MethodPut && len(parts) == 3 && (parts[1] == "_doc" || parts[1] == "_create"):
		return c.put(parts[0], parts[2], parts[1] == "_create", q, body)
	case method == http.MethodPost && len(parts) == 2 && parts[1] == "_bulk":
		return c.bulk(parts[0], body)
	case method == http.MethodPost && len(parts) == 2 && parts[1] == "_search":
		return c.search(parts[0], body)
	case method == http.MethodPost && len(parts) == 2 && parts[1] == "_delete_by_query":
		status, resp := c.deleteByQuery(parts[0], body)
		if status == 200 && q.Get("refresh") == "true" {
			c.refresh(parts[0])
		}
		return status, resp
	case method == http.MethodPost && len(parts) == 2 && parts[1] == "_refresh":
		if !c.refresh(parts[0]) {
			return fakeError(404, "index_not_found_exception", "no such index ["+parts[0]+"]")
		}
		return 200, map[string]any{"_shards": map[string]any{"total": 1, "successful": 1, "failed": 0}}
	}
	return fakeError(400, "illegal_argument_exception", "the simulator does not know "+method+" "+u.Path)
}

// hasGraph reports whether the index maps field as a knn_vector with a
// method: one with an HNSW graph, which a knn query needs.
func (ix *fakeIndex) hasGraph(field string) bool {
	props, _ := ix.mapping["properties"].(map[string]any)
	f, _ := props[field].(map[string]any)
	_, ok := f["method"]
	return ok
}

func (c *fakeCluster) createIndex(name string, body []byte) (int, any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.indices[name]; ok {
		return fakeError(400, "resource_already_exists_exception", "index ["+name+"] already exists")
	}
	var req struct {
		Settings struct {
			Index map[string]any `json:"index"`
		} `json:"settings"`
		Mappings map[string]any `json:"mappings"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return fakeError(400, "parse_exception", err.Error())
	}
	props, _ := req.Mappings["properties"].(map[string]any)
	for field, m := range props {
		method, _ := m.(map[string]any)["method"].(map[string]any)
		if method["engine"] == "faiss" && req.Settings.Index["knn.advanced.approximate_threshold"] != -1.0 {
			// The test node has no faiss library: a segment would
			// fail to build its graph. (A cluster that has one would
			// build it, and a knn query would be approximate.)
			return fakeError(400, "illegal_argument_exception", "the simulator, like the test node, cannot build a faiss graph (field ["+field+"]): set index.knn.advanced.approximate_threshold to -1")
		}
	}
	settings := map[string]string{}
	for k, v := range req.Settings.Index {
		settings["index."+k] = fmt.Sprint(v)
	}
	c.indices[name] = &fakeIndex{mapping: req.Mappings, settings: settings, docs: map[string]*fakeDoc{}, seen: map[string]*fakeDoc{}}
	return 200, map[string]any{"acknowledged": true, "index": name}
}

// setting answers GET /index/_settings/name?flat_settings=true.
func (c *fakeCluster) setting(index, name string) (int, any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ix, ok := c.indices[index]
	if !ok {
		return fakeError(404, "index_not_found_exception", "no such index ["+index+"]")
	}
	v, ok := ix.settings[name]
	if !ok {
		return 200, map[string]any{}
	}
	return 200, map[string]any{index: map[string]any{"settings": map[string]any{name: v}}}
}

// putSettings answers PUT /index/_settings with a body of flat settings.
func (c *fakeCluster) putSettings(index string, body []byte) (int, any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ix, ok := c.indices[index]
	if !ok {
		return fakeError(404, "index_not_found_exception", "no such index ["+index+"]")
	}
	var settings map[string]any
	if err := json.Unmarshal(body, &settings); err != nil {
		return fakeError(400, "parse_exception", err.Error())
	}
	for k, v := range settings {
		ix.settings[k] = fmt.Sprint(v)
	}
	return 200, map[string]any{"acknowledged": true}
}

func (c *fakeCluster) get(index, id string) (int, any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ix, ok := c.indices[index]
	if !ok {
		return fakeError(404, "index_not_found_exception", "no such index ["+index+"]")
	}
	d, ok := ix.docs[id]
	if !ok {
		return 404, map[string]any{"_index": index, "_id": id, "found": false}
	}
	return 200, map[string]any{"_index": index, "_id": id, "_seq_no": d.seq, "_primary_term": 1, "found": true, "_source": d.raw}
}

func (c *fakeCluster) put(index, id string, create bool, q url.Values, body []byte) (int, any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ix, ok := c.indices[index]
	if !ok {
		return fakeError(404, "index_not_found_exception", "no such index ["+index+"]")
	}
	cur, exists := ix.docs[id]
	if create && exists {
		return fakeError(409, "version_conflict_engine_exception", "["+id+"]: version conflict, document already exists")
	}
	if s := q.Get("if_seq_no"); s != "" {
		n, _ := strconv.ParseInt(s, 10, 64)
		if !exists || cur.seq != n || q.Get("if_primary_term") != "1" {
			return fakeError(409, "version_conflict_engine_exception", "["+id+"]: version conflict")
		}
	}
	if err := c.index(ix, id, body); err != nil {
		return fakeError(400, "mapper_parsing_exception", err.Error())
	}
	return 200, map[string]any{"_index": index, "_id": id, "result": "updated", "_seq_no": ix.docs[id].seq, "_primary_term": 1}
}

// index stores a document; c.mu is held.
func (c *fakeCluster) index(ix *fakeIndex, id string, body []byte) error {
	var src map[string]any
	if err := json.Unmarshal(body, &src); err != nil {
		return err
	}
	c.seq++
	d := &fakeDoc{src: src, raw: append(json.RawMessage(nil), body...), seq: c.seq}
	if t, ok := src["lexical"].(string); ok {
		d.tokens = whitespaceTokens(t)
	}
	if props, ok := ix.mapping["properties"].(map[string]any); ok && ix.mapping["dynamic"] == "strict" {
		for k := range src {
			if _, ok := props[k]; !ok {
				return fmt.Errorf("mapping set to strict, dynamic introduction of [%s] within [_doc] is not allowed", k)
			}
		}
		if v, ok := src["vector"].([]any); ok {
			dim := props["vector"].(map[string]any)["dimension"].(float64)
			if float64(len(v)) != dim {
				return fmt.Errorf("Vector dimension mismatch. Expected: %v, Given: %d", dim, len(v))
			}
		}
	}
	if _, ok := ix.docs[id]; !ok {
		ix.order = append(ix.order, id)
	}
	ix.docs[id] = d
	return nil
}

// bulk applies the documents one at a time, releasing the lock between
// them, so that a concurrent search can see some and not others.
func (c *fakeCluster) bulk(index string, body []byte) (int, any) {
	lines := strings.Split(strings.TrimSuffix(string(body), "\n"), "\n")
	var items []any
	errs := false
	for i := 0; i+1 < len(lines); i += 2 {
		var action struct {
			Index struct {
				ID string `json:"_id"`
			} `json:"index"`
		}
		json.Unmarshal([]byte(lines[i]), &action)
		c.mu.Lock()
		ix, ok := c.indices[index]
		var err error
		if !ok {
			err = fmt.Errorf("no such index [%s]", index)
		} else {
			err = c.index(ix, action.Index.ID, []byte(lines[i+1]))
		}
		c.mu.Unlock()
		runtime.Gosched()
		if err != nil {
			errs = true
			items = append(items, map[string]any{"index": map[string]any{"_id": action.Index.ID, "status": 400, "error": map[string]any{"type": "mapper_parsing_exception", "reason": err.Error()}}})
			continue
		}
		items = append(items, map[string]any{"index": map[string]any{"_id": action.Index.ID, "status": 201, "result": "created"}})
	}
	return 200, map[string]any{"took": 1, "errors": errs, "items": items}
}

// refresh makes searches see the index's documents as they are now, one
// document at a time (a cluster refreshes shard by shard), and reports
// whether the index exists.
func (c *fakeCluster) refresh(index string) bool {
	c.mu.Lock()
	ix, ok := c.indices[index]
	var ids []string
	if ok {
		ids = slices.Clone(ix.order)
		for _, id := range ix.seenOrder {
			if _, ok := ix.docs[id]; !ok {
				ids = append(ids, id)
			}
		}
	}
	c.mu.Unlock()
	for _, id := range ids {
		c.mu.Lock()
		if d, ok := ix.docs[id]; ok {
			if _, was := ix.seen[id]; !was {
				ix.seenOrder = append(ix.seenOrder, id)
			}
			ix.seen[id] = d
		} else if _, was := ix.seen[id]; was {
			delete(ix.seen, id)
			ix.seenOrder = slices.DeleteFunc(ix.seenOrder, func(s string) bool { return s == id })
		}
		c.mu.Unlock()
		runtime.Gosched()
	}
	return ok
}

func (c *fakeCluster) deleteByQuery(index string, body []byte) (int, any) {
	var req struct {
		Query map[string]any `json:"query"`
	}
	json.Unmarshal(body, &req)
	c.mu.Lock()
	ix, ok := c.indices[index]
	var ids []string
	if ok {
		for _, id := range ix.seenOrder {
			if m, _ := fakeMatch(ix.seen[id], req.Query); m {
				ids = append(ids, id)
			}
		}
	}
	c.mu.Unlock()
	if !ok {
		return fakeError(404, "index_not_found_exception", "no such index ["+index+"]")
	}
	for _, id := range ids {
		c.mu.Lock()
		delete(ix.docs, id)
		ix.order = slices.DeleteFunc(ix.order, func(s string) bool { return s == id })
		c.mu.Unlock()
		runtime.Gosched()
	}
	return 200, map[string]any{"took": 1, "timed_out": false, "total": len(ids), "deleted": len(ids), "failures": []any{}}
}

// The search.

type fakeHit struct {
	id    string
	d     *fakeDoc
	score float64
	sort  []any
}

func (c *fakeCluster) search(index string, body []byte) (int, any) {
	var req struct {
		Size           *int              `json:"size"`
		Query          map[string]any    `json:"query"`
		Sort           []map[string]any  `json:"sort"`
		SearchAfter    []any             `json:"search_after"`
		Source         any               `json:"_source"`
		Aggs           map[string]any    `json:"aggs"`
		TrackTotalHits any               `json:"track_total_hits"`
		MinScore       *float64          `json:"min_score"`
		Extra          map[string]string `json:"-"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return fakeError(400, "parsing_exception", err.Error())
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	ix, ok := c.indices[index]
	if !ok {
		return fakeError(404, "index_not_found_exception", "no such index ["+index+"]")
	}
	var hits []fakeHit
	if knn, ok := req.Query["knn"].(map[string]any); ok {
		if !ix.hasGraph("vector") {
			// What OpenSearch answers for a knn_vector field mapped
			// without a method (an index without index.knn).
			return fakeError(400, "query_shard_exception", "failed to create query: Field 'vector' is not built for ANN search.")
		}
		hits = knnSearch(ix, knn["vector"].(map[string]any))
	} else {
		for _, id := range ix.seenOrder {
			d := ix.seen[id]
			if m, score := fakeMatch(d, req.Query); m {
				hits = append(hits, fakeHit{id: id, d: d, score: score})
			}
		}
	}
	if req.MinScore != nil {
		// OpenSearch compares the score, a float, with min_score as a float.
		hits = slices.DeleteFunc(hits, func(h fakeHit) bool { return float32(h.score) < float32(*req.MinScore) })
	}
	total := len(hits)
	aggs := map[string]any{}
	for name, a := range req.Aggs {
		spec := a.(map[string]any)
		if sum, ok := spec["sum"].(map[string]any); ok && sum["field"] == "lexical.length" {
			var s float64
			for _, h := range hits {
				s += float64(len(h.d.tokens))
			}
			aggs[name] = map[string]any{"value": s}
		}
		if f, ok := spec["filters"].(map[string]any); ok {
			buckets := map[string]any{}
			for key, fq := range f["filters"].(map[string]any) {
				n := 0
				for _, h := range hits {
					if m, _ := fakeMatch(h.d, fq.(map[string]any)); m {
						n++
					}
				}
				buckets[key] = map[string]any{"doc_count": n}
			}
			aggs[name] = map[string]any{"buckets": buckets}
		}
	}
	for i := range hits {
		for _, s := range req.Sort {
			for field := range s {
				if field == "_score" {
					hits[i].sort = append(hits[i].sort, hits[i].score)
				} else {
					hits[i].sort = append(hits[i].sort, hits[i].d.src[field])
				}
			}
		}
	}
	if len(req.Sort) == 0 {
		// By score, best first; ties in index order.
		slices.SortStableFunc(hits, func(a, b fakeHit) int { return -cmpFloat(a.score, b.score) })
	}
	slices.SortStableFunc(hits, func(a, b fakeHit) int { return compareSort(req.Sort, a.sort, b.sort) })
	if req.SearchAfter != nil {
		hits = slices.DeleteFunc(hits, func(h fakeHit) bool { return compareSort(req.Sort, h.sort, req.SearchAfter) <= 0 })
	}
	size := 10
	if req.Size != nil {
		size = *req.Size
	}
	hits = hits[:min(size, len(hits))]
	var out []any
	for _, h := range hits {
		src := map[string]any{}
		for k, v := range h.d.src {
			src[k] = v
		}
		switch s := req.Source.(type) {
		case map[string]any:
			for _, ex := range s["excludes"].([]any) {
				delete(src, ex.(string))
			}
		case []any:
			keep := map[string]any{}
			for _, f := range s {
				if v, ok := src[f.(string)]; ok {
					keep[f.(string)] = v
				}
			}
			src = keep
		}
		out = append(out, map[string]any{"_index": index, "_id": h.id, "_score": h.score, "_source": src, "sort": h.sort})
	}
	resp := map[string]any{
		"took": 1, "timed_out": false,
		"_shards": map[string]any{"total": 1, "successful": 1, "skipped": 0, "failed": 0},
		"hits":    map[string]any{"total": map[string]any{"value": total, "relation": "eq"}, "hits": out},
	}
	if len(aggs) > 0 {
		resp["aggregations"] = aggs
	}
	return 200, resp
}

func compareSort(spec []map[string]any, a, b []any) int {
	for i, s := range spec {
		desc := false
		for _, dir := range s {
			desc = dir == "desc"
		}
		var c int
		switch x := a[i].(type) {
		case float64:
			y, _ := b[i].(float64)
			c = cmpFloat(x, y)
		case string:
			y, _ := b[i].(string)
			c = strings.Compare(x, y)
		}
		if desc {
			c = -c
		}
		if c != 0 {
			return c
		}
	}
	return 0
}

func cmpFloat(x, y float64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// matches evaluates the queries the Store sends.
func fakeMatch(d *fakeDoc, q map[string]any) (bool, float64) {
	for kind, spec := range q {
		s := spec.(map[string]any)
		switch kind {
		case "bool":
			for _, f := range asList(s["filter"]) {
				if m, _ := fakeMatch(d, f.(map[string]any)); !m {
					return false, 0
				}
			}
			for _, f := range asList(s["must_not"]) {
				if m, _ := fakeMatch(d, f.(map[string]any)); m {
					return false, 0
				}
			}
			if should := asList(s["should"]); len(should) > 0 {
				n, sum := 0, 0.0
				for _, f := range should {
					if m, score := fakeMatch(d, f.(map[string]any)); m {
						n++
						sum += score
					}
				}
				if n == 0 {
					return false, 0
				}
				return true, float64(float32(sum))
			}
			return true, 0
		case "term":
			for field, v := range s {
				if field == "lexical" {
					// The similarity edgar13f_tf: the term's frequency.
					tf := 0
					for _, tok := range d.tokens {
						if tok == v.(string) {
							tf++
						}
					}
					return tf > 0, float64(tf)
				}
				return d.src[field] == v, 0
			}
		case "terms":
			for field, vs := range s {
				return slices.Contains(vs.([]any), d.src[field]), 0
			}
		case "range":
			for field, r := range s {
				v, _ := d.src[field].(string)
				return v != "" && v <= r.(map[string]any)["lte"].(string), 0
			}
		case "exists":
			_, ok := d.src[s["field"].(string)]
			return ok, 0
		case "script_score":
			m, inner := fakeMatch(d, s["query"].(map[string]any))
			if !m {
				return false, 0
			}
			script := s["script"].(map[string]any)
			params := script["params"].(map[string]any)
			switch script["source"] {
			case termScript:
				k1, b, avgdl, w := params["k1"].(float64), params["b"].(float64), params["avgdl"].(float64), params["w"].(float64)
				dl := float64(len(d.tokens))
				return true, float64(float32(w * inner / (inner + k1*(1.0-b+b*dl/avgdl))))
			case exactScript:
				v := toVector(params["query_value"])
				return true, float64(float32(1 + cosine(v, toVector(d.src["vector"])) - floatError(d, len(v))))
			}
			panic(fmt.Sprintf("the simulator does not know the script %q", script["source"]))
		default:
			panic("the simulator does not know the query " + kind)
		}
	}
	return true, 0
}

// knnSearch is exact: the k best by Lucene's cosine score (1 + cos) / 2
// among the chunks that pass the filter, ties by insertion order.
func knnSearch(ix *fakeIndex, spec map[string]any) []fakeHit {
	v := toVector(spec["vector"])
	var hits []fakeHit
	for _, id := range ix.seenOrder {
		d := ix.seen[id]
		if m, _ := fakeMatch(d, spec["filter"].(map[string]any)); !m {
			continue
		}
		if _, ok := d.src["vector"]; !ok {
			continue
		}
		score := float64(float32((1 + cosine(v, toVector(d.src["vector"])) - floatError(d, len(v))) / 2))
		hits = append(hits, fakeHit{id: id, d: d, score: score})
	}
	slices.SortStableFunc(hits, func(a, b fakeHit) int { return -cmpFloat(a.score, b.score) })
	return hits[:min(int(spec["k"].(float64)), len(hits))]
}

// floatError stands for the error of the cluster's float cosine: part of
// cosError, fixed per chunk, so that chunks whose cosines tie come back in
// an order of their own, not by ID, and the best k of them only from a
// search that asks for every chunk that may be among them.
func floatError(d *fakeDoc, dim int) float64 {
	h := fnv.New32a()
	h.Write([]byte(fmt.Sprint(d.src["chunk_id"])))
	return cosError(dim) / 4 * float64(h.Sum32()) / (1 << 32)
}

func toVector(v any) []float64 {
	var out []float64
	for _, x := range asList(v) {
		out = append(out, x.(float64))
	}
	return out
}

func cosine(a, b []float64) float64 {
	var dot, na, nb float64
	for i := range a {
		dot += a[i] * b[i]
		na += a[i] * a[i]
		nb += b[i] * b[i]
	}
	return dot / math.Sqrt(na*nb)
}

func asList(v any) []any {
	switch x := v.(type) {
	case []any:
		return x
	case nil:
		return nil
	}
	return []any{v}
}

// whitespaceTokens is what the data index's analyzer of the lexical field
// (a whitespace tokenizer) makes of text: its terms.
func whitespaceTokens(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool { return r == ' ' })
}
