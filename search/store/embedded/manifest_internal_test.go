package embedded

import (
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/search/store"
)

// TestManifestVersion1: a manifest the previous release wrote, with each
// chunk ID's whole hash, still describes every filing (Open reads no
// filing.json) and every chunk is found by its ID; the manifest written
// next keeps the prints.
func TestManifestVersion1(t *testing.T) {
	dir := t.TempDir()
	lexStore(t, dir, 7, 12)

	// Rewrite the manifest as version 1, from the shards' own chunk IDs.
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := manifestFile{Version: 1, Shards: map[string]manifestEntry{}}
	var ids []string
	for _, sh := range s.view.Load().shards {
		cs, err := readChunks(sh, true)
		if err != nil {
			t.Fatal(err)
		}
		tab, err := newDetail(cs)
		if err != nil {
			t.Fatal(err)
		}
		e := sh.manifestEntry()
		e.Prints = nil
		for i := range len(tab.idEnd) {
			id := string(tab.id(i))
			ids = append(ids, id)
			e.IDs = append(e.IDs, idHash(id))
		}
		slices.Sort(e.IDs)
		m.Shards[sh.name] = e
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(m); err != nil {
		t.Fatal(err)
	}
	buf.Write(binary.LittleEndian.AppendUint32(nil, crc32.Checksum(buf.Bytes(), castagnoli)))
	if err := os.WriteFile(filepath.Join(dir, fileManifest), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}

	read := -1
	s, err = Open(dir, Progress(func(p OpenProgress) {
		if p.Stage == StageFilings && p.Done == p.Total {
			read = p.Read
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if read != 0 {
		t.Fatalf("Open read %d filings' records in full; want 0 (the version 1 manifest describes them)", read)
	}
	for _, id := range ids {
		c, _, ok, err := s.Chunk(ctx, id)
		if err != nil || !ok || c.ID != id {
			t.Fatalf("Chunk(%s) = %s, %v, %v", id, c.ID, ok, err)
		}
	}
	if _, _, ok, err := s.Chunk(ctx, "no-such-chunk"); ok || err != nil {
		t.Fatalf("Chunk(no-such-chunk) = %v, %v", ok, err)
	}
	if err := s.writeManifest(s.view.Load().shards); err != nil {
		t.Fatal(err)
	}
	for name, e := range readManifest(filepath.Join(dir, fileManifest)) {
		if e.IDs != nil || len(e.Prints) != e.Filing.Chunks {
			t.Fatalf("%s: the manifest written keeps %d hashes and %d prints for %d chunks", name, len(e.IDs), len(e.Prints), e.Filing.Chunks)
		}
	}
}

// TestLexiconMemoHoldsOnlyPostings: a filing a lexicon segment covers
// takes its terms' frequencies and bounds from the lexicon, so scoring it
// remembers a term only with its postings; with no budget for postings it
// remembers nothing (at 10 million chunks the entries without postings
// held a hundred megabytes of heap).
func TestLexiconMemoHoldsOnlyPostings(t *testing.T) {
	dir := t.TempDir()
	queries := lexStore(t, dir, 3, 40)
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	entries := func() (n, withPosts int) {
		for _, sh := range s.view.Load().shards {
			sh.dfMu.Lock()
			for _, e := range sh.df {
				n++
				if e.post != nil {
					withPosts++
				}
			}
			sh.dfMu.Unlock()
		}
		return n, withPosts
	}
	f := store.Filter{AsOf: edgar13f.MustParseDate("2030-01-01")}
	s.posts.limit = 0
	for _, q := range queries {
		if _, err := s.Lexical(ctx, q, f, 5); err != nil {
			t.Fatal(err)
		}
	}
	if s.lexQueries.Load() == 0 {
		t.Fatal("no query used the lexicon")
	}
	if n, _ := entries(); n != 0 {
		t.Fatalf("with no budget for postings the filings remember %d terms; want 0", n)
	}
	s.posts.limit = defaultPostingsMemory
	for _, q := range queries {
		if _, err := s.Lexical(ctx, q, f, 5); err != nil {
			t.Fatal(err)
		}
	}
	if n, p := entries(); n == 0 || p != n {
		t.Fatalf("the filings remember %d terms, %d of them with postings; want some, all with postings", n, p)
	}
}

// openDetails returns how many shards the store has open and which of
// them have read the detail of their chunk table, by accession.
func openDetails(s *Store) (open int, loaded map[string]bool) {
	open, loaded, _ = openShards(s)
	return open, loaded
}

// openShards is openDetails with the accessions of the open shards.
func openShards(s *Store) (open int, loaded, isOpen map[string]bool) {
	loaded, isOpen = map[string]bool{}, map[string]bool{}
	s.cache.mu.Lock()
	defer s.cache.mu.Unlock()
	for _, e := range s.cache.byDir {
		open++
		isOpen[e.h.sh.rec.Filing.Accession] = true
		if e.h.detail != nil || e.h.detailErr != nil {
			loaded[e.h.sh.rec.Filing.Accession] = true
		}
	}
	return open, loaded, isOpen
}

// TestTableDetailReadWhenAnswered: in a store of more filings than it
// keeps open, a shard a query opens keeps only what scoring reads; the
// rest of its chunk table (IDs, titles, text places) is read for the
// shards of the answers and of the chunks tied with the last, not for
// every shard scored.
func TestTableDetailReadWhenAnswered(t *testing.T) {
	dir := t.TempDir()
	queries := lexStore(t, dir, 5, 30)
	f := store.Filter{AsOf: edgar13f.MustParseDate("2030-01-01")}
	tested := 0
	for _, q := range queries {
		// The filings holding a chunk of the best score, from a store
		// opened for that alone.
		ref, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		all, err := ref.Lexical(ctx, q, f, 100000)
		ref.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(all) == 0 {
			continue
		}
		tied := map[string]bool{}
		for _, m := range all {
			if m.Score == all[0].Score {
				tied[m.Filing.Accession] = true
			}
		}

		s, err := Open(dir, OpenShards(20)) // of 30
		if err != nil {
			t.Fatal(err)
		}
		s.noPrune = true // every filing is opened and scored
		ms, err := s.Lexical(ctx, q, f, 1)
		if err != nil {
			t.Fatal(err)
		}
		open, loaded, isOpen := openShards(s)
		s.Close()
		if len(tied) >= open/2 {
			continue // too many ties to tell
		}
		tested++
		if acc := ms[0].Filing.Accession; isOpen[acc] && !loaded[acc] {
			t.Errorf("%q: the answer's filing %s has not read its table's detail", q, ms[0].Filing.Accession)
		}
		for acc := range loaded {
			if !tied[acc] {
				t.Errorf("%q: filing %s read its table's detail; it holds no chunk of the best score (%d filings open, %d read)", q, acc, open, len(loaded))
			}
		}
	}
	if tested == 0 {
		t.Fatal("no query had few enough ties to test")
	}
}

// TestTableDetailKeptWhenAllFit: in a store whose filings all fit in the
// open-shard cache, a shard a query opens reads its whole chunk table and
// its texts at once, so that an answer from it costs no reading.
func TestTableDetailKeptWhenAllFit(t *testing.T) {
	dir := t.TempDir()
	lexStore(t, dir, 5, 30)
	s, err := Open(dir, OpenShards(30))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.noPrune = true
	if _, err := s.Lexical(ctx, "supply", store.Filter{AsOf: edgar13f.MustParseDate("2030-01-01")}, 1); err != nil {
		t.Fatal(err)
	}
	open, loaded := openDetails(s)
	if open != 30 || len(loaded) != open {
		t.Errorf("%d filings open, %d of them with their whole tables; want 30, all", open, len(loaded))
	}
}

// TestTableDetailDamaged: a filing.json or text.bin damaged after its
// shard was opened for scoring is found when a query reads the rest of its
// table and its texts: the query is an error naming the filing, never an
// answer without it.
func TestTableDetailDamaged(t *testing.T) {
	for _, name := range []string{fileRecord, fileText} {
		t.Run(name, func(t *testing.T) { testTableDetailDamaged(t, name) })
	}
}

func testTableDetailDamaged(t *testing.T, name string) {
	dir := t.TempDir()
	lexStore(t, dir, 9, 12)
	s, err := Open(dir, OpenShards(8))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.noPrune = true
	f := store.Filter{AsOf: edgar13f.MustParseDate("2030-01-01")}
	if _, err := s.Lexical(ctx, "supply", f, 1); err != nil {
		t.Fatal(err)
	}
	_, loaded := openDetails(s)
	var victim *shard
	for _, sh := range s.view.Load().shards {
		if !loaded[sh.rec.Filing.Accession] {
			victim = sh
			break
		}
	}
	if victim == nil {
		t.Fatal("every filing read its table's detail")
	}
	cs, err := readChunks(victim, true)
	if err != nil {
		t.Fatal(err)
	}
	d, err := newDetail(cs)
	if err != nil {
		t.Fatal(err)
	}
	id := string(d.id(0))
	flipByte(t, filepath.Join(victim.dir, name))
	_, _, ok, err := s.Chunk(ctx, id)
	var de *DamagedError
	if !errors.As(err, &de) || de.Accession != victim.rec.Filing.Accession {
		t.Fatalf("Chunk(%s) of a damaged filing.json = %v, %v; want a *DamagedError naming %s", id, ok, err, victim.rec.Filing.Accession)
	}
}

// TestBoundedScoringReleasesShards: a query that scores many filings by
// their bounds holds open only those it is scoring, so the open-shard
// cache stays near its size (at 10 million chunks a query of common terms
// scored 19,000 filings, each held open, and its file descriptor, until
// the query ended).
func TestBoundedScoringReleasesShards(t *testing.T) {
	defer SetLexGroup(8)()
	dir := t.TempDir()
	lexStore(t, dir, 5, 60)
	const size = 4
	s, err := Open(dir, OpenShards(size))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	f := store.Filter{AsOf: edgar13f.MustParseDate("2030-01-01")}
	s.posts.limit = 0 // every filing scored is opened
	for _, q := range []string{"supply chain risk", "interest rate", "supply"} {
		if _, err := s.Lexical(ctx, q, f, 2); err != nil {
			t.Fatal(err)
		}
	}
	// Open at once: the cache's shards, one per worker, and the shards of
	// the answers and their ties, opened again at the end.
	limit := size + runtime.GOMAXPROCS(0) + 10
	t.Logf("%d filings opened, at most %d at once", s.cache.opens, s.cache.most)
	if s.cache.opens < 2*limit {
		t.Fatalf("the queries opened %d filings; the test needs more than %d", s.cache.opens, 2*limit)
	}
	if s.cache.most > limit {
		t.Errorf("%d filings were open at once (cache size %d, %d filings opened by the queries); want at most %d", s.cache.most, size, s.cache.opens, limit)
	}
}
