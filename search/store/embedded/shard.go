package embedded

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/document"
	index "github.com/blevesearch/bleve_index_api"
	"github.com/blevesearch/mmap-go"
	segment "github.com/blevesearch/scorch_segment_api/v2"
	zap "github.com/blevesearch/zapx/v17"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/search/internal/vecmath"
	"github.com/edgar13f/edgar13f/search/store"
)

// A shard is one filing's part of the store: a directory under filings/
// named "<accession>.<generation>" holding
//
//	filing.json  the filing, its embedder and its chunk table (record)
//	text.bin     the chunks' texts, one after the other
//	vectors.f32  the chunks' vectors, little-endian float32, when it has any
//	vectors.q8   a compact copy of them for the kNN scan, not in SUMS: a
//	             cache made again when missing or damaged (see fileCompact)
//	index.zap    the chunks' English-analysed text as a bleve zap segment,
//	             document number i being the i-th chunk of the table
//	terms.bin    the segment's term table for the store's lexicon, not in
//	             SUMS: a cache checked against its own CRC and the sum of
//	             index.zap, made again from it when missing or damaged
//	             (see lexicon.go)
//	SUMS         size and CRC-32C of each of the files above
//
// A shard is built in a temporary directory and renamed into filings/
// only when complete, so a shard that is there is whole unless the disk
// damaged it, which SUMS detects.
const (
	fileRecord  = "filing.json"
	fileText    = "text.bin"
	fileVectors = "vectors.f32"
	fileIndex   = "index.zap"
	fileSums    = "SUMS"

	// recordFormat is the version of the shard layout.
	recordFormat = 1

	// textField is the one indexed field of the zap segment.
	textField = "text"
)

var (
	castagnoli = crc32.MakeTable(crc32.Castagnoli)
	zapPlugin  = &zap.ZapPlugin{}
)

// A chunkEntry is one chunk in a shard's table.
type chunkEntry struct {
	ID     string  `json:"id"`
	Item   string  `json:"item"`
	Title  string  `json:"title,omitempty"`
	Index  int     `json:"index"`
	Tokens int     `json:"tokens"`
	Len    int     `json:"len"`  // terms after English analysis: the BM25 document length
	Off    int64   `json:"off"`  // offset of its text in text.bin
	Size   int     `json:"size"` // bytes of its text
	Norm   float64 `json:"norm,omitempty"`
}

// A filingJSON is a store.Filing as filing.json holds it: dates as
// YYYY-MM-DD, "" for a zero date.
type filingJSON struct {
	Accession  string `json:"accession"`
	CIK        string `json:"cik"`
	Ticker     string `json:"ticker,omitempty"`
	Company    string `json:"company,omitempty"`
	Form       string `json:"form"`
	FilingDate string `json:"filing_date"`
	ReportDate string `json:"report_date,omitempty"`
	FiscalYear int    `json:"fiscal_year,omitempty"`
	URL        string `json:"url,omitempty"`
	Chunks     int    `json:"chunks"`
}

func dateText(d edgar13f.Date) string {
	if d.IsZero() {
		return ""
	}
	return d.String()
}

func parseDateText(s string) (edgar13f.Date, error) {
	if s == "" {
		return edgar13f.Date{}, nil
	}
	return edgar13f.ParseDate(s)
}

// MarshalJSON writes r with its filing as a filingJSON.
func (r record) MarshalJSON() ([]byte, error) {
	f := r.Filing
	return json.Marshal(recordJSON{
		Format: r.Format,
		Filing: filingJSON{f.Accession, f.CIK, f.Ticker, f.Company, f.Form, dateText(f.FilingDate), dateText(f.Period), f.FiscalYear, f.URL, f.Chunks},
		Meta:   metaJSON{r.Meta.Model, r.Meta.Dim},
		Length: r.Length,
		Chunks: r.Chunks,
	})
}

// UnmarshalJSON reads what MarshalJSON wrote.
func (r *record) UnmarshalJSON(b []byte) error {
	var j recordJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	filed, err := parseDateText(j.Filing.FilingDate)
	if err != nil {
		return err
	}
	period, err := parseDateText(j.Filing.ReportDate)
	if err != nil {
		return err
	}
	f := j.Filing
	*r = record{
		Format: j.Format,
		Filing: store.Filing{Accession: f.Accession, CIK: f.CIK, Ticker: f.Ticker, Company: f.Company, Form: f.Form,
			FilingDate: filed, Period: period, FiscalYear: f.FiscalYear, URL: f.URL, Chunks: f.Chunks},
		Meta:   store.Meta{Model: j.Meta.Model, Dim: j.Meta.Dim},
		Length: j.Length,
		Chunks: j.Chunks,
	}
	return nil
}

type metaJSON struct {
	Model string `json:"model,omitempty"`
	Dim   int    `json:"dim,omitempty"`
}

type recordJSON struct {
	Format int          `json:"format"`
	Filing filingJSON   `json:"filing"`
	Meta   metaJSON     `json:"embedder"`
	Length int64        `json:"length"`
	Chunks []chunkEntry `json:"chunks"`
}

// A record is the content of filing.json.
type record struct {
	Format int
	Filing store.Filing
	Meta   store.Meta
	Length int64        // the sum of the chunks' Len
	Chunks []chunkEntry // by Item, Index, ID: document numbers in the segment
}

