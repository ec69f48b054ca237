package embedded

import (
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"

	"github.com/edgar13f/edgar13f/search/store"
)

// The manifest (manifest.bin in the store's directory) keeps, for every
// shard, what Open would otherwise parse its filing.json for: the filing,
// its embedder, its length, the sizes its files must have and the prints
// of its chunk IDs (idPrint). It is a cache, never the truth: an entry is used only
// for the shard of its name whose filing.json has the size and CRC-32C
// the entry records, so a stale, partial or lost manifest costs time,
// never correctness, and it needs no lock. Open and Close rewrite it
// (atomically, by rename) when it lacks shards they know.
//
// A store written before the manifest existed opens by reading every
// filing.json once, with progress (see [Progress]), and writes the
// manifest: that is its migration. Its shards are unchanged, so a store
// migrated this way still opens with the previous release.
//
// Version 1 kept each chunk ID's whole 64-bit hash; version 2 keeps its
// print, half the heap. This release reads both and writes version 2,
// which a release that knows only version 1 ignores: it then reads every
// filing.json, as for a store without a manifest, and answers the same.
const (
	fileManifest    = "manifest.bin"
	manifestVersion = 2
)

// A manifestEntry is one shard in the manifest.
type manifestEntry struct {
	RecordSize int64
	RecordCRC  uint32
	Filing     filingJSON
	Model      string
	Dim        int
	Length     int64
	TextSize   int64
	IDs        []uint64 // the chunk IDs' hashes, sorted: version 1 only
	Prints     []uint32 // their prints (idPrint), sorted: version 2
}

type manifestFile struct {
	Version int
	Shards  map[string]manifestEntry // by shard directory name
}

// readManifest returns the manifest's entries, or none when it is
// missing or unreadable.
func readManifest(path string) map[string]manifestEntry {
	b, err := os.ReadFile(path)
	if err != nil || len(b) < 4 {
		return map[string]manifestEntry{}
	}
	body, sum := b[:len(b)-4], binary.LittleEndian.Uint32(b[len(b)-4:])
	if crc32.Checksum(body, castagnoli) != sum {
		return map[string]manifestEntry{}
	}
	var m manifestFile
	if err := gob.NewDecoder(bytes.NewReader(body)).Decode(&m); err != nil || m.Version < 1 || m.Version > manifestVersion || m.Shards == nil {
		return map[string]manifestEntry{}
	}
	if m.Version == 1 {
		// The previous release kept the whole hashes.
		for name, e := range m.Shards {
			e.Prints = make([]uint32, len(e.IDs))
			for i, h := range e.IDs {
				e.Prints[i] = idPrint(h)
			}
			e.IDs = nil
			m.Shards[name] = e
		}
	}
	return m.Shards
}

