// Package embedded is the filing search's default [store.Store]: a
// directory on the local disk, no server.
//
// Each filing is a shard of its own (its chunk table, texts, vectors and a
// bleve zap segment of its English-analysed text), written in a temporary
// directory and renamed into place when complete, so a filing is searchable
// whole or not at all, also after a crash. Putting an accession again
// writes a new shard and then removes the old one.
//
// # Scale
//
// In memory the store keeps, per filing, what decides whether a query
// needs it (the filing's ticker, CIK, form, fiscal year, filing date, its
// BM25 length) and a 32-bit print of each chunk ID's hash. When a shard is
// opened the store reads, in columns, what a query scans of its chunk
// table (each chunk's Item, length and vector norm), and keeps it while
// the shard stays open (see [OpenShards]). The rest (the chunk IDs,
// titles and places of the texts) and the texts themselves, checked
// against their sum, are read with it while every filing of the store
// fits in the cache (a million chunks by default), else when one of its
// chunks is among an answer or tied with its last. A query opens only the shards of the filings
// visible on its asOf, and BM25 needs no shard to count its statistics:
// each shard holds a term table (every term of its segment with its
// document frequency, its largest frequency in a chunk and the smallest
// length of a chunk holding it at each frequency up to six), written by
// Put with the shard's other files, and the store's lexicon merges the
// tables of up to 256 filings into each of its segments (a sorted term
// dictionary, then per term the list of filings holding it with those
// figures). A query looks its terms up in every lexicon segment, sums the
// document frequencies of the visible filings, and gets from the same
// entries every filing's bound on its chunks' BM25 scores under the
// query's statistics. The lexicon is a cache, checked as the manifest is
// (see lexicon.go): its segments name their filings by shard, so the
// entries of a filing put again no longer count; a segment that fails its
// CRC-32C is removed and made again, and a filing no segment covers yet
// (the last Puts, fewer than 256, until Close merges them) has its
// statistics read from its own segment's dictionary, remembered for its
// last 64 query terms. Put merges a new lexicon segment once 256 filings
// lack one, Close merges the rest, and segments left with few live
// filings are merged again. The filings that pass the filter and hold a
// query term are scored highest bound first, and those whose bound is
// below the k-th score kept are not opened. A filing scored also
// remembers its query terms' postings, decoded (4 bytes a posting, within
// a budget for the store), so that the next query with those terms
// scores it without reading its segment, opening it only if one of its
// chunks is among the answers; within such a filing, the terms whose
// bounds together stay below the k-th score cannot lift a chunk to it
// alone, and only the chunks holding another term are scored. kNN reads
// only the shards that pass the filter.
// Shards are read and scored on every CPU; the filings set aside by their
// bounds are taken highest bound first by every CPU, sharing the k-th
// score the best of them keeps, and each is closed again once scored
// unless the open-shard cache keeps it. At 10 million chunks (25,000
// filings) a query holds about 210 MB of heap (365 MB at the peak). A
// manifest file caches the
// filings' records so that Open does not parse every shard's record; it
// is checked against each record's sum, so a stale one costs only time.
// A store written before the manifest existed is migrated on Open, which
// reports its progress through [Progress]; a store written before the term
// tables existed has them made from its segments by Open with [Progress]
// (the stage [StageLexicon], reading every segment once), and the lexicon
// merged; opened without Progress it answers the same, reading the
// dictionaries of the filings that lack a table.
//
// # Point-in-time BM25
//
// A lexical query scores with BM25 (k1 1.2, b 0.75, Lucene's form
// idf·tf/(tf + k1·(1 − b + b·dl/avgdl)), idf = ln(1 + (N − df + 0.5)/(df + 0.5)))
// where N, df and avgdl count the chunks of the filings visible on the
// query's asOf and no others: document frequencies are summed over the
// visible shards' entries in the lexicon (or their segments, for a shard
// no lexicon segment covers), lengths and counts over their records.
// A filing made after asOf therefore changes neither the chunks a query
// returns nor their scores. (bleve's own BM25 over an index alias with
// global scoring sums document counts across the alias but takes document
// frequencies from each index alone, and estimates the average length
// from term-dictionary sizes; its scores would depend on how chunks are
// split among indexes, so the store computes BM25 itself from bleve's
// analysed postings.) Filters other than asOf narrow the chunks returned,
// not the statistics.
//
// A chunk is scored by [store.LexicalText]: its filing's company name,
// its Item title and its text. That is analysed by bleve's "en"
// analyzer: Unicode word tokens, possessives removed, lower case, English
// stop words dropped, Porter stemming. Each distinct term of a query
// counts once.
//
// # Vectors
//
// Nearest is exact: its answer is the cosine similarity of the query
// vector to every visible chunk's vector, in float64 from the float32
// vectors of the shards' memory-mapped files. To get it without reading
// every vector, a shard keeps beside its vectors a compact copy (one byte
// per component, a scale and a bound of the rounding error per vector);
// the query scans the copies on every CPU (with AVX-512 VNNI or AVX2 when
// the CPU has them) and scores exactly only the chunks whose estimate, with
// its bound, can reach the k-th best score kept. The copy is a cache,
// written beside the shard's files for the next process. Open with
// [Progress] makes the copies the filings lack (a store written by an
// earlier release has none) or whose size or header does not match their
// vectors, and reports it as the stage [StageCompact]: at a million chunks
// that takes about 10 s of CPU, once. Open without Progress stays quick,
// and the first kNN query that needs a missing copy makes it, without a
// word; so does any query that finds one damaged later (its CRC is checked
// when a process first maps it).
//
// # Damage
//
// Every shard carries the sizes and CRC-32C sums of its files. A shard
// that fails them (on Open for its record, on first use for its data) is
// moved to the quarantine directory, is no longer listed by
// [Store.Filings], is reported by [Store.Damaged], and the query that
// found it fails with a [*DamagedError]: index the filing again.
// [Store.Check] reads every shard in full at once. A process checks the
// data a query scans (the index, the vectors) the first time it uses a
// shard, and its texts each time it opens the shard for a chunk to answer
// (or in Check).
//
// Several processes may use one directory: writes are serialised by a
// lock file, and every call sees the filings other processes committed
// before it began.
package embedded

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/registry"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/search/store"
)