// A shard is a loaded record with the place of its files. It does not
// change once loaded. It keeps what picks the shards a query opens (the
// filing, its length) and the hashes of its chunk IDs, not its chunk
// table: that is read when the shard is opened (see [handle]), so that the
// heap grows with the open shards, not with every chunk stored.
type shard struct {
	name string // directory name, "<accession>.<generation>"
	dir  string
	gen  int
	rec  record   // its Chunks are nil
	ids  []uint32 // idPrint of each chunk's ID, sorted
	sums map[string]fileSum

	textSize int64 // the size of text.bin

	// compactChecked says that this process checked the CRC of the
	// shard's compact vectors (see compactOf).
	compactChecked atomic.Bool

	// noTerms says that the shard's terms.bin was found missing or not
	// matching its segment: no lexicon segment is built with it until
	// Open with Progress makes it again (see makeTerms).
	noTerms atomic.Bool

	// df remembers the document frequencies of the last dfMemo terms read
	// from the shard's dictionary: a query filtered to a few filings still
	// needs every visible filing's frequencies for its statistics, and the
	// terms of queries repeat, so a filing whose frequencies are known is
	// not opened at all. The entries name their terms by the store's
	// numbers for them (see termIDs); the memo lives as long as the shard
	// is in the view.
	dfMu   sync.Mutex
	df     []dfEntry // grows to dfMemo entries, then each new one replaces the oldest
	dfNext int       // the entry replaced next, once df is full
	// dl is the BM25 length of each chunk, kept with the first postings
	// remembered (nil before); postBytes counts the bytes of dl and the
	// entries' postings (nil until the first are kept), given back to the
	// store's budget as they are forgotten.
	dl        []uint16
	postBytes *int64
}

// dfMemo is how many terms' document frequencies a shard remembers.
const dfMemo = 64

type dfEntry struct {
	term uint64 // 0 in an entry not used yet
	df   uint64
	// When bound is true, maxTF is the largest frequency of the term in a
	// chunk of the shard and minDL[j] the smallest BM25 length of a chunk
	// holding it at least j+1 times: with a query's statistics they give
	// the most the term adds to any chunk's score (see scorer.termBest).
	bound bool
	maxTF uint64
	minDL [tfLevels]int32
	// post, when not nil, is the term's postings list in the shard,
	// decoded (see packPosting), in document order: a query scores a
	// shard whose terms' postings are remembered without reading its
	// segment.
	post []uint32
}

// tfLevels is how many frequencies a shard remembers a smallest length
// for, per term.
const tfLevels = 6

// termBound is what a shard knows of one query term beyond its document
// frequency, when bound is true: its largest frequency, and for each
// frequency up to tfLevels the smallest length of a chunk holding the term
// at least that often.
type termBound struct {
	bound bool
	maxTF uint64
	minDL [tfLevels]int32
}

// knownDF returns the remembered document frequencies of terms, or ok
// false when one of them is not remembered. When bounds is not nil it
// receives what is remembered of each term's frequencies and lengths, and
// when posts is not nil each term's decoded postings, nil when they are
// not remembered (see lengths).
func (sh *shard) knownDF(terms []uint64, out []uint64, bounds []termBound, posts [][]uint32) bool {
	sh.dfMu.Lock()
	defer sh.dfMu.Unlock()
	if sh.df == nil {
		return len(terms) == 0
	}
next:
	for i, t := range terms {
		for j := range sh.df {
			e := &sh.df[j]
			if e.term == t {
				out[i] = e.df
				if bounds != nil {
					bounds[i] = termBound{bound: e.bound || e.df == 0, maxTF: e.maxTF, minDL: e.minDL}
				}
				if posts != nil {
					posts[i] = e.post
				}
				continue next
			}
		}
		return false
	}
	return true
}

// knownPosts sets posts[i] to the remembered postings of terms[i] when
// the shard remembers them with the document frequency dfs[i], else nil.
func (sh *shard) knownPosts(terms []uint64, dfs []uint64, posts [][]uint32) {
	sh.dfMu.Lock()
	defer sh.dfMu.Unlock()
	for i, t := range terms {
		posts[i] = nil
		if dfs[i] == 0 || sh.df == nil {
			continue
		}
		for j := range sh.df {
			if e := &sh.df[j]; e.term == t && e.df == dfs[i] {
				posts[i] = e.post
				break
			}
		}
	}
}

// rememberDF remembers the document frequencies of terms, and their
// frequency bounds when bounds is not nil, and their decoded postings when
// posts is not nil and pb lets the store keep them (dlen is then the
// chunks' lengths). An entry whose frequency changes loses its bound and
// postings. With postsOnly, a term is remembered only with its postings:
// a shard a lexicon segment covers takes its frequencies and bounds from
// there, and an entry without postings would only cost the heap (at 10
// million chunks, a hundred megabytes).
func (sh *shard) rememberDF(terms []uint64, dfs []uint64, bounds []termBound, posts [][]uint32, dlen []int32, pb *postBudget, postsOnly bool) {
	sh.dfMu.Lock()
	defer sh.dfMu.Unlock()
next:
	for i, t := range terms {
		e := dfEntry{term: t, df: dfs[i]}
		if bounds != nil && bounds[i].bound {
			e.bound, e.maxTF, e.minDL = true, bounds[i].maxTF, bounds[i].minDL
		}
		if posts != nil && posts[i] != nil && uint64(len(posts[i])) == e.df {
			e.post = posts[i]
		}
		for j := range sh.df {
			if sh.df[j].term == t {
				old := &sh.df[j]
				if old.df == e.df {
					if !e.bound {
						e.bound, e.maxTF, e.minDL = old.bound, old.maxTF, old.minDL
					}
					if old.post != nil {
						e.post = old.post // already counted
					} else {
						e.post = sh.keepPostings(e.post, dlen, pb)
					}
				} else {
					sh.dropPostings(old.post, pb)
					e.post = sh.keepPostings(e.post, dlen, pb)
				}
				sh.df[j] = e
				continue next
			}
		}
		if postsOnly && e.post == nil {
			continue
		}
		if len(sh.df) < dfMemo {
			if e.post = sh.keepPostings(e.post, dlen, pb); postsOnly && e.post == nil {
				continue
			}
			sh.df = append(sh.df, e)
			continue
		}
		sh.dropPostings(sh.df[sh.dfNext].post, pb)
		e.post = sh.keepPostings(e.post, dlen, pb)
		if postsOnly && e.post == nil {
			// The budget is spent: the oldest entry stays, without its
			// postings.
			sh.df[sh.dfNext].post = nil
			continue
		}
		sh.df[sh.dfNext] = e
		sh.dfNext = (sh.dfNext + 1) % dfMemo
	}
}

