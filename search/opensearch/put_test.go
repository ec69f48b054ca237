package opensearch

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/edgar13f/edgar13f/search/store"
)

// stateIn decodes the state document a request wrote.
func stateIn(t *testing.T, r *replay, i int) state {
	t.Helper()
	var st state
	if err := json.Unmarshal(r.ex[i-1].Body, &st); err != nil {
		t.Fatalf("exchange %d: %v", i, err)
	}
	return st
}

// TestPutNewStore: the first Put creates the state index and document,
// hides its generation before writing, creates the data index, sends
// again the documents the cluster rejects with 429, and commits by
// compare-and-set, reading the state again when another writer came first.
func TestPutNewStore(t *testing.T) {
	s, r := newReplay(t, "put_new")
	if err := s.Put(ctx, apple(), appleChunks(), appleVectors(), meta3); err != nil {
		t.Fatal(err)
	}
	gen := "0000320193-24-000123.n1"

	// Hidden before the first document is written.
	created := stateIn(t, r, 3)
	if !slices.Contains(created.hiddenGens(), gen) || created.lockOf(apple().Accession) != gen || created.Sealed || created.meta() != meta3 {
		t.Errorf("state created = %+v; want %s hidden and locked, the embedder recorded, not sealed", created, gen)
	}

	// The mapping.
	mapping := r.sent(4)
	props := mapping["mappings"].(map[string]any)["properties"].(map[string]any)
	vector := props["vector"].(map[string]any)
	method := vector["method"].(map[string]any)
	if vector["type"] != "knn_vector" || vector["dimension"] != 3.0 || method["name"] != "hnsw" || method["engine"] != "lucene" || method["space_type"] != "cosinesimil" {
		t.Errorf("vector mapping = %v", vector)
	}
	lexical := props["lexical"].(map[string]any)
	length := lexical["fields"].(map[string]any)["length"].(map[string]any)
	if lexical["analyzer"] != termsAnalyzer || length["type"] != "token_count" || length["analyzer"] != termsAnalyzer || length["enable_position_increments"] != false {
		t.Errorf("lexical mapping = %v", lexical)
	}
	if lexical["similarity"] != tfSimilarity {
		t.Errorf("lexical similarity = %v; want %s", lexical["similarity"], tfSimilarity)
	}
	sim := path(mapping, "settings", "index", "similarity", tfSimilarity)
	if diff := cmp.Diff(map[string]any{"type": "scripted", "script": map[string]any{"source": "return query.boost * doc.freq;"}}, sim); diff != "" {
		t.Errorf("similarity %s mismatch (-want +got):\n%s", tfSimilarity, diff)
	}
	analyzer := path(mapping, "settings", "index", "analysis", "analyzer", termsAnalyzer)
	if diff := cmp.Diff(map[string]any{"type": "custom", "tokenizer": "whitespace"}, analyzer); diff != "" {
		t.Errorf("analyzer %s mismatch (-want +got):\n%s", termsAnalyzer, diff)
	}
	// No scheduled refresh: the store refreshes when it needs to, and a
	// refresh a second made a segment of each second of Puts.
	if ri := path(mapping, "settings", "index", "refresh_interval"); ri != "-1" {
		t.Errorf("data index refresh_interval = %v; want \"-1\" (the store refreshes when a query or a Put needs it)", ri)
	}
	if text := props["text"].(map[string]any); text["index"] != false {
		t.Errorf("text mapping = %v; want kept, not indexed (lexical is scored)", text)
	}
	for _, f := range []string{"accession", "cik", "ticker", "form", "item", "item_title", "chunk_id", "gen", "kind"} {
		if props[f].(map[string]any)["type"] != "keyword" {
			t.Errorf("%s is mapped %v; want a keyword", f, props[f])
		}
	}

	// The documents: chunk ids under the generation, the zero vector left
	// out, the filing last.
	bulk := r.ex[4].NDJSON
	if len(bulk) != 8 {
		t.Fatalf("first bulk has %d lines; want 8", len(bulk))
	}
	var second doc
	if err := json.Unmarshal(bulk[3], &second); err != nil {
		t.Fatal(err)
	}
	if second.Vector != nil || second.Gen != gen || second.Kind != kindChunk || second.Text != appleChunks()[1].Text {
		t.Errorf("second chunk document = %+v; want no vector (it is zero), generation %s", second, gen)
	}
	// The terms of the company, the Item title and the text, as bleve's
	// en analyzer makes them (the embedded store's), "is", "to" and "and"
	// dropped.
	if want := "appl inc risk factor compani subject export control trade restrict"; second.Lexical != want {
		t.Errorf("second chunk document's lexical = %q; want %q (company, Item title, text, analysed)", second.Lexical, want)
	}
	var filing doc
	if err := json.Unmarshal(bulk[7], &filing); err != nil {
		t.Fatal(err)
	}
	if filing.Kind != kindFiling || filing.Chunks != 3 || filing.FilingDate != "2024-11-01" || filing.ReportDate != "2024-09-28" {
		t.Errorf("filing document = %+v", filing)
	}
	// The retry sends the rejected chunk only.
	var first map[string]any
	if err := json.Unmarshal(bulk[1], &first); err != nil || first["chunk_index"] != 0.0 {
		t.Errorf("first chunk document %s has no chunk_index 0", bulk[1])
	}
	if retry := r.ex[5].NDJSON; len(retry) != 2 || !strings.Contains(string(retry[0]), "41f0aaa0f9ec2aa2") {
		t.Errorf("retried bulk = %s; want the rejected chunk alone", retry)
	}

	// The commit keeps the other writer's generation hidden and its lock,
	// and lists its own generation as committed since the last refresh.
	commit := stateIn(t, r, 11)
	want := state{
		Format: 1, Epoch: 0, Model: "test-embed", Dim: 3, Sealed: true, Hides: 3,
		Hidden:      []hiddenGen{{Gen: "0000789019-24-000099.x9"}},
		Locks:       []lock{{Accession: "0000789019-24-000099", Gen: "0000789019-24-000099.x9"}},
		Unrefreshed: []lock{{Accession: apple().Accession, Gen: gen}},
	}
	if diff := cmp.Diff(want, commit, cmp.AllowUnexported(state{})); diff != "" {
		t.Errorf("commit mismatch (-want +got):\n%s", diff)
	}
}

