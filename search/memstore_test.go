package search

import (
	"cmp"
	"context"
	"errors"
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/search/store"
)

// memStore is a small in-memory store.Store for the engine's tests: BM25
// over lower-cased words without stop words (no stemming), term statistics
// over the chunks visible on the filter's asOf, exact cosine kNN.
// It stays beside the embedded store: its scores are simple enough for
// the engine's tests to reason about by hand, it counts Puts, and it lets
// the point-in-time property run on a second store cheaply.
type memStore struct {
	mu      sync.Mutex
	meta    store.Meta
	filings map[string]store.Filing
	chunks  map[string][]store.Chunk // by accession, in Index order per Item
	vecs    map[string][]float32     // by chunk ID
	puts    int
}

func newMemStore() *memStore {
	return &memStore{filings: map[string]store.Filing{}, chunks: map[string][]store.Chunk{}, vecs: map[string][]float32{}}
}

func (s *memStore) Meta(ctx context.Context) (store.Meta, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.meta, nil
}

func (s *memStore) Put(ctx context.Context, f store.Filing, chunks []store.Chunk, vectors [][]float32, meta store.Meta) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := store.Compatible(s.meta, meta, len(s.filings) == 0); err != nil {
		return err
	}
	if vectors != nil && len(vectors) != len(chunks) || meta.Dim > 0 && vectors == nil {
		return errors.New("memStore: vectors do not fit the chunks")
	}
	for _, c := range s.chunks[f.Accession] {
		delete(s.vecs, c.ID)
	}
	s.meta = meta
	f.Chunks = len(chunks)
	s.filings[f.Accession] = f
	s.chunks[f.Accession] = slices.Clone(chunks)
	for i, c := range chunks {
		if vectors != nil {
			s.vecs[c.ID] = slices.Clone(vectors[i])
		}
	}
	s.puts++
	return nil
}

func (s *memStore) Filings(ctx context.Context, asOf edgar13f.Date) ([]store.Filing, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []store.Filing
	for _, f := range s.filings {
		if !asOf.Before(f.FilingDate) {
			out = append(out, f)
		}
	}
	slices.SortFunc(out, func(a, b store.Filing) int {
		return cmp.Or(cmp.Compare(a.CIK, b.CIK), a.FilingDate.Compare(b.FilingDate), cmp.Compare(a.Accession, b.Accession))
	})
	return out, nil
}

// visible calls fn for every chunk of a filing visible on f.AsOf, and
// tells whether it passes the rest of f.
func (s *memStore) visible(f store.Filter, fn func(c store.Chunk, fl store.Filing, pass bool)) {
	for acc, cs := range s.chunks {
		fl := s.filings[acc]
		if f.AsOf.Before(fl.FilingDate) {
			continue
		}
		for _, c := range cs {
			pass := (f.Ticker == "" || fl.Ticker == f.Ticker) && (f.CIK == "" || fl.CIK == f.CIK) &&
				(f.Form == "" || fl.Form == f.Form) && f.KeepsItem(c.Item) &&
				(f.FiscalYear == 0 || fl.FiscalYear == f.FiscalYear)
			fn(c, fl, pass)
		}
	}
}

var memStop = map[string]bool{"the": true, "a": true, "an": true, "and": true, "or": true, "of": true, "to": true, "in": true, "on": true, "for": true, "is": true, "are": true, "with": true, "by": true, "as": true, "at": true, "that": true, "this": true}

func memTerms(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if !memStop[w] {
			out = append(out, w)
		}
	}
	return out
}

func (s *memStore) Lexical(ctx context.Context, query string, f store.Filter, k int) ([]store.Match, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := memTerms(query)
	slices.Sort(q)
	q = slices.Compact(q)
	n, total := 0, 0
	df := map[string]int{}
	s.visible(f, func(c store.Chunk, _ store.Filing, _ bool) {
		ts := memTerms(c.Text)
		n++
		total += len(ts)
		for _, t := range q {
			if slices.Contains(ts, t) {
				df[t]++
			}
		}
	})
	var out []store.Match
	s.visible(f, func(c store.Chunk, fl store.Filing, pass bool) {
		if !pass {
			return
		}
		ts := memTerms(c.Text)
		score, any := 0.0, false
		for _, t := range q {
			tf := 0
			for _, w := range ts {
				if w == t {
					tf++
				}
			}
			if tf == 0 {
				continue
			}
			any = true
			idf := math.Log(1 + (float64(n)-float64(df[t])+0.5)/(float64(df[t])+0.5))
			const k1, b = 1.2, 0.75
			norm := 1 - b + b*float64(len(ts))*float64(n)/float64(total)
			score += idf * float64(tf) * (k1 + 1) / (float64(tf) + k1*norm)
		}
		if any {
			out = append(out, store.Match{Chunk: c, Filing: fl, Score: score})
		}
	})
	return top(out, k), nil
}

func top(ms []store.Match, k int) []store.Match {
	slices.SortFunc(ms, func(a, b store.Match) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.Chunk.ID, b.Chunk.ID))
	})
	return ms[:min(k, len(ms))]
}

func (s *memStore) Nearest(ctx context.Context, vector []float32, f store.Filter, k int) ([]store.Match, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.meta.Dim == 0 {
		return nil, store.ErrNoVectors
	}
	var out []store.Match
	s.visible(f, func(c store.Chunk, fl store.Filing, pass bool) {
		if pass {
			out = append(out, store.Match{Chunk: c, Filing: fl, Score: memCosine(vector, s.vecs[c.ID])})
		}
	})
	return top(out, k), nil
}

func memCosine(a, b []float32) float64 {
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}

func (s *memStore) Chunk(ctx context.Context, id string) (store.Chunk, store.Filing, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for acc, cs := range s.chunks {
		for _, c := range cs {
			if c.ID == id {
				return c, s.filings[acc], true, nil
			}
		}
	}
	return store.Chunk{}, store.Filing{}, false, nil
}

func (s *memStore) ItemChunks(ctx context.Context, accession, item string) ([]store.Chunk, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []store.Chunk
	for _, c := range s.chunks[accession] {
		if c.Item == item {
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(a, b store.Chunk) int { return cmp.Compare(a.Index, b.Index) })
	return out, nil
}

func (s *memStore) Close() error { return nil }

// hashEmbedder embeds a text as the normalised sum of its words hashed
// into dim buckets with a hashed sign: deterministic, no model needed.
type hashEmbedder struct {
	model string
	dim   int
	mu    sync.Mutex
	calls int
	texts int
}

func (h *hashEmbedder) Model() string { return h.model }

func (h *hashEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	h.mu.Lock()
	h.calls++
	h.texts += len(texts)
	h.mu.Unlock()
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, h.dim)
		for _, w := range memTerms(t) {
			x := fnv.New64a()
			x.Write([]byte(w))
			s := x.Sum64()
			sign := float32(1)
			if s>>63 == 1 {
				sign = -1
			}
			v[s%uint64(h.dim)] += sign
		}
		var n float64
		for _, f := range v {
			n += float64(f) * float64(f)
		}
		if n > 0 {
			for j := range v {
				v[j] = float32(float64(v[j]) / math.Sqrt(n))
			}
		}
		out[i] = v
	}
	return out, nil
}