// keepPostings returns post if the store's budget for decoded postings
// has room for it (and for the chunks' lengths, dlen, the first time),
// else nil. sh.dfMu is held.
func (sh *shard) keepPostings(post []uint32, dlen []int32, pb *postBudget) []uint32 {
	if post == nil || pb == nil {
		return nil
	}
	n := int64(4 * cap(post))
	if sh.dl == nil {
		if len(dlen) != sh.rec.Filing.Chunks {
			return nil
		}
		dl := make([]uint16, len(dlen))
		for i, x := range dlen {
			if x < 0 || x > math.MaxUint16 {
				return nil
			}
			dl[i] = uint16(x)
		}
		if !pb.take(n + int64(2*len(dl))) {
			return nil
		}
		sh.dl = dl
		n += int64(2 * len(dl))
	} else if !pb.take(n) {
		return nil
	}
	if sh.postBytes == nil {
		// The shard gives its postings' bytes back to the budget when it
		// leaves the view and is collected.
		sh.postBytes = new(int64)
		runtime.AddCleanup(sh, func(n *int64) { pb.give(atomic.LoadInt64(n)) }, sh.postBytes)
	}
	atomic.AddInt64(sh.postBytes, n)
	return post
}

// dropPostings gives a forgotten entry's postings back to the budget.
// sh.dfMu is held.
func (sh *shard) dropPostings(post []uint32, pb *postBudget) {
	if post == nil || pb == nil || sh.postBytes == nil {
		return
	}
	n := int64(4 * cap(post))
	atomic.AddInt64(sh.postBytes, -n)
	pb.give(n)
}

// termIDs numbers the terms of queries, so that a shard's memo compares
// numbers, not strings. Numbers are never reused: when the map grows past
// maxTermIDs it is cleared, and the terms it held get new numbers.
type termIDs struct {
	mu   sync.Mutex
	ids  map[string]uint64
	last uint64
}

const maxTermIDs = 1 << 20

// of returns the numbers of terms, none 0.
func (ti *termIDs) of(terms []string) []uint64 {
	ti.mu.Lock()
	defer ti.mu.Unlock()
	if ti.ids == nil || len(ti.ids) > maxTermIDs {
		ti.ids = map[string]uint64{}
	}
	out := make([]uint64, len(terms))
	for i, t := range terms {
		id, ok := ti.ids[t]
		if !ok {
			ti.last++
			id = ti.last
			ti.ids[t] = id
		}
		out[i] = id
	}
	return out
}

// A postBudget bounds the bytes of decoded postings the shards of a store
// remember.
type postBudget struct {
	used  atomic.Int64
	limit int64
}

func (b *postBudget) take(n int64) bool {
	if b.used.Add(n) > b.limit {
		b.used.Add(-n)
		return false
	}
	return true
}

func (b *postBudget) give(n int64) { b.used.Add(-n) }

// A decoded posting packs a chunk's document number (bits 16-31) and the
// term's frequency in it (bits 0-15); a postings list with a number or a
// frequency that does not fit is not remembered. The chunk's length is in
// the shard's dl.
func packPosting(doc uint64, freq uint64) (uint32, bool) {
	if doc > math.MaxUint16 || freq > math.MaxUint16 {
		return 0, false
	}
	return uint32(doc<<16 | freq), true
}

func unpackPosting(p uint32) (doc int, freq uint32) {
	return int(p >> 16), p & math.MaxUint16
}

// lengths returns the chunks' lengths kept with the shard's remembered
// postings, nil when it remembers none.
func (sh *shard) lengths() []uint16 {
	sh.dfMu.Lock()
	defer sh.dfMu.Unlock()
	return sh.dl
}

// newShard returns the shard of a complete record, keeping the hashes of
// its chunk IDs and dropping its chunk table.
func newShard(name, dir string, gen int, rec record, sums map[string]fileSum) *shard {
	sh := &shard{name: name, dir: dir, gen: gen, rec: rec, sums: sums, ids: make([]uint32, len(rec.Chunks))}
	for i, c := range rec.Chunks {
		sh.textSize += int64(c.Size)
		sh.ids[i] = idPrint(idHash(c.ID))
	}
	slices.Sort(sh.ids)
	sh.rec.Chunks = nil
	return sh
}

