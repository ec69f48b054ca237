package opensearch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/edgar13f/edgar13f/search/store"
)

// ErrReplacedConcurrently is returned by Put when another Put of the same
// accession began before this one committed: the later Put takes over, and
// this one's chunks are discarded.
var ErrReplacedConcurrently = errors.New("edgar13f/search/opensearch: another Put of the same accession began before this one committed; this one was discarded")

func badPut(f store.Filing, format string, args ...any) error {
	return fmt.Errorf("edgar13f/search/opensearch: Put(%s): "+format, append([]any{f.Accession}, args...)...)
}

// validateFiling checks the filing and the embedder of a Put.
func validateFiling(f store.Filing, meta store.Meta) error {
	if f.Accession == "" {
		return badPut(f, "the filing has no accession number")
	}
	if strings.ContainsAny(f.Accession, "/:,") {
		return badPut(f, "accession number %q has a character that is not allowed", f.Accession)
	}
	if f.FilingDate.IsZero() {
		return badPut(f, "the filing has no filing date")
	}
	if (meta.Model == "") != (meta.Dim == 0) || meta.Dim < 0 {
		return badPut(f, "embedder %s: want a model and a positive dimension, or neither", meta)
	}
	return nil
}

// validateChunks checks a Put's chunks and vectors. It runs after the
// embedder is checked against the store's: a Put of another embedder is a
// *store.MismatchError whatever its chunks.
func validateChunks(f store.Filing, chunks []store.Chunk, vectors [][]float32, meta store.Meta) error {
	bad := func(format string, args ...any) error { return badPut(f, format, args...) }
	if err := store.ValidateChunks(f.Accession, chunks); err != nil {
		return bad("%w", err)
	}
	if meta.Dim == 0 {
		if vectors != nil {
			return bad("%d vectors given without an embedder", len(vectors))
		}
		return nil
	}
	if len(vectors) != len(chunks) {
		return bad("%d vectors for %d chunks", len(vectors), len(chunks))
	}
	for i, v := range vectors {
		if len(v) != meta.Dim {
			return bad("vector %d has dimension %d; the embedder %s has %d", i, len(v), meta, meta.Dim)
		}
		for _, x := range v {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return bad("vector %d is not finite", i)
			}
		}
	}
	return nil
}