// Directories and files of a store.
const (
	dirFilings    = "filings"    // committed shards
	dirTemp       = "tmp"        // shards being built
	dirQuarantine = "quarantine" // damaged shards set aside
	fileStore     = "store.json" // the embedder of the store
	fileLock      = "write.lock" // serialises writers across processes
	fileReason    = "REASON"     // why a quarantined shard was set aside

	storeFormat = 1
)

// DefaultOpenShards is the number of shards a [Store] keeps open unless
// [OpenShards] says otherwise, or half the process's limit of open files
// when that is lower (at least 64): every filing of a store of a million
// chunks (2,500 filings of 400 chunks), at one file descriptor, three
// memory mappings and about 60 bytes of heap per chunk each.
const DefaultOpenShards = 4096

// defaultPostingsMemory is how many bytes of decoded postings the
// shards of a Store remember for the terms of recent queries (4 bytes a
// posting, and 2 a chunk for its length): a query whose terms' postings a
// filing remembers scores it without reading its segment.
const defaultPostingsMemory = 128 << 20

// defaultOpenShards returns DefaultOpenShards within half of limit, the
// limit of open files (0: unknown).
func defaultOpenShards(limit uint64) int {
	if limit == 0 || limit/2 >= DefaultOpenShards {
		return DefaultOpenShards
	}
	return max(64, int(limit/2))
}