// mayHold reports whether the shard may hold a chunk with the given ID
// (its print is among the shard's).
func (sh *shard) mayHold(id string) bool {
	_, ok := slices.BinarySearch(sh.ids, idPrint(idHash(id)))
	return ok
}

// idPrint is the print of a chunk ID the shards keep to find a chunk by
// its ID: the high 32 bits of its hash, 4 bytes a chunk (40 MB at 10
// million chunks). Another filing's chunk shares a shard's print once in
// ten million lookups (400 chunks a shard), and a shard is opened only to
// be searched for the ID, so a shared print costs time, never an answer.
func idPrint(hash uint64) uint32 { return uint32(hash >> 32) }

// idHash is the 64-bit FNV-1a hash of a chunk ID.
func idHash(id string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(id); i++ {
		h ^= uint64(id[i])
		h *= 1099511628211
	}
	return h
}

// A fileSum is a line of SUMS.
type fileSum struct {
	size int64
	crc  uint32
}

// shardName returns the directory name of generation gen of accession.
func shardName(accession string, gen int) string {
	return accession + "." + strconv.Itoa(gen)
}

// parseShardName splits a directory name of filings/; ok is false for any
// other name.
func parseShardName(name string) (accession string, gen int, ok bool) {
	acc, g, found := strings.Cut(name, ".")
	if !found || !validAccession(acc) {
		return "", 0, false
	}
	n, err := strconv.Atoi(g)
	if err != nil || n < 1 || strconv.Itoa(n) != g {
		return "", 0, false
	}
	return acc, n, true
}

// validAccession reports whether s is a dashed accession number:
// 10 digits, 2 digits, 6 digits.
func validAccession(s string) bool {
	if len(s) != 20 || s[10] != '-' || s[13] != '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if i != 10 && i != 13 && (s[i] < '0' || s[i] > '9') {
			return false
		}
	}
	return true
}

// chunkTable orders chunks as a shard stores them: by Item, Index, ID, so
// that an Item's chunks are neighbours in Index order.
func chunkTable(chunks []store.Chunk, vectors [][]float32) ([]store.Chunk, [][]float32) {
	order := make([]int, len(chunks))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		ca, cb := chunks[a], chunks[b]
		return cmp.Or(strings.Compare(ca.Item, cb.Item), cmp.Compare(ca.Index, cb.Index), strings.Compare(ca.ID, cb.ID))
	})
	cs := make([]store.Chunk, len(chunks))
	var vs [][]float32
	if vectors != nil {
		vs = make([][]float32, len(chunks))
	}
	for i, j := range order {
		cs[i] = chunks[j]
		if vectors != nil {
			vs[i] = vectors[j]
		}
	}
	return cs, vs
}

// buildShard writes the shard of a filing into dir, which exists and is
// empty, syncing every file and dir itself. step is called after each
// file is written (the crash tests stop there).
func buildShard(dir string, f store.Filing, chunks []store.Chunk, vectors [][]float32, meta store.Meta, an analysis.Analyzer, step func(string)) (record, map[string]fileSum, error) {
	rec, sums, err := buildShardFiles(dir, f, chunks, vectors, meta, an, step)
	if err != nil {
		return record{}, nil, err
	}
	return rec, sums, syncDir(dir)
}