// Put stores a filing's chunks, replacing the ones stored for its
// accession, atomically (see the package documentation for how).
func (s *Store) Put(ctx context.Context, f store.Filing, chunks []store.Chunk, vectors [][]float32, meta store.Meta) error {
	if err := validateFiling(f, meta); err != nil {
		return err
	}
	f.Chunks = len(chunks)
	gen := f.Accession + "." + s.opts.nonce()

	// 1. Hide the new generation and take the accession's lock, before a
	// single document of it is written.
	var fresh bool // no state document: a new store, or one dropped since
	st, err := s.update(ctx, func(st *state) (bool, error) {
		fresh = !st.exists
		if !st.exists {
			st.Model, st.Dim = meta.Model, meta.Dim
		}
		if st.Sealed && st.meta() != meta {
			return false, &store.MismatchError{Stored: st.meta(), Given: meta}
		}
		if err := validateChunks(f, chunks, vectors, meta); err != nil {
			return false, err
		}
		if st.meta() != meta {
			// No filing was ever committed: the store takes the new
			// embedder, in a new data index. A Put of the old embedder
			// still under way finds the epoch changed when it commits.
			st.Epoch++
			st.Model, st.Dim = meta.Model, meta.Dim
			st.Hidden, st.Locks = nil, nil
		}
		st.hide(gen, false)
		st.setLock(f.Accession, gen)
		st.Hides++
		return false, nil
	})
	if err != nil {
		return err
	}
	epoch := st.Epoch
	index := s.dataIndex(epoch)
	if fresh {
		// Another Store may have dropped the store since this one
		// made its data index: forget it, so that ensureDataIndex makes
		// it again. A bulk call into an index that is gone would have
		// the cluster create one with a mapping of its own guessing.
		s.forgetDataIndices()
	}

	// 2. Write the generation's documents, searchable on every copy when
	// the bulk calls return.
	layout, err := s.ensureDataIndex(ctx, epoch, meta)
	if err != nil {
		return s.abort(ctx, f.Accession, gen, epoch, true, err)
	}
	// The documents, made (analysed and encoded) by the bulk workers: the
	// chunks, then the filing.
	docAt := func(i int) bulkDoc {
		if i == len(chunks) {
			return bulkDoc{id: gen, doc: filingDoc(gen, f)}
		}
		var v []float32
		if vectors != nil {
			v = vectors[i]
		}
		return bulkDoc{id: gen + ":" + chunks[i].ID, doc: chunkDoc(gen, f, chunks[i], v)}
	}
	if err := s.bulkIndex(ctx, index, len(chunks)+1, docAt); err != nil {
		return s.abort(ctx, f.Accession, gen, epoch, answered(err), err)
	}

	// 3. The generations it may replace: the searchable filing documents
	// of the accession not hidden when this Put took its lock. No other
	// Put can commit the accession while this one holds the lock, so none
	// of the generations hidden then can become visible; the commit keeps
	// those still visible and adds the ones committed since the last
	// refresh.
	found, err := s.filingGens(ctx, index, f.Accession, gen, st.hiddenGens())
	if err != nil {
		return s.abort(ctx, f.Accession, gen, epoch, true, err)
	}

	// 4. Commit: one write un-hides the new generation and hides the old.
	committed, err := s.update(ctx, func(st *state) (bool, error) {
		if st.Epoch != epoch {
			return false, &store.MismatchError{Stored: st.meta(), Given: meta}
		}
		if !st.hidden(gen) {
			// Only this commit un-hides gen: it was written, and its
			// answer lost (or the client sent it again, and the second
			// write found the first one's result).
			return true, nil
		}
		if st.lockOf(f.Accession) != gen {
			return false, ErrReplacedConcurrently
		}
		st.unhide(gen)
		for _, g := range st.visibleGens(f.Accession, gen, found) {
			st.hide(g, true)
		}
		st.unlock(f.Accession, gen)
		st.Unrefreshed = append(st.Unrefreshed, lock{Accession: f.Accession, Gen: gen})
		if !st.Sealed {
			// The first commit fixes the embedder, and so the data
			// index: queries learn from the state how it keeps the
			// vectors.
			st.setLayout(layout)
		}
		st.Sealed = true
		st.Hides++
		return false, nil
	})
	if err != nil {
		if !answered(err) {
			// The commit may or may not have been written; leave the
			// generation as it is (hidden, or committed).
			return err
		}
		return s.abort(ctx, f.Accession, gen, epoch, true, err)
	}

	// 5. Delete what no query can see any more (the state as committed
	// lists it). A failure leaves garbage that is hidden; the next Put
	// deletes it.
	s.vacuum(ctx, epoch, committed)

	// 6. Keep the list of generations committed since the last refresh
	// short: refresh once every maxUnrefreshed commits when no query does.
	// A failure leaves it for the next query or Put.
	if len(committed.Unrefreshed) >= maxUnrefreshed {
		if st, err := s.readState(ctx); err == nil && st.Epoch == epoch {
			_ = s.refreshCommitted(ctx, st)
		}
	}
	return nil
}

// maxUnrefreshed is how many commits a Put lets pass without a refresh.
const maxUnrefreshed = 64

// refreshCommitted makes the generations st lists as unrefreshed
// searchable: it refreshes the data index (every document written before
// the refresh began is then searchable on every shard copy, those of the
// generations committed by st included), then takes them off the list,
// unless the state changed meanwhile. A failure to write the state is
// not an error: the next reader refreshes again.
func (s *Store) refreshCommitted(ctx context.Context, st *state) error {
	if err := s.refresh(ctx, s.dataIndex(st.Epoch)); err != nil {
		return err
	}
	cleared := *st
	cleared.Unrefreshed = nil
	_, _ = s.writeState(ctx, &cleared)
	return nil
}

// refresh refreshes an index: the documents written before it began are
// searchable when it returns.
func (s *Store) refresh(ctx context.Context, index string) error {
	_, err := s.do(ctx, "refresh", http.MethodPost, "/"+index+"/_refresh", nil, nil)
	return err
}

// answered reports whether err says for sure what the cluster did: an
// error answer of status below 500, or no call at all. A call that got no
// answer, or a 5xx (a proxy's timeout, say), may still be carried out.
func answered(err error) bool {
	var te *transportError
	if errors.As(err, &te) {
		return false
	}
	var e *Error
	return !errors.As(err, &e) || e.Status < 500
}

// abortTimeout bounds the clean-up of a failed Put, which runs even when
// the Put's context has ended.
const abortTimeout = 30 * time.Second

// abort gives up a Put of gen and returns cause. When done (every write of
// the generation was answered, so no document of it can appear later) the
// generation is marked done and deleted; otherwise it stays hidden for
// good.
func (s *Store) abort(ctx context.Context, accession, gen string, epoch int, done bool, cause error) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), abortTimeout)
	defer cancel()
	st, err := s.update(ctx, func(st *state) (bool, error) {
		if st.Epoch != epoch {
			return true, nil
		}
		if done {
			st.hide(gen, true)
		}
		st.unlock(accession, gen)
		return false, nil
	})
	if err == nil && done {
		s.vacuum(ctx, epoch, st)
	}
	return cause
}