// TestPutMismatch: a store whose embedder is sealed refuses another one
// before writing anything.
func TestPutMismatch(t *testing.T) {
	s, _ := newReplay(t, "put_mismatch")
	other := store.Meta{Model: "other-embed", Dim: 3}
	err := s.Put(ctx, apple(), appleChunks(), appleVectors(), other)
	var me *store.MismatchError
	if !errors.As(err, &me) || me.Stored != meta3 || me.Given != other {
		t.Fatalf("Put = %v; want a *store.MismatchError{%v, %v}", err, meta3, other)
	}
}

// TestPutInvalid: a filing that does not fit is refused before any
// request; chunks and vectors that do not fit, after the state is read
// (so that another embedder is a mismatch first), and nothing is written.
func TestPutInvalid(t *testing.T) {
	s, _ := newReplay(t, "empty")
	for _, f := range []func(*store.Filing){
		func(f *store.Filing) { f.Accession = "" },
		func(f *store.Filing) { f.Accession = "0000320193/24" },
		func(f *store.Filing) { f.FilingDate = store.Filing{}.FilingDate },
	} {
		bad := apple()
		f(&bad)
		if err := s.Put(ctx, bad, appleChunks(), appleVectors(), meta3); err == nil {
			t.Errorf("Put(%+v) succeeded", bad)
		}
	}
	if err := s.Put(ctx, apple(), nil, nil, store.Meta{Model: "x"}); err == nil {
		t.Error("Put with a model and no dimension succeeded")
	}

	s, _ = newReplay(t, "put_invalid")
	good := appleChunks()
	dup := slices.Clone(good)
	dup[1].ID = dup[0].ID
	other := slices.Clone(good)
	other[2].Accession = "0000320193-23-000106"
	noID := slices.Clone(good)
	noID[0].ID = ""
	for _, tc := range []struct {
		name    string
		f       store.Filing
		chunks  []store.Chunk
		vectors [][]float32
		meta    store.Meta
	}{
		{"duplicate id", apple(), dup, appleVectors(), meta3},
		{"chunk of another filing", apple(), other, appleVectors(), meta3},
		{"chunk without id", apple(), noID, appleVectors(), meta3},
		{"fewer vectors", apple(), good, appleVectors()[:2], meta3},
		{"vector of another dimension", apple(), good, [][]float32{{1, 2, 3}, {1, 2}, {1, 2, 3}}, meta3},
		{"embedder without vectors", apple(), good, nil, meta3},
		{"infinite vector", apple(), good, [][]float32{{1, 2, 3}, {float32(inf()), 0, 0}, {1, 2, 3}}, meta3},
	} {
		err := s.Put(ctx, tc.f, tc.chunks, tc.vectors, tc.meta)
		var me *store.MismatchError
		if err == nil || errors.As(err, &me) {
			t.Errorf("%s: Put = %v; want an error about the arguments", tc.name, err)
		}
	}
}