// A Store is the embedded store of the filing search, in one directory.
// It is safe for concurrent use.
type Store struct {
	dir   string
	an    analysis.Analyzer
	cache *cache
	view  atomic.Pointer[view]
	seen  atomic.Pointer[seenNames] // see current

	mu     sync.Mutex   // serialises changes of the view and writes
	closed sync.RWMutex // held for reading by every call, for writing by Close
	isShut bool

	// step, when set, is called at each step of a Put (crash tests).
	step func(string)

	// dictReads counts the shard dictionaries queries read (tests).
	dictReads atomic.Int64
	// pruned counts the shards BM25 queries did not score because their
	// bound could not reach the k-th score; noPrune scores every shard,
	// and boundFault, when set, replaces each shard's bound (tests).
	pruned  atomic.Int64
	noPrune bool
	// lexQueries counts the BM25 queries that took statistics from the
	// lexicon (tests).
	lexQueries atomic.Int64
	boundFault func(float64) float64

	// knnExact counts the chunks kNN queries scored exactly, compactMade
	// the compact vector files made from a shard's vectors; noCompact
	// scores every chunk exactly, and knnBoundFault, when set, replaces
	// the bound of each estimated cosine and quantFault changes each
	// vector's compact copy as it is made (tests).
	knnExact      atomic.Int64
	compactMade   atomic.Int64
	noCompact     bool
	knnBoundFault func(float64) float64
	quantFault    func(code []byte, alpha, beta *float32)

	// termIDs numbers the terms of queries for the shards' memos.
	termIDs termIDs
	// posts bounds the decoded postings the shards remember. It is a
	// pointer of its own: the shards' cleanups refer to it, not to the
	// Store.
	posts *postBudget

	// man is the manifest as Open read it, while Open reads the shards;
	// manDirty says that the view holds shards the manifest lacks. Both are
	// guarded by mu.
	man      map[string]manifestEntry
	manDirty bool
	progress func(OpenProgress) // during Open only

	// lex is the store's lexicon (see lexicon.go); sinceLex counts the
	// Puts since a Put last merged lexicon segments (guarded by mu).
	lex      lexicon
	sinceLex int
}

// A view is the store's filings at one moment. It does not change.
type view struct {
	shards []*shard          // sorted by CIK (as a number), filing date, accession
	byAcc  map[string]*shard // the same by accession
	meta   store.Meta
}

// An Option configures [Open].
type Option func(*options)

type options struct {
	openShards int
	progress   func(OpenProgress)
}

// OpenShards sets how many filings' shards the store keeps open between
// queries (default [DefaultOpenShards]); each costs a file descriptor and
// memory mappings. A query over more filings opens the rest for its
// duration.
func OpenShards(n int) Option {
	return func(o *options) {
		if n > 0 {
			o.openShards = n
		}
	}
}

// A DamagedError reports a filing whose stored shard failed its checks. The
// shard was set aside; the filing must be indexed again.
type DamagedError struct {
	Accession string
	Reason    string
}

// Error names the filing and what is wrong.
func (e *DamagedError) Error() string {
	return fmt.Sprintf("edgar13f/search: the stored index of filing %s is damaged (%s) and was set aside: index the filing again", e.Accession, e.Reason)
}

// A Damage is a filing's shard set aside by the store, as [Store.Damaged]
// lists it.
type Damage struct {
	Accession string
	Path      string // the quarantined directory
	Reason    string
}

// ErrClosed is returned by calls on a closed [Store].
var ErrClosed = errors.New("edgar13f/search: the store is closed")

// Open opens the store in dir, creating it if needed. It removes what an
// interrupted Put left behind and sets aside damaged shards (see
// [Store.Damaged]). With [Progress] it also makes the one-byte copies of
// the vectors the filings lack (see the package doc, Vectors) and their
// BM25 term tables, merged into the store's lexicon (see Scale).
func Open(dir string, opts ...Option) (*Store, error) {
	o := options{openShards: defaultOpenShards(openFileLimit())}
	for _, opt := range opts {
		opt(&o)
	}
	if dir == "" {
		return nil, errors.New("edgar13f/search: empty store directory")
	}
	for _, d := range []string{dir, filepath.Join(dir, dirFilings), filepath.Join(dir, dirTemp), filepath.Join(dir, dirQuarantine)} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, fmt.Errorf("edgar13f/search: %w", err)
		}
	}
	an, err := registry.NewCache().AnalyzerNamed(en.AnalyzerName)
	if err != nil {
		return nil, fmt.Errorf("edgar13f/search: %w", err)
	}
	s := &Store{dir: dir, an: an, cache: newCache(o.openShards), progress: o.progress}
	s.posts = &postBudget{limit: defaultPostingsMemory}
	s.view.Store(&view{byAcc: map[string]*shard{}})
	err = s.locked(func() error {
		if err := s.sweep(); err != nil {
			return err
		}
		s.man = readManifest(s.path(fileManifest))
		v, err := s.reloadLocked(true)
		// The loaded shards share what they keep of the manifest's
		// entries; the rest is not needed again.
		s.progress, s.man = nil, nil
		if err != nil || !s.manDirty {
			return err
		}
		if err := s.writeManifest(v.shards); err != nil {
			return err
		}
		s.manDirty = false
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("edgar13f/search: opening the store in %s: %w", dir, err)
	}
	if o.progress != nil {
		v := s.view.Load()
		s.makeCompacts(v, o.progress)
		s.makeTerms(v, o.progress)
		// The lexicon is a cache: a failure to write it costs only time.
		_ = s.locked(func() error { return s.buildLexicon(v, true) })
	}
	return s, nil
}