func buildShardFiles(dir string, f store.Filing, chunks []store.Chunk, vectors [][]float32, meta store.Meta, an analysis.Analyzer, step func(string)) (record, map[string]fileSum, error) {
	chunks, vectors = chunkTable(chunks, vectors)
	f.Chunks = len(chunks)
	rec := record{Format: recordFormat, Filing: f, Meta: meta, Chunks: make([]chunkEntry, len(chunks))}
	docs := make([]index.Document, len(chunks))
	lengths := make([]int, len(chunks))
	// Analysis is most of a Put's work: spread it over the CPUs.
	var wg sync.WaitGroup
	workers := min(runtime.GOMAXPROCS(0), len(chunks))
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(chunks); i += workers {
				docs[i], lengths[i] = analyzeChunk(an, chunks[i].ID, store.LexicalText(f, chunks[i]))
			}
		}()
	}
	wg.Wait()
	var off int64
	for i, c := range chunks {
		n := lengths[i]
		rec.Chunks[i] = chunkEntry{ID: c.ID, Item: c.Item, Title: c.ItemTitle, Index: c.Index, Tokens: c.Tokens, Len: n, Off: off, Size: len(c.Text)}
		off += int64(len(c.Text))
		rec.Length += int64(n)
		if vectors != nil {
			rec.Chunks[i].Norm = vecmath.Norm(vectors[i])
		}
	}

	sums := map[string]fileSum{}
	write := func(name string, fill func(w io.Writer) error) error {
		s, err := writeSynced(filepath.Join(dir, name), fill)
		if err != nil {
			return err
		}
		sums[name] = s
		step("wrote " + name)
		return nil
	}
	if err := write(fileText, func(w io.Writer) error {
		for _, c := range chunks {
			if _, err := io.WriteString(w, c.Text); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return rec, nil, err
	}
	if meta.Dim > 0 {
		if err := write(fileVectors, func(w io.Writer) error {
			buf := make([]byte, 4*meta.Dim)
			for _, v := range vectors {
				for j, x := range v {
					binary.LittleEndian.PutUint32(buf[4*j:], math.Float32bits(x))
				}
				if _, err := w.Write(buf); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			return rec, nil, err
		}
		norms := make([]float64, len(chunks))
		for i := range norms {
			norms[i] = rec.Chunks[i].Norm
		}
		if err := writeCompactSynced(dir, vectors, norms, meta.Dim, sums[fileVectors]); err != nil {
			return rec, nil, err
		}
		step("wrote " + fileCompact)
	}
	seg, _, err := zapPlugin.New(docs)
	if err != nil {
		return rec, nil, fmt.Errorf("building the index: %w", err)
	}
	err = write(fileIndex, func(w io.Writer) error {
		_, err := seg.(io.WriterTo).WriteTo(w)
		return err
	})
	seg.Close()
	if err != nil {
		return rec, nil, err
	}
	// The term table, for the store's lexicon: a cache, not in SUMS.
	if err := writeTermsFile(dir, termsOfDocs(docs, lengths), sums[fileIndex], "", nil); err != nil {
		return rec, nil, err
	}
	step("wrote " + fileTerms)
	if err := write(fileRecord, func(w io.Writer) error {
		b, err := json.Marshal(rec)
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	}); err != nil {
		return rec, nil, err
	}
	if _, err := writeSynced(filepath.Join(dir, fileSums), func(w io.Writer) error {
		return writeSums(w, sums)
	}); err != nil {
		return rec, nil, err
	}
	step("wrote " + fileSums)
	return rec, sums, nil
}

// analyzeChunk returns the bleve document of a chunk, analysed, and its
// number of terms.
func analyzeChunk(an analysis.Analyzer, id, text string) (*document.Document, int) {
	doc := document.NewDocument(id)
	field := document.NewTextFieldCustom(textField, nil, []byte(text), index.IndexField, an)
	doc.AddField(field)
	doc.AddIDField()
	doc.VisitFields(func(f index.Field) {
		if f.Options().IsIndexed() {
			f.Analyze()
		}
	})
	return doc, field.AnalyzedLength()
}

// writeSynced creates path, fills it, syncs and closes it, and returns its
// size and CRC-32C.
func writeSynced(path string, fill func(w io.Writer) error) (fileSum, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fileSum{}, err
	}
	h := crc32.New(castagnoli)
	bw := bufio.NewWriterSize(io.MultiWriter(f, h), 1<<16)
	cw := &countWriter{w: bw}
	err = fill(cw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fileSum{}, err
	}
	return fileSum{size: cw.n, crc: h.Sum32()}, nil
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// syncDir syncs a directory, so that the entries made in it last.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeSums writes SUMS: one line "<crc32c hex> <size> <name>" per file,
// sorted by name, then "end".
func writeSums(w io.Writer, sums map[string]fileSum) error {
	names := make([]string, 0, len(sums))
	for name := range sums {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		s := sums[name]
		if _, err := fmt.Fprintf(w, "%08x %d %s\n", s.crc, s.size, name); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, "end\n")
	return err
}

func readSums(b []byte) (map[string]fileSum, error) {
	sums := map[string]fileSum{}
	lines := strings.Split(string(b), "\n")
	if len(lines) < 2 || lines[len(lines)-1] != "" || lines[len(lines)-2] != "end" {
		return nil, errors.New("SUMS is cut short")
	}
	for _, line := range lines[:len(lines)-2] {
		var s fileSum
		var name string
		if _, err := fmt.Sscanf(line, "%08x %d %s", &s.crc, &s.size, &name); err != nil {
			return nil, fmt.Errorf("SUMS line %q: %v", line, err)
		}
		sums[name] = s
	}
	return sums, nil
}

// A damage is what is wrong with a shard that is there but cannot be
// trusted.
type damage struct{ reason string }

func (d *damage) Error() string { return d.reason }

func damagef(format string, args ...any) error {
	return &damage{reason: fmt.Sprintf(format, args...)}
}

// loadShard reads and checks the record of the shard in dir: SUMS whole,
// filing.json matching its sum and consistent with its name and with the
// sizes of the other files. It takes the record from man, the manifest,
// when an entry there describes this filing.json, else parses it (parsed
// true). It does not read the other files (see verifyScanned and
// handle.details). A shard directory that vanished (replaced meanwhile)
// returns an error satisfying errors.Is(err, fs.ErrNotExist); any other
// fault is a *damage.
func loadShard(dir string, man map[string]manifestEntry) (sh *shard, parsed bool, err error) {
	name := filepath.Base(dir)
	acc, gen, ok := parseShardName(name)
	if !ok {
		return nil, false, damagef("%s is not a shard name", name)
	}
	sb, err := os.ReadFile(filepath.Join(dir, fileSums))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			if _, serr := os.Stat(dir); errors.Is(serr, fs.ErrNotExist) {
				return nil, false, serr
			}
			return nil, false, damagef("%s is missing", fileSums)
		}
		return nil, false, err
	}
	sums, err := readSums(sb)
	if err != nil {
		return nil, false, damagef("%v", err)
	}
	rb, err := os.ReadFile(filepath.Join(dir, fileRecord))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, false, damagef("%s is missing", fileRecord)
		}
		return nil, false, err
	}
	s, ok := sums[fileRecord]
	if !ok || s.size != int64(len(rb)) || s.crc != crc32.Checksum(rb, castagnoli) {
		return nil, false, damagef("%s does not match its sum", fileRecord)
	}
	if e, ok := man[name]; ok && e.RecordSize == s.size && e.RecordCRC == s.crc {
		if sh, err := shardFromManifest(name, dir, gen, e, sums); err == nil && sh.rec.Filing.Accession == acc {
			return sh, false, checkFiles(sh)
		}
	}
	var r record
	if err := json.Unmarshal(rb, &r); err != nil {
		return nil, true, damagef("%s: %v", fileRecord, err)
	}
	rec := &r
	if rec.Format != recordFormat {
		return nil, true, damagef("%s has format %d, not %d", fileRecord, rec.Format, recordFormat)
	}
	if rec.Filing.Accession != acc {
		return nil, true, damagef("%s holds accession %s", fileRecord, rec.Filing.Accession)
	}
	if _, err := checkTable(rec); err != nil {
		return nil, true, err
	}
	sh = newShard(name, dir, gen, r, sums)
	return sh, true, checkFiles(sh)
}