func inf() float64 { return 1 / zero }

var zero = 0.0

// TestPutReplace: a Put of a stored accession checks the existing data
// index's _meta, finds the visible generation it replaces, un-hides its
// own and hides the old one in one write, then deletes the old one's
// documents and only then takes it off the hidden list.
func TestPutReplace(t *testing.T) {
	s, r := newReplay(t, "put_replace")
	if err := s.Put(ctx, apple(), appleChunks(), appleVectors(), meta3); err != nil {
		t.Fatal(err)
	}
	old := "0000320193-24-000123.old"
	commit := stateIn(t, r, 8)
	if diff := cmp.Diff([]hiddenGen{{Gen: old, Done: true}}, commit.Hidden); diff != "" || !commit.Sealed || commit.Hides != 6 || len(commit.Locks) != 0 {
		t.Errorf("commit = %+v; want only %s hidden (done), hides 6, no lock", commit, old)
	}
	del := r.sent(10)
	if diff := cmp.Diff(map[string]any{"terms": map[string]any{"gen": []any{old}}}, del["query"]); diff != "" {
		t.Errorf("delete_by_query mismatch (-want +got):\n%s", diff)
	}
	if final := stateIn(t, r, 12); len(final.Hidden) != 0 || final.Hides != 6 {
		t.Errorf("state after the vacuum = %+v; want nothing hidden, hides unchanged", final)
	}
}

// TestPutBulkError: a document the cluster refuses fails the Put with the
// cluster's reason; the generation, all of whose writes were answered, is
// marked done, deleted and taken off the hidden list.
func TestPutBulkError(t *testing.T) {
	s, r := newReplay(t, "put_bulk_error")
	err := s.Put(ctx, apple(), appleChunks(), appleVectors(), meta3)
	var e *Error
	if !errors.As(err, &e) || e.Type != "mapper_parsing_exception" || !strings.Contains(e.Reason, "failed to parse field [vector]") || !strings.Contains(err.Error(), "0000320193-24-000123.n1:443fff79f7fd412b") {
		t.Fatalf("Put = %v; want the mapper_parsing_exception of the first chunk", err)
	}
	gen := "0000320193-24-000123.n1"
	abort := stateIn(t, r, 7)
	if diff := cmp.Diff([]hiddenGen{{Gen: gen, Done: true}}, abort.Hidden); diff != "" || len(abort.Locks) != 0 || abort.Sealed != true {
		t.Errorf("abort = %+v; want %s hidden and done, unlocked", abort, gen)
	}
	if del := r.sent(9); !cmp.Equal(map[string]any{"terms": map[string]any{"gen": []any{gen}}}, del["query"]) {
		t.Errorf("delete_by_query = %v", del)
	}
}