func (s *Store) path(elem ...string) string {
	return filepath.Join(append([]string{s.dir}, elem...)...)
}

// locked runs f holding the store's mutex and the directory's write lock.
func (s *Store) locked(f func() error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	lf, err := os.OpenFile(s.path(fileLock), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	defer lf.Close()
	if err := lockFile(lf); err != nil {
		return err
	}
	defer unlockFile(lf)
	return f()
}

// sweep removes the temporary directories of Puts that no live process is
// running, and shards replaced by a newer generation. The write lock is
// held.
func (s *Store) sweep() error {
	entries, err := os.ReadDir(s.path(dirTemp))
	if err != nil {
		return err
	}
	locks := map[string]bool{}
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".lock"); ok {
			locks[name] = true
		}
	}
	for _, e := range entries {
		name := e.Name()
		if strings.HasSuffix(name, ".lock") {
			continue
		}
		if !locks[name] {
			// Its lock file is gone, so its builder is.
			if err := os.RemoveAll(s.path(dirTemp, name)); err != nil {
				return err
			}
		}
	}
	for name := range locks {
		lp := s.path(dirTemp, name+".lock")
		lf, err := os.OpenFile(lp, os.O_RDWR, 0)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return err
		}
		free, err := tryLockFile(lf)
		if err == nil && free {
			// No process builds there: the Put was interrupted.
			err = os.RemoveAll(s.path(dirTemp, name))
			if err == nil {
				err = os.Remove(lp)
			}
			unlockFile(lf)
		}
		lf.Close()
		if err != nil {
			return err
		}
	}
	// Generations below the newest of an accession were replaced by a Put
	// interrupted before it removed them.
	best, err := s.listFilings()
	if err != nil {
		return err
	}
	entries, err = os.ReadDir(s.path(dirFilings))
	if err != nil {
		return err
	}
	for _, e := range entries {
		acc, gen, ok := parseShardName(e.Name())
		if ok && gen < best[acc] {
			if err := os.RemoveAll(s.path(dirFilings, e.Name())); err != nil {
				return err
			}
		}
	}
	return syncDir(s.path(dirFilings))
}

// listFilings returns the newest generation of each accession in filings/.
func (s *Store) listFilings() (map[string]int, error) {
	names, err := s.filingNames()
	if err != nil {
		return nil, err
	}
	return bestGenerations(names), nil
}

// filingNames lists filings/. Every call does, so it reads the names
// alone, in the directory's order.
func (s *Store) filingNames() ([]string, error) {
	d, err := os.Open(s.path(dirFilings))
	if err != nil {
		return nil, err
	}
	names, err := d.Readdirnames(-1)
	d.Close()
	return names, err
}

// bestGenerations returns the newest generation of each accession among
// the names of filings/.
func bestGenerations(names []string) map[string]int {
	best := make(map[string]int, len(names))
	for _, name := range names {
		if acc, gen, ok := parseShardName(name); ok && gen > best[acc] {
			best[acc] = gen
		}
	}
	return best
}