// vacuum deletes the documents of the hidden generations that st, a state
// this Put read or wrote, marks done, and then takes them off the hidden
// list. Its errors are dropped: what it leaves is hidden, and the next
// vacuum tries again.
func (s *Store) vacuum(ctx context.Context, epoch int, st *state) {
	if st.Epoch != epoch {
		return
	}
	var gone []string
	for _, h := range st.Hidden {
		if h.Done {
			gone = append(gone, h.Gen)
		}
	}
	if len(gone) == 0 {
		return
	}
	if err := s.deleteGens(ctx, s.dataIndex(epoch), gone); err != nil {
		return
	}
	_, _ = s.update(ctx, func(st *state) (bool, error) {
		if st.Epoch != epoch {
			return true, nil
		}
		n := len(st.Hidden)
		st.Hidden = slices.DeleteFunc(st.Hidden, func(h hiddenGen) bool { return h.Done && slices.Contains(gone, h.Gen) })
		return len(st.Hidden) == n, nil
	})
}

// deleteByQueryResponse is the answer of _delete_by_query.
type deleteByQueryResponse struct {
	TimedOut bool              `json:"timed_out"`
	Deleted  int               `json:"deleted"`
	Failures []json.RawMessage `json:"failures"`
}

// deleteGens deletes every document of the generations and refreshes, so
// that none is searchable when it returns. It refreshes first: a Put does
// not, and _delete_by_query deletes only the documents it can find.
func (s *Store) deleteGens(ctx context.Context, index string, gens []string) error {
	if err := s.refresh(ctx, index); err != nil {
		return err
	}
	q := url.Values{"refresh": {"true"}, "conflicts": {"proceed"}}
	body := map[string]any{"query": map[string]any{"terms": map[string]any{"gen": gens}}}
	data, err := s.do(ctx, "delete_by_query", http.MethodPost, "/"+index+"/_delete_by_query", q, body)
	if err != nil {
		return err
	}
	var r deleteByQueryResponse
	if err := json.Unmarshal(data, &r); err != nil {
		return fmt.Errorf("edgar13f/search/opensearch: delete_by_query: %w", err)
	}
	if r.TimedOut || len(r.Failures) > 0 {
		first := ""
		if len(r.Failures) > 0 {
			first = truncate(string(r.Failures[0]), 500)
		}
		return fmt.Errorf("edgar13f/search/opensearch: delete_by_query: timed out %v, %d failures %s", r.TimedOut, len(r.Failures), first)
	}
	return nil
}

// filingGens returns the generations other than gen of the accession's
// searchable filing documents, except the hidden ones.
func (s *Store) filingGens(ctx context.Context, index, accession, gen string, hidden []string) ([]string, error) {
	body := map[string]any{
		"size":    100,
		"_source": []string{"gen"},
		"query": boolQuery(
			[]any{term("kind", kindFiling), term("accession", accession)},
			nil, hiddenFilter(hidden),
		),
		"sort": []any{map[string]any{"gen": "asc"}},
	}
	var r searchResponse
	if err := s.search(ctx, index, body, &r); err != nil {
		return nil, err
	}
	var out []string
	for _, h := range r.Hits.Hits {
		if h.Source.Gen != gen {
			out = append(out, h.Source.Gen)
		}
	}
	return out, nil
}

// visibleGens returns the visible generations of accession other than
// gen: those of found (its searchable filing documents) not hidden, and
// those committed since the last refresh, which a search may not find.
func (st *state) visibleGens(accession, gen string, found []string) []string {
	var out []string
	for _, g := range found {
		if !st.hidden(g) {
			out = append(out, g)
		}
	}
	for _, u := range st.Unrefreshed {
		if u.Accession == accession && u.Gen != gen && !st.hidden(u.Gen) && !slices.Contains(out, u.Gen) {
			out = append(out, u.Gen)
		}
	}
	return out
}

// A bulkDoc is a document to index under an id.
type bulkDoc struct {
	id  string
	doc any // a doc or a filingSource
}

// bulkResponse is the answer of _bulk.
type bulkResponse struct {
	Errors bool `json:"errors"`
	Items  []map[string]struct {
		ID     string `json:"_id"`
		Status int    `json:"status"`
		Error  *struct {
			Type   string `json:"type"`
			Reason string `json:"reason"`
		} `json:"error"`
	} `json:"items"`
}