// writeManifest replaces the manifest with the entries of shards,
// atomically.
func (s *Store) writeManifest(shards []*shard) error {
	m := manifestFile{Version: manifestVersion, Shards: make(map[string]manifestEntry, len(shards))}
	for _, sh := range shards {
		m.Shards[sh.name] = sh.manifestEntry()
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(m); err != nil {
		return err
	}
	buf.Write(binary.LittleEndian.AppendUint32(nil, crc32.Checksum(buf.Bytes(), castagnoli)))
	tmp := s.path(dirTemp, fileManifest+"."+randomToken())
	_, err := writeSynced(tmp, func(w io.Writer) error {
		_, err := w.Write(buf.Bytes())
		return err
	})
	if err == nil {
		err = os.Rename(tmp, s.path(fileManifest))
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

func (sh *shard) manifestEntry() manifestEntry {
	f := sh.rec.Filing
	rs := sh.sums[fileRecord]
	return manifestEntry{
		RecordSize: rs.size, RecordCRC: rs.crc,
		Filing: filingJSON{f.Accession, f.CIK, f.Ticker, f.Company, f.Form, dateText(f.FilingDate), dateText(f.Period), f.FiscalYear, f.URL, f.Chunks},
		Model:  sh.rec.Meta.Model, Dim: sh.rec.Meta.Dim, Length: sh.rec.Length, TextSize: sh.textSize, Prints: sh.ids,
	}
}

// shardFromManifest returns the shard named name in dir from its manifest
// entry, which describes its filing.json as SUMS does (sums).
func shardFromManifest(name, dir string, gen int, e manifestEntry, sums map[string]fileSum) (*shard, error) {
	f := e.Filing
	filed, err := parseDateText(f.FilingDate)
	if err != nil {
		return nil, err
	}
	period, err := parseDateText(f.ReportDate)
	if err != nil {
		return nil, err
	}
	if len(e.Prints) != f.Chunks {
		return nil, errors.New("manifest entry inconsistent")
	}
	rec := record{Format: recordFormat,
		Filing: store.Filing{Accession: f.Accession, CIK: f.CIK, Ticker: f.Ticker, Company: f.Company, Form: f.Form,
			FilingDate: filed, Period: period, FiscalYear: f.FiscalYear, URL: f.URL, Chunks: f.Chunks},
		Meta: store.Meta{Model: e.Model, Dim: e.Dim}, Length: e.Length}
	return &shard{name: name, dir: dir, gen: gen, rec: rec, ids: e.Prints, textSize: e.TextSize, sums: sums}, nil
}

// OpenProgress is the progress of [Open], stage by stage: first through
// the stored filings' records, then, when some filings' vectors lack their
// one-byte copies (see the package doc, Vectors), through making those,
// then, when some filings lack their BM25 term tables (see the package
// doc, Scale), through making those.
type OpenProgress struct {
	// Stage is what Open is doing; Done of Total filings are done with
	// it.
	Stage       OpenStage
	Done, Total int
	// Read counts the filings whose records were read in full because the
	// manifest did not describe them: all of them in a store written by a
	// release without a manifest, which Open migrates. It is counted in
	// the stage [StageFilings].
	Read int
}

// An OpenStage is a stage of [Open].
type OpenStage int

// The stages of [Open], in their order.
const (
	// StageFilings reads the stored filings' records (from the
	// manifest, or in full when it does not describe them).
	StageFilings OpenStage = iota
	// StageCompact makes the one-byte copies of the vectors of the
	// filings that lack them (a store written by an earlier release, or
	// copies lost or damaged). Open reports it only when there are some
	// to make.
	StageCompact
	// StageLexicon makes the term tables of the filings that lack them
	// (a store written by an earlier release, or tables lost or
	// damaged), from which the store's lexicon is merged (see the package
	// doc, Scale). Open reports it only when there are some to make.
	StageLexicon
)

// String says how far Open is.
func (p OpenProgress) String() string {
	if p.Stage == StageLexicon {
		return fmt.Sprintf("making the filings' missing term tables (once, for fast BM25): %d of %d filings", p.Done, p.Total)
	}
	if p.Stage == StageCompact {
		return fmt.Sprintf("making the vectors' missing one-byte copies (once, for fast kNN): %d of %d filings", p.Done, p.Total)
	}
	if p.Read == 0 {
		return fmt.Sprintf("%d of %d filings", p.Done, p.Total)
	}
	return fmt.Sprintf("%d of %d filings (%d read in full, not in the manifest: writing it)", p.Done, p.Total, p.Read)
}

// Progress makes [Open] report its progress to f, one call at a time: at
// most about a hundred times a stage, and once when a stage is done. A
// store of an earlier release, without a manifest, reads every filing's
// record once: that can take a while at millions of chunks. With
// Progress, Open also makes the one-byte copies of the vectors that the
// filings lack (a store of an earlier release has none), which takes
// about 10 s of CPU at a million chunks; without it, the first kNN query
// that needs a copy makes it, without a word. With Progress, Open also
// makes the BM25 term tables that the filings lack (a store of an earlier
// release has none), reading every filing's segment once, and merges them
// into the store's lexicon (see the package doc, Scale); without it, the
// filings that lack a table are counted from their segments, query by
// query, as before.
func Progress(f func(OpenProgress)) Option {
	return func(o *options) { o.progress = f }
}