// current returns the view of the filings committed so far, reloading it
// when another process (or a replacement) changed the directory.
//
// The names filings/ held when they last matched a view are kept: when the
// directory lists the same names in the same order and that view is still
// the store's, it is current without parsing the names again.
func (s *Store) current() (*view, error) {
	names, err := s.filingNames()
	if err != nil {
		return nil, err
	}
	v := s.view.Load()
	if seen := s.seen.Load(); seen != nil && seen.v == v && slices.Equal(seen.names, names) {
		return v, nil
	}
	if sameFilings(v, bestGenerations(names)) {
		s.seen.Store(&seenNames{names: names, v: v})
		return v, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reloadLocked(false)
}

// seenNames is what filings/ listed when it matched the view v.
type seenNames struct {
	names []string
	v     *view
}

func sameFilings(v *view, best map[string]int) bool {
	if len(best) != len(v.byAcc) {
		return false
	}
	for acc, gen := range best {
		if sh, ok := v.byAcc[acc]; !ok || sh.gen != gen {
			return false
		}
	}
	return true
}

// reloadLocked makes the view match the directory: it keeps the shards it
// has, loads new ones and sets aside the damaged. s.mu is held; writeLocked
// says whether the write lock is too.
func (s *Store) reloadLocked(writeLocked bool) (*view, error) {
	for attempt := 0; ; attempt++ {
		best, err := s.listFilings()
		if err != nil {
			return nil, err
		}
		old := s.view.Load()
		if sameFilings(old, best) && attempt > 0 {
			return old, nil
		}
		meta, metaErr := s.readStoreMeta()
		var shards []*shard
		var damaged []*damagedShard
		gone := false
		progress := OpenProgress{Total: len(best)}
		every := max(1, len(best)/100)
		for acc, gen := range best {
			if s.progress != nil && progress.Done > 0 && progress.Done%every == 0 {
				s.progress(progress)
			}
			progress.Done++
			if sh, ok := old.byAcc[acc]; ok && sh.gen == gen {
				shards = append(shards, sh)
				continue
			}
			dir := s.path(dirFilings, shardName(acc, gen))
			sh, parsed, err := loadShard(dir, s.man)
			if parsed {
				progress.Read++
				s.manDirty = true
			}
			var d *damage
			switch {
			case err == nil:
				shards = append(shards, sh)
			case errors.As(err, &d):
				damaged = append(damaged, &damagedShard{name: shardName(acc, gen), acc: acc, reason: d.reason})
			case errors.Is(err, fs.ErrNotExist):
				gone = true // replaced meanwhile: list again
			default:
				return nil, err
			}
		}
		if s.progress != nil {
			s.progress(progress)
		}
		if gone && attempt < 3 {
			continue
		}
		if metaErr != nil && len(shards) > 0 {
			// store.json is unreadable: the shards record the embedder.
			meta = shards[0].rec.Meta
		}
		var kept []*shard
		for _, sh := range shards {
			if sh.rec.Meta != meta {
				damaged = append(damaged, &damagedShard{name: sh.name, acc: sh.rec.Filing.Accession,
					reason: fmt.Sprintf("its embedder %v is not the store's %v", sh.rec.Meta, meta)})
				continue
			}
			kept = append(kept, sh)
		}
		if len(damaged) > 0 {
			set := func() error {
				for _, d := range damaged {
					err := s.quarantineLocked(d.name, d.reason)
					if errors.Is(err, errVanished) {
						gone = true
					} else if err != nil {
						return err
					}
				}
				return nil
			}
			if writeLocked {
				err = set()
			} else {
				err = s.withWriteLock(set)
			}
			if err != nil {
				return nil, err
			}
			if gone && attempt < 3 {
				continue
			}
		}
		if metaErr != nil && len(kept) > 0 {
			write := func() error { return s.writeStoreMeta(meta) }
			if writeLocked {
				err = write()
			} else {
				err = s.withWriteLock(write)
			}
			if err != nil {
				return nil, err
			}
		}
		nv := newView(kept, meta)
		s.view.Store(nv)
		return nv, nil
	}
}

type damagedShard struct{ name, acc, reason string }

// withWriteLock runs f holding the directory's write lock; s.mu is held.
func (s *Store) withWriteLock(f func() error) error {
	lf, err := os.OpenFile(s.path(fileLock), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	defer lf.Close()
	if err := lockFile(lf); err != nil {
		return err
	}
	defer unlockFile(lf)
	return f()
}

func newView(shards []*shard, meta store.Meta) *view {
	slices.SortFunc(shards, func(a, b *shard) int {
		fa, fb := &a.rec.Filing, &b.rec.Filing
		return cmp.Or(compareCIK(fa.CIK, fb.CIK), fa.FilingDate.Compare(fb.FilingDate), strings.Compare(fa.Accession, fb.Accession))
	})
	v := &view{shards: shards, byAcc: make(map[string]*shard, len(shards)), meta: meta}
	for _, sh := range shards {
		v.byAcc[sh.rec.Filing.Accession] = sh
	}
	return v
}

// compareCIK orders CIKs as numbers (they have no leading zeros).
func compareCIK(a, b string) int {
	return cmp.Or(cmp.Compare(len(a), len(b)), strings.Compare(a, b))
}

// errVanished reports a shard found damaged that was in fact being
// removed (replaced by a newer generation) while it was read: the caller
// looks at the directory again.
var errVanished = fmt.Errorf("shard replaced while read: %w", fs.ErrNotExist)

// quarantineLocked moves a damaged shard out of filings/ with a note of
// why, or returns errVanished if it is no longer there. The write lock is
// held, so no Put is removing it now.
func (s *Store) quarantineLocked(name, reason string) error {
	src := s.path(dirFilings, name)
	if _, err := os.Stat(src); errors.Is(err, fs.ErrNotExist) {
		return errVanished
	}
	dst := s.path(dirQuarantine, name)
	for i := 2; ; i++ {
		if _, err := os.Stat(dst); errors.Is(err, fs.ErrNotExist) {
			break
		}
		dst = s.path(dirQuarantine, fmt.Sprintf("%s-%d", name, i))
	}
	if err := os.Rename(src, dst); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dst, fileReason), []byte(reason+"\n"), 0o600); err != nil {
		return err
	}
	if err := syncDir(s.path(dirQuarantine)); err != nil {
		return err
	}
	s.cache.drop(src)
	return syncDir(s.path(dirFilings))
}