// bulkIndex indexes the n documents docAt makes with the _bulk API, in
// calls of at most opts.bulkBytes. It does not refresh: a generation is
// searched only once committed, and a query refreshes the data index
// before it searches when the state lists a generation committed since the
// last refresh. Documents the cluster rejects with 429 (its write queue is
// full) are sent again after a backoff; any other rejected document fails
// the whole.
//
// A Put of many documents is split into bulkWorkers parts side by side,
// so that the cluster indexes it on as many threads; each part's worker
// makes and encodes its documents (the analysis of their text, the JSON of
// their vectors) and then sends them, so that the client's share of a Put
// runs on as many cores too.
func (s *Store) bulkIndex(ctx context.Context, index string, n int, docAt func(i int) bulkDoc) error {
	parts := 1
	if n >= bulkWorkers*minBulkDocs {
		parts = bulkWorkers
	}
	errs := make([]error, parts)
	var wg sync.WaitGroup
	for p := range parts {
		start, end := p*n/parts, (p+1)*n/parts
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[p] = s.bulkPart(ctx, index, start, end, docAt)
		}()
	}
	wg.Wait()
	// The first error, one that says less of what the cluster did (no
	// answer) before one that says more.
	for _, err := range errs {
		if err != nil && !answered(err) {
			return err
		}
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// bulkPart makes and encodes the documents start to end of a Put and
// sends them in calls of at most opts.bulkBytes, one after another.
func (s *Store) bulkPart(ctx context.Context, index string, start, end int, docAt func(i int) bulkDoc) error {
	docs := make([]bulkDoc, end-start)
	for i := range docs {
		docs[i] = docAt(start + i)
	}
	lines, err := bulkLines(docs)
	if err != nil {
		return err
	}
	for from := 0; from < len(lines); {
		to, size := from, 0
		for to < len(lines) && (to == from || size+len(lines[to]) <= s.opts.bulkBytes) {
			size += len(lines[to])
			to++
		}
		if err := s.bulkBatch(ctx, index, docs[from:to], lines[from:to]); err != nil {
			return err
		}
		from = to
	}
	return nil
}

// bulkWorkers is how many _bulk calls of a Put run side by side, and
// minBulkDocs the fewest documents a call of a Put split among them has.
const (
	bulkWorkers = 2
	minBulkDocs = 100
)

// bulkLines encodes each document as its two _bulk lines: the action and
// the source.
func bulkLines(docs []bulkDoc) ([][]byte, error) {
	lines := make([][]byte, len(docs))
	for i, d := range docs {
		action, err := json.Marshal(map[string]any{"index": map[string]any{"_id": d.id}})
		if err != nil {
			return nil, err
		}
		src, err := json.Marshal(d.doc)
		if err != nil {
			return nil, fmt.Errorf("edgar13f/search/opensearch: bulk: document %s: %w", d.id, err)
		}
		lines[i] = append(append(append(action, '\n'), src...), '\n')
	}
	return lines, nil
}

func (s *Store) bulkBatch(ctx context.Context, index string, docs []bulkDoc, lines [][]byte) error {
	for attempt := 0; ; attempt++ {
		data, err := s.do(ctx, "bulk", http.MethodPost, "/"+index+"/_bulk", nil, ndjson(bytes.Join(lines, nil)))
		if err != nil {
			return err
		}
		var r bulkResponse
		if err := json.Unmarshal(data, &r); err != nil {
			return fmt.Errorf("edgar13f/search/opensearch: bulk: %w", err)
		}
		if len(r.Items) != len(lines) {
			return fmt.Errorf("edgar13f/search/opensearch: bulk: %d results for %d documents", len(r.Items), len(lines))
		}
		if !r.Errors {
			return nil
		}
		var retryDocs []bulkDoc
		var retryLines [][]byte
		for i, item := range r.Items {
			res := item["index"]
			if res.Error == nil && res.Status < 300 {
				continue
			}
			if res.Status == http.StatusTooManyRequests {
				retryDocs, retryLines = append(retryDocs, docs[i]), append(retryLines, lines[i])
				continue
			}
			e := &Error{Op: "bulk", Status: res.Status, Reason: "document " + docs[i].id}
			if res.Error != nil {
				e.Type, e.Reason = res.Error.Type, res.Error.Reason+" (document "+docs[i].id+")"
			}
			return e
		}
		if attempt+1 >= maxRejected {
			return &Error{Op: "bulk", Status: http.StatusTooManyRequests, Type: "es_rejected_execution_exception",
				Reason: fmt.Sprintf("%d documents still rejected after %d attempts", len(retryDocs), maxRejected)}
		}
		if err := s.wait(ctx, attempt); err != nil {
			return &transportError{"bulk", err}
		}
		docs, lines = retryDocs, retryLines
	}
}