// checkFiles checks that SUMS lists the files the shard's record calls
// for, with the sizes it calls for, and that the files have those sizes.
func checkFiles(sh *shard) error {
	want := map[string]int64{fileRecord: sh.sums[fileRecord].size, fileText: sh.textSize, fileIndex: -1}
	if sh.rec.Meta.Dim > 0 {
		want[fileVectors] = int64(sh.rec.Filing.Chunks) * int64(sh.rec.Meta.Dim) * 4
	}
	if len(sh.sums) != len(want) {
		return damagef("%s lists %d files, not %d", fileSums, len(sh.sums), len(want))
	}
	for name, size := range want {
		s, ok := sh.sums[name]
		if !ok || (size >= 0 && s.size != size) {
			return damagef("%s does not list %s as expected", fileSums, name)
		}
		fi, err := os.Stat(filepath.Join(sh.dir, name))
		if err != nil {
			return damagef("%s: %v", name, err)
		}
		if fi.Size() != s.size {
			return damagef("%s has %d bytes, not %d", name, fi.Size(), s.size)
		}
	}
	return nil
}

// checkTable checks a record's chunk table against its filing and itself,
// and returns the size of the texts it places.
func checkTable(rec *record) (int64, error) {
	if rec.Filing.Chunks != len(rec.Chunks) || rec.Meta.Dim < 0 {
		return 0, damagef("%s is inconsistent", fileRecord)
	}
	ids := make(map[string]bool, len(rec.Chunks))
	var off, length int64
	for i, c := range rec.Chunks {
		if c.Off != off || c.Size < 0 || c.Len < 0 {
			return 0, damagef("%s: chunk %d has a bad text place", fileRecord, i)
		}
		off += int64(c.Size)
		length += int64(c.Len)
		ids[c.ID] = true
	}
	if length != rec.Length || len(ids) != len(rec.Chunks) {
		return 0, damagef("%s is inconsistent", fileRecord)
	}
	return off, nil
}

// verifyScanned checks the sums of the data files a query scans: not
// text.bin, which is checked when the texts are read (see
// handle.details). It is 60% of a filing's bytes, and a query of common
// terms at 10 million chunks opens thousands of filings to score them.
func verifyScanned(sh *shard) error {
	return verifyFiles(sh, fileVectors, fileIndex)
}

// verifyFiles checks the sums of the named files of a shard (those SUMS
// lists).
func verifyFiles(sh *shard, names ...string) error {
	for _, name := range names {
		s, ok := sh.sums[name]
		if !ok {
			continue
		}
		f, err := os.Open(filepath.Join(sh.dir, name))
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return err
			}
			return damagef("%s: %v", name, err)
		}
		n, sum, err := fileSumOf(f)
		f.Close()
		if err != nil {
			return damagef("%s: %v", name, err)
		}
		if n != s.size || sum != s.crc {
			return damagef("%s does not match its sum", name)
		}
	}
	return nil
}

// fileSumOf returns the size and CRC-32C of an open file, read in pieces
// of a megabyte: a query of common terms at 10 million chunks checks
// thousands of half-megabyte segments, and one read each costs about a
// quarter less than io.Copy's 32 KB pieces (measured: 130 against 170 µs
// a segment).
func fileSumOf(f *os.File) (int64, uint32, error) {
	bp := sumBuffers.Get().(*[]byte)
	defer sumBuffers.Put(bp)
	buf := *bp
	var n int64
	var sum uint32
	for {
		m, err := f.Read(buf)
		n += int64(m)
		sum = crc32.Update(sum, castagnoli, buf[:m])
		if err == io.EOF {
			return n, sum, nil
		}
		if err != nil {
			return n, sum, err
		}
	}
}

var sumBuffers = sync.Pool{New: func() any { b := make([]byte, 1<<20); return &b }}

// A handle is an open shard: its segment, its chunk table and its mapped
// texts and vectors.
type handle struct {
	sh      *shard
	tab     table
	seg     segment.Segment
	text    mmap.MMap
	vectors mmap.MMap
	floats  []float32 // vectors as floats, when the machine is little-endian

	// compact is the compact copy of the vectors the kNN scan reads,
	// loaded by the first query that needs it (see Store.compactOf).
	compactOnce sync.Once
	compact     *compact

	// detail is the rest of the chunk table, loaded with the texts (text)
	// by the first query that needs them (see details).
	detailOnce sync.Once
	detail     *tableDetail
	detailErr  error

	// refsDropped counts the holders of a handle the cache dropped (guarded
	// by the cache's mutex); the last release closes it.
	refsDropped int
}