// storeRecord is the content of store.json.
type storeRecord struct {
	Format int    `json:"format"`
	Model  string `json:"model"`
	Dim    int    `json:"dim"`
}

func (s *Store) readStoreMeta() (store.Meta, error) {
	b, err := os.ReadFile(s.path(fileStore))
	if errors.Is(err, fs.ErrNotExist) {
		return store.Meta{}, nil
	}
	if err != nil {
		return store.Meta{}, err
	}
	var r storeRecord
	if err := json.Unmarshal(b, &r); err != nil || r.Format != storeFormat {
		return store.Meta{}, fmt.Errorf("%s is damaged", fileStore)
	}
	return store.Meta{Model: r.Model, Dim: r.Dim}, nil
}

// writeStoreMeta replaces store.json atomically. The write lock is held.
func (s *Store) writeStoreMeta(m store.Meta) error {
	tmp := s.path(dirTemp, fileStore+"."+randomToken())
	_, err := writeSynced(tmp, func(w io.Writer) error {
		return json.NewEncoder(w).Encode(storeRecord{Format: storeFormat, Model: m.Model, Dim: m.Dim})
	})
	if err == nil {
		err = os.Rename(tmp, s.path(fileStore))
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return syncDir(s.dir)
}

func randomToken() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// enter marks the start of a call; it fails once the store is closed.
func (s *Store) enter() error {
	s.closed.RLock()
	if s.isShut {
		s.closed.RUnlock()
		return ErrClosed
	}
	return nil
}

func (s *Store) leave() { s.closed.RUnlock() }

// Close closes the store's open shards, after writing the manifest if it
// lacks filings this Store put or loaded. Calls after Close fail with
// [ErrClosed].
func (s *Store) Close() error {
	s.closed.Lock()
	defer s.closed.Unlock()
	if s.isShut {
		return nil
	}
	s.isShut = true
	s.cache.close()
	return s.locked(func() error {
		// The lexicon is a cache: a failure to write it costs only time.
		_ = s.buildLexicon(s.view.Load(), true)
		if !s.manDirty {
			return nil
		}
		s.manDirty = false
		if err := s.writeManifest(s.view.Load().shards); err != nil {
			return fmt.Errorf("edgar13f/search: writing the manifest of the store in %s: %w", s.dir, err)
		}
		return nil
	})
}

// Meta returns the embedder of the store's vectors, or the zero Meta when
// it holds no filing or no vectors.
func (s *Store) Meta(ctx context.Context) (store.Meta, error) {
	if err := s.enter(); err != nil {
		return store.Meta{}, err
	}
	defer s.leave()
	v, err := s.current()
	if err != nil || len(v.shards) == 0 {
		return store.Meta{}, err
	}
	return v.meta, nil
}

// Filings returns the filings with FilingDate on or before asOf, sorted by
// CIK (as a number), filing date and accession.
func (s *Store) Filings(ctx context.Context, asOf edgar13f.Date) ([]store.Filing, error) {
	if err := s.enter(); err != nil {
		return nil, err
	}
	defer s.leave()
	v, err := s.current()
	if err != nil {
		return nil, err
	}
	var out []store.Filing
	for _, sh := range v.shards {
		if !asOf.Before(sh.rec.Filing.FilingDate) {
			out = append(out, sh.rec.Filing)
		}
	}
	return out, nil
}

// Damaged lists the filings whose shards were set aside as damaged, by
// this process or another, and not indexed again since.
func (s *Store) Damaged() ([]Damage, error) {
	entries, err := os.ReadDir(s.path(dirQuarantine))
	if err != nil {
		return nil, err
	}
	var out []Damage
	for _, e := range entries {
		acc, _, _ := strings.Cut(e.Name(), ".")
		if !validAccession(acc) {
			continue
		}
		reason, _ := os.ReadFile(s.path(dirQuarantine, e.Name(), fileReason))
		out = append(out, Damage{Accession: acc, Path: s.path(dirQuarantine, e.Name()), Reason: strings.TrimSpace(string(reason))})
	}
	return out, nil
}

// Check reads every stored shard in full and checks it against its sums,
// as a query does the first time it uses a shard. The damaged ones are set
// aside (see [Store.Damaged]) and reported as [*DamagedError]s, joined.
func (s *Store) Check(ctx context.Context) error {
	if err := s.enter(); err != nil {
		return err
	}
	defer s.leave()
	v, err := s.current()
	if err != nil {
		return err
	}
	var errs []error
	for _, sh := range v.shards {
		if err := ctx.Err(); err != nil {
			return err
		}
		// The texts are checked by openShard, with the rest of the table.
		err := verifyScanned(sh)
		if err == nil {
			var h *handle
			if h, err = openShard(sh, true); err == nil {
				h.close()
			}
		}
		var d *damage
		switch {
		case err == nil:
		case errors.As(err, &d):
			qerr := s.locked(func() error { return s.quarantineLocked(sh.name, d.reason) })
			if errors.Is(qerr, errVanished) {
				continue // replaced meanwhile
			}
			if qerr != nil {
				return qerr
			}
			errs = append(errs, &DamagedError{Accession: sh.rec.Filing.Accession, Reason: d.reason})
		case errors.Is(err, fs.ErrNotExist):
			// Replaced meanwhile.
		default:
			return err
		}
	}
	return errors.Join(errs...)
}

// Put stores a filing's chunks (and vectors), replacing what the store
// held for its accession; see [store.Store.Put].
func (s *Store) Put(ctx context.Context, f store.Filing, chunks []store.Chunk, vectors [][]float32, meta store.Meta) error {
	if err := s.enter(); err != nil {
		return err
	}
	defer s.leave()
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := checkPut(f, chunks, vectors, meta); err != nil {
		return err
	}
	// Refuse early a Put that cannot fit; it is checked again when it
	// commits.
	v, err := s.current()
	if err != nil {
		return err
	}
	if err := store.Compatible(v.meta, meta, len(v.shards) == 0); err != nil {
		return err
	}

	token, lf, err := s.tempLock()
	if err != nil {
		return fmt.Errorf("edgar13f/search: %w", err)
	}
	defer func() {
		os.Remove(lf.Name())
		unlockFile(lf)
		lf.Close()
	}()
	tmp := s.path(dirTemp, token)
	if err := os.Mkdir(tmp, 0o700); err != nil {
		return fmt.Errorf("edgar13f/search: %w", err)
	}
	defer os.RemoveAll(tmp) // nothing left there once committed
	s.hook("built tmp dir")
	rec, sums, err := buildShard(tmp, f, chunks, vectors, meta, s.an, s.hook)
	if err != nil {
		return fmt.Errorf("edgar13f/search: writing filing %s: %w", f.Accession, err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.locked(func() error { return s.commitLocked(tmp, rec, sums) })
}

// writeViaTemp writes b to path, a cache file of a committed shard,
// through a temporary file in tmpDir (the store's tmp/, which Open sweeps,
// so a process killed while writing leaves nothing in the shard) renamed
// into place, so that a reader sees all of it or none. hook gets step
// once the temporary file is written (the crash tests stop there).
func writeViaTemp(tmpDir, path string, b []byte, hook func(string), step string) error {
	f, err := os.CreateTemp(tmpDir, filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		hook(step)
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// tempLock creates and locks tmp/<token>.lock, which tells Open in other
// processes that tmp/<token> is being built. A lock file that a sweep
// removed between its creation and its lock is not ours to use: try again.
func (s *Store) tempLock() (string, *os.File, error) {
	for {
		token := randomToken()
		path := s.path(dirTemp, token+".lock")
		lf, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return "", nil, err
		}
		if err := lockFile(lf); err != nil {
			lf.Close()
			return "", nil, err
		}
		held, err1 := lf.Stat()
		named, err2 := os.Stat(path)
		if err1 == nil && err2 == nil && os.SameFile(held, named) {
			return token, lf, nil
		}
		unlockFile(lf)
		lf.Close()
	}
}

func (s *Store) hook(step string) {
	if s.step != nil {
		s.step(step)
	}
}

// commitLocked renames a built shard into filings/ as the newest
// generation of its accession and removes the older ones. s.mu and the
// write lock are held.
func (s *Store) commitLocked(tmp string, rec record, sums map[string]fileSum) error {
	acc := rec.Filing.Accession
	best, err := s.listFilings()
	if err != nil {
		return err
	}
	stored, err := s.readStoreMeta()
	if err != nil && len(best) > 0 {
		stored = s.view.Load().meta
	}
	if err := store.Compatible(stored, rec.Meta, len(best) == 0); err != nil {
		return err
	}
	if len(best) == 0 {
		if err := s.writeStoreMeta(rec.Meta); err != nil {
			return err
		}
		s.hook("wrote " + fileStore)
	}
	gen := best[acc] + 1
	name := shardName(acc, gen)
	dst := s.path(dirFilings, name)
	if err := os.Rename(tmp, dst); err != nil {
		return err
	}
	if err := syncDir(s.path(dirFilings)); err != nil {
		return err
	}
	s.hook("renamed " + name)
	// The older generations, and any damaged copy set aside, are replaced.
	entries, err := os.ReadDir(s.path(dirFilings))
	if err != nil {
		return err
	}
	for _, e := range entries {
		if a, g, ok := parseShardName(e.Name()); ok && a == acc && g < gen {
			if err := os.RemoveAll(s.path(dirFilings, e.Name())); err != nil {
				return err
			}
			s.cache.drop(s.path(dirFilings, e.Name()))
			s.hook("removed " + e.Name())
		}
	}
	if err := s.clearQuarantine(acc); err != nil {
		return err
	}
	sh := newShard(name, dst, gen, rec, sums)
	s.manDirty = true
	s.cache.markVerified(dst)
	old := s.view.Load()
	shards := make([]*shard, 0, len(old.shards)+1)
	for _, o := range old.shards {
		if o.rec.Filing.Accession != acc {
			shards = append(shards, o)
		}
	}
	meta := old.meta
	if len(best) == 0 {
		meta = rec.Meta
	}
	nv := newView(append(shards, sh), meta)
	s.view.Store(nv)
	if s.sinceLex++; s.sinceLex >= lexGroup {
		// Merge the filings no lexicon segment covers, a cache: a failure
		// costs only time.
		s.sinceLex = 0
		_ = s.buildLexicon(nv, false)
	}
	return nil
}

// clearQuarantine removes the damaged copies of a filing indexed again.
func (s *Store) clearQuarantine(acc string) error {
	entries, err := os.ReadDir(s.path(dirQuarantine))
	if err != nil {
		return err
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), acc+".") {
			if err := os.RemoveAll(s.path(dirQuarantine, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkPut checks a Put's arguments against each other.
func checkPut(f store.Filing, chunks []store.Chunk, vectors [][]float32, meta store.Meta) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("edgar13f/search: Put(%s): %s", f.Accession, fmt.Sprintf(format, args...))
	}
	if !validAccession(f.Accession) {
		return bad("the accession number is not of the form 0000000000-00-000000")
	}
	if f.FilingDate.IsZero() {
		return bad("the filing has no filing date")
	}
	if (meta.Model == "") != (meta.Dim == 0) || meta.Dim < 0 {
		return bad("embedder %q with dimension %d", meta.Model, meta.Dim)
	}
	if meta.Dim == 0 && len(vectors) > 0 {
		return bad("vectors without an embedder")
	}
	if meta.Dim > 0 && len(vectors) != len(chunks) {
		return bad("%d vectors for %d chunks", len(vectors), len(chunks))
	}
	for i, v := range vectors {
		if len(v) != meta.Dim {
			return bad("vector %d has dimension %d, not %d", i, len(v), meta.Dim)
		}
		for _, x := range v {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return bad("vector %d is not finite", i)
			}
		}
	}
	if err := store.ValidateChunks(f.Accession, chunks); err != nil {
		return bad("%v", err)
	}
	return nil
}