// TestPutTakenOver: a Put whose lock another Put of the same accession
// took refuses to commit, and deletes its own generation.
func TestPutTakenOver(t *testing.T) {
	s, r := newReplay(t, "put_takeover")
	err := s.Put(ctx, apple(), appleChunks(), appleVectors(), meta3)
	if !errors.Is(err, ErrReplacedConcurrently) {
		t.Fatalf("Put = %v; want ErrReplacedConcurrently", err)
	}
	abort := stateIn(t, r, 9)
	want := []lock{{Accession: "0000320193-24-000123", Gen: "0000320193-24-000123.x7"}}
	if diff := cmp.Diff(want, abort.Locks); diff != "" {
		t.Errorf("abort changed the other Put's lock (-want +got):\n%s", diff)
	}
	if !slices.Contains(abort.Hidden, hiddenGen{Gen: "0000320193-24-000123.n1", Done: true}) || !slices.Contains(abort.Hidden, hiddenGen{Gen: "0000320193-24-000123.x7"}) {
		t.Errorf("abort hidden = %+v; want .n1 done and .x7 still hidden, not done", abort.Hidden)
	}
}

// TestPutCommitAnswerLost: a commit whose first write went through but
// whose answer was lost (the client sent it again, and it conflicted with
// itself) is recognised as done, not mistaken for a takeover; the Put
// succeeds and deletes the replaced generation.
func TestPutCommitAnswerLost(t *testing.T) {
	s, r := newReplay(t, "put_commit_lost")
	if err := s.Put(ctx, apple(), appleChunks(), appleVectors(), meta3); err != nil {
		t.Fatal(err)
	}
	if del := r.sent(11); !cmp.Equal(map[string]any{"terms": map[string]any{"gen": []any{"0000320193-24-000123.old"}}}, del["query"]) {
		t.Errorf("delete_by_query = %v; want the replaced generation", del)
	}
}

// TestPutBulkNoAnswer: a bulk call that got a proxy's 504 may still be
// carried out by the cluster: the generation stays hidden and is not
// marked done (so never deleted and un-hidden), and the lock is released.
func TestPutBulkNoAnswer(t *testing.T) {
	s, r := newReplay(t, "put_bulk_504")
	err := s.Put(ctx, apple(), appleChunks(), appleVectors(), meta3)
	if !isStatus(err, 504, "") || !strings.Contains(err.Error(), "504 Gateway Time-out") {
		t.Fatalf("Put = %v; want the 504", err)
	}
	abort := stateIn(t, r, 7)
	if diff := cmp.Diff([]hiddenGen{{Gen: "0000320193-24-000123.n1"}}, abort.Hidden); diff != "" || len(abort.Locks) != 0 {
		t.Errorf("abort = %+v; want the generation hidden, not done, and no lock", abort)
	}
}

// TestPutOlderFormat: a data index made by an earlier layout of this
// store (format 2 indexed the text with OpenSearch's english analyzer) is
// not written to; the error says to drop the store and index again.
func TestPutOlderFormat(t *testing.T) {
	c, fake := fakeClient(t)
	s, err := Open(c, "old")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Put(ctx, apple(), appleChunks(), appleVectors(), meta3); err != nil {
		t.Fatal(err)
	}
	fake.mu.Lock()
	fake.indices["old-data-0"].mapping["_meta"].(map[string]any)["edgar13f_format"] = 2.0
	fake.mu.Unlock()

	s, err = Open(c, "old")
	if err != nil {
		t.Fatal(err)
	}
	err = s.Put(ctx, apple(), appleChunks(), appleVectors(), meta3)
	if err == nil || !strings.Contains(err.Error(), "format 2") || !strings.Contains(err.Error(), "Store.Drop") {
		t.Errorf("Put on a format-2 index = %v; want an error naming the format and Store.Drop", err)
	}
}