// A table is the part of a shard's chunk table a query scans, in
// columns without pointers per chunk, so that open shards cost the heap
// little and the collector nothing: each chunk's Item, BM25 length and
// vector norm. The rest, what only an answer needs (see tableDetail), is
// read when a chunk of the shard is returned or its ID compared: at 10
// million chunks the open shards' IDs and text places took 100 MB.
type table struct {
	names []string  // the Items, each once
	item  []uint16  // each chunk's Item, in names
	dlen  []int32   // BM25 document length
	norm  []float64 // vector norm; nil when the filing has no vectors
}

func (t *table) len() int { return len(t.dlen) }

func (t *table) itemOf(i int) string { return t.names[t.item[i]] }

// A tableDetail is the rest of a shard's chunk table, in columns.
type tableDetail struct {
	idData []byte   // the chunk IDs one after the other
	idEnd  []uint32 // the end of each in idData
	titles []string // the titles, each once
	title  []uint16 // each chunk's title, in titles
	index  []int32
	tokens []int32
	off    []int64 // text place in text.bin
	size   []int32
}

// id returns chunk i's ID; the bytes must not be changed.
func (t *tableDetail) id(i int) []byte {
	start := uint32(0)
	if i > 0 {
		start = t.idEnd[i-1]
	}
	return t.idData[start:t.idEnd[i]]
}

// namer numbers strings, each once, in names.
func namer(names *[]string) func(string) (uint16, error) {
	seen := map[string]uint16{}
	return func(s string) (uint16, error) {
		if x, ok := seen[s]; ok {
			return x, nil
		}
		if len(*names) >= math.MaxUint16 {
			return 0, damagef("%s names too many Items or titles", fileRecord)
		}
		seen[s] = uint16(len(*names))
		*names = append(*names, s)
		return seen[s], nil
	}
}

// newTable returns the scanned columns of a chunk table.
func newTable(chunks []chunkEntry, vectors bool) (table, error) {
	n := len(chunks)
	t := table{item: make([]uint16, n), dlen: make([]int32, n)}
	if vectors {
		t.norm = make([]float64, n)
	}
	name := namer(&t.names)
	for i, c := range chunks {
		var err error
		if t.item[i], err = name(c.Item); err != nil {
			return t, err
		}
		if c.Len < 0 || c.Len > math.MaxInt32 {
			return t, damagef("%s: chunk %d is out of range", fileRecord, i)
		}
		t.dlen[i] = int32(c.Len)
		if vectors {
			t.norm[i] = c.Norm
		}
	}
	return t, nil
}

// newDetail returns the other columns of a record's chunk table.
func newDetail(chunks []chunkEntry) (*tableDetail, error) {
	n := len(chunks)
	t := &tableDetail{idEnd: make([]uint32, n), title: make([]uint16, n), index: make([]int32, n),
		tokens: make([]int32, n), off: make([]int64, n), size: make([]int32, n)}
	name := namer(&t.titles)
	for i, c := range chunks {
		t.idData = append(t.idData, c.ID...)
		t.idEnd[i] = uint32(len(t.idData))
		var err error
		if t.title[i], err = name(c.Title); err != nil {
			return t, err
		}
		if c.Index > math.MaxInt32 || c.Tokens > math.MaxInt32 || c.Size > math.MaxInt32 || c.Index < 0 {
			return t, damagef("%s: chunk %d is out of range", fileRecord, i)
		}
		t.index[i], t.tokens[i], t.off[i], t.size[i] = int32(c.Index), int32(c.Tokens), c.Off, int32(c.Size)
	}
	return t, nil
}

// readTable reads the scanned part of a shard's chunk table from its
// filing.json, which must still match its sum and the shard's record.
func readTable(sh *shard) (table, error) {
	cs, err := readChunks(sh, false)
	if err != nil {
		return table{}, err
	}
	return newTable(cs, sh.rec.Meta.Dim > 0)
}

// readChunks reads the chunk table of a shard's filing.json, which must
// still match its sum and the shard's record: by scanRecord when that
// reads it (with full, every field, checked as checkTable checks them;
// else the Items, lengths and norms, and their sum), else with encoding/json
// (decodeRecord).
func readChunks(sh *shard, full bool) ([]chunkEntry, error) {
	rb, err := readRecordBytes(sh)
	if err != nil {
		return nil, err
	}
	if r, ok := scanRecord(rb, full); ok && r.accession == sh.rec.Filing.Accession && r.length == sh.rec.Length &&
		r.chunks == int64(len(r.entries)) && len(r.entries) == sh.rec.Filing.Chunks {
		if full {
			rec := record{Filing: store.Filing{Chunks: int(r.chunks)}, Meta: sh.rec.Meta, Length: r.length, Chunks: r.entries}
			if _, err := checkTable(&rec); err == nil {
				return r.entries, nil
			}
		} else {
			var length int64
			for _, e := range r.entries {
				length += int64(e.Len)
			}
			if length == r.length {
				return r.entries, nil
			}
		}
	}
	r, err := decodeRecord(sh, rb)
	if err != nil {
		return nil, err
	}
	return r.Chunks, nil
}

// readRecordBytes reads a shard's filing.json, which must still match its
// sum.
func readRecordBytes(sh *shard) ([]byte, error) {
	rb, err := os.ReadFile(filepath.Join(sh.dir, fileRecord))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			if _, serr := os.Stat(sh.dir); errors.Is(serr, fs.ErrNotExist) {
				return nil, serr
			}
			return nil, damagef("%s is missing", fileRecord)
		}
		return nil, err
	}
	s := sh.sums[fileRecord]
	if s.size != int64(len(rb)) || s.crc != crc32.Checksum(rb, castagnoli) {
		return nil, damagef("%s does not match its sum", fileRecord)
	}
	return rb, nil
}

// decodeRecord decodes a shard's filing.json, which must match the shard's
// record.
func decodeRecord(sh *shard, rb []byte) (record, error) {
	var r record
	if err := json.Unmarshal(rb, &r); err != nil {
		return record{}, damagef("%s: %v", fileRecord, err)
	}
	if r.Filing.Accession != sh.rec.Filing.Accession || r.Length != sh.rec.Length {
		return record{}, damagef("%s changed", fileRecord)
	}
	if _, err := checkTable(&r); err != nil {
		return record{}, err
	}
	return r, nil
}

// openShard opens a verified shard's files; with whole, it reads the
// rest of the chunk table and the texts too (see handle.details), from
// the one reading of filing.json.
func openShard(sh *shard, whole bool) (_ *handle, err error) {
	h := &handle{sh: sh}
	defer func() {
		if r := recover(); r != nil { // a segment that passed its sum but not zap's reader
			err = damagef("%s: %v", fileIndex, r)
		}
		if err != nil {
			h.close()
		}
	}()
	cs, err := readChunks(sh, whole)
	if err != nil {
		return nil, err
	}
	if h.tab, err = newTable(cs, sh.rec.Meta.Dim > 0); err != nil {
		return nil, err
	}
	if whole {
		if _, err := h.detailsFrom(cs); err != nil {
			return nil, err
		}
	}
	seg, err := zapPlugin.Open(filepath.Join(sh.dir, fileIndex))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, damagef("%s: %v", fileIndex, err)
	}
	h.seg = seg
	if seg.Count() != uint64(h.tab.len()) {
		return nil, damagef("%s holds %d documents, not %d", fileIndex, seg.Count(), h.tab.len())
	}
	if sh.rec.Meta.Dim > 0 {
		if h.vectors, err = mapFile(filepath.Join(sh.dir, fileVectors)); err != nil {
			return nil, err
		}
		h.floats = floatsOf(h.vectors)
	}
	return h, nil
}

// mapFile maps a file into memory, read only; an empty file maps to nil.
func mapFile(path string) (mmap.MMap, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.Size() == 0 {
		return nil, err
	}
	return mmap.Map(f, mmap.RDONLY, 0)
}

func (h *handle) close() {
	if h.seg != nil {
		h.seg.Close()
	}
	if h.text != nil {
		h.text.Unmap()
	}
	if h.vectors != nil {
		h.vectors.Unmap()
	}
	h.compact.close()
}

// details returns the rest of the shard's chunk table, read the first
// time it is asked for; an error is the same for every later call (the
// query that meets it fails; see Store.detailsOf).
func (h *handle) details() (*tableDetail, error) { return h.detailsFrom(nil) }

// detailsFrom is details with the shard's chunk table, when cs is not nil,
// already read whole (see openShard).
func (h *handle) detailsFrom(cs []chunkEntry) (*tableDetail, error) {
	h.detailOnce.Do(func() {
		var err error
		if cs == nil {
			cs, err = readChunks(h.sh, true)
		}
		var d *tableDetail
		if err == nil {
			d, err = newDetail(cs)
		}
		if err == nil {
			err = verifyFiles(h.sh, fileText)
		}
		if err == nil {
			h.text, err = mapFile(filepath.Join(h.sh.dir, fileText))
		}
		h.detail, h.detailErr = d, err
		if err != nil {
			h.detail = nil
		}
	})
	return h.detail, h.detailErr
}

// id returns chunk i's ID, nil when the table's detail cannot be read
// (the query then fails when it asks for the chunks; see details).
func (h *handle) id(i int) []byte {
	d, err := h.details()
	if err != nil {
		return nil
	}
	return d.id(i)
}

// chunk returns the i-th chunk of the shard, its detail d being the
// shard's (details).
func (h *handle) chunk(d *tableDetail, i int) store.Chunk {
	return store.Chunk{
		ID:        string(d.id(i)),
		Accession: h.sh.rec.Filing.Accession,
		Item:      h.tab.itemOf(i),
		ItemTitle: d.titles[d.title[i]],
		Index:     int(d.index[i]),
		Tokens:    int(d.tokens[i]),
		Text:      string(h.text[d.off[i] : d.off[i]+int64(d.size[i])]),
	}
}

// vector returns the i-th chunk's vector: a view of the mapped file on a
// little-endian machine, a decoded copy otherwise.
func (h *handle) vector(i int, buf []float32) []float32 {
	dim := h.sh.rec.Meta.Dim
	if h.floats != nil {
		return h.floats[i*dim : (i+1)*dim]
	}
	b := h.vectors[4*i*dim:]
	for j := range buf[:dim] {
		buf[j] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*j:]))
	}
	return buf[:dim]
}

// littleEndian reports whether the machine stores numbers little-endian,
// as vectors.f32 does.
var littleEndian = func() bool {
	var b [4]byte
	binary.NativeEndian.PutUint32(b[:], 1)
	return bytes.Equal(b[:], []byte{1, 0, 0, 0})
}()

// floatsOf returns the mapped vectors as float32s without copying, or nil
// when the machine is not little-endian or the mapping not aligned.
func floatsOf(b []byte) []float32 {
	if !littleEndian || len(b) == 0 || len(b)%4 != 0 || uintptr(unsafe.Pointer(&b[0]))%4 != 0 {
		return nil
	}
	return unsafe.Slice((*float32)(unsafe.Pointer(&b[0])), len(b)/4)
}
