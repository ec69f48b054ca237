package bulkstore

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/edgar13f/edgar13f/internal/civil"
	"github.com/edgar13f/edgar13f/internal/datasetzip"
	"github.com/edgar13f/edgar13f/internal/parquetdir"
)

// RuleOff is the rule name of a store imported without redaction.
const RuleOff = "off"

// stagingDir holds builds and the journal of a replacement.
const stagingDir = parquetdir.StagingDir

// A Store is a directory of imported windows. It is safe for concurrent
// use by multiple goroutines; imports (in any process) take a lock file.
type Store struct {
	dir  string
	rule string

	mu     sync.Mutex
	parts  map[string]*partition // by window name, cached by Meta.ID
	listed []*partition          // the last listing, valid while the directory is unchanged
	stamp  time.Time             // modification time of dir at that listing
}

// Open opens (creating it if needed) the store in dir for redaction rule
// rule (a name such as "default-v3", or RuleOff). Partitions imported under
// another rule or layout version are never read: queries treat their
// windows as absent and an import replaces them.
//
// Open finishes the journal of an import that a crash interrupted: a
// replaced partition that was moved aside is put back (the crash leaves
// the old state), and abandoned builds are removed.
func Open(dir, rule string) (*Store, error) {
	if rule == "" {
		return nil, errors.New("bulkstore: empty redaction rule name")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("bulkstore: %w", err)
	}
	s := &Store{dir: dir, rule: rule, parts: map[string]*partition{}}
	unlock, err := s.lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := s.recover(); err != nil {
		return nil, err
	}
	return s, nil
}

// Dir returns the store's directory.
func (s *Store) Dir() string { return s.dir }

// Rule returns the redaction rule name the store serves.
func (s *Store) Rule() string { return s.rule }

// lock takes the store's lock file.
func (s *Store) lock() (func(), error) {
	unlock, err := parquetdir.Lock(s.dir)
	if err != nil {
		return nil, fmt.Errorf("bulkstore: %w", err)
	}
	return unlock, nil
}

// journal is the store's journal of replacements (package parquetdir): a
// window's partition is its three table partitions and its commit record
// _partitions/<name>.json.
func (s *Store) journal() parquetdir.Journal {
	return parquetdir.Journal{
		Dir:    s.dir,
		Tables: tables,
		Live:   func(table, name string) string { return filepath.Dir(PartitionPath(s.dir, table, name)) },
		Meta:   func(name string) string { return filepath.Join(s.dir, metaDir, name+".json") },
	}
}

// recover finishes or rolls back an interrupted replacement and removes
// abandoned builds (see package parquetdir). The caller holds the lock.
func (s *Store) recover() error {
	if err := s.journal().Recover(); err != nil {
		return fmt.Errorf("bulkstore: %w", err)
	}
	return nil
}

// commit moves a finished build into place as window name's partition
// (see package parquetdir for the journal). The caller holds the lock.
func (s *Store) commit(name, build string) error {
	if err := s.journal().Commit(name, build); err != nil {
		return fmt.Errorf("bulkstore: %w", err)
	}
	s.mu.Lock()
	s.listed = nil
	s.mu.Unlock()
	return nil
}

// partition is an imported window.
type partition struct {
	meta    Meta
	window  datasetzip.Window
	dir     string         // the store's directory
	filings []Filing       // loaded on first use
	ords    map[string]int // accession -> index in filings

	once     sync.Once
	err      error
	holdings *openFile
	byCUSIP  *openFile
}

// openFile is an opened Parquet file.
type openFile struct {
	f      *os.File
	pf     *parquet.File
	layout *layout // where Row's fields are
}

// partitions returns the usable partitions, sorted by window. A partition
// written under another rule or version, or whose metadata cannot be
// read, is skipped; one whose files fail checkFiles is moved aside
// (quarantine) and not returned.
//
// The listing is cached while the modification time of the metadata
// directory is unchanged: every commit renames a file into or out of it.
func (s *Store) partitions() ([]*partition, error) {
	out, damaged, err := s.list()
	for _, d := range damaged {
		if _, err := s.quarantine(d.meta.Window, d.meta.ID); err != nil {
			return nil, fmt.Errorf("bulkstore: window %s is damaged (%v), and moving it aside failed: %w", d.meta.Window, d.err, err)
		}
	}
	if err != nil || len(damaged) == 0 {
		return out, err
	}
	out, damaged, err = s.list()
	if err == nil && len(damaged) > 0 {
		err = fmt.Errorf("bulkstore: window %s is damaged: %w", damaged[0].meta.Window, damaged[0].err)
	}
	return out, err
}

// damagedPart is a partition whose files failed checkFiles.
type damagedPart struct {
	meta Meta
	err  error
}

// list lists the partitions; those whose files fail checkFiles are
// returned apart. The caller holds no lock (quarantine takes the store's
// lock file, and an import holds it while taking s.mu).
func (s *Store) list() ([]*partition, []damagedPart, error) {
	mdir := filepath.Join(s.dir, metaDir)
	st, err := os.Stat(mdir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("bulkstore: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.listed != nil && st.ModTime().Equal(s.stamp) {
		return s.listed, nil, nil
	}
	entries, err := os.ReadDir(mdir)
	if err != nil {
		return nil, nil, fmt.Errorf("bulkstore: %w", err)
	}
	out := []*partition{}
	var damaged []damagedPart
	seen := map[string]bool{}
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || e.IsDir() {
			continue
		}
		m, err := readMeta(filepath.Join(mdir, e.Name()))
		if err != nil || m.Format != FormatVersion || m.Redaction != s.rule || m.Window != name {
			continue
		}
		w, err := datasetzip.ParseWindow(name)
		if err != nil {
			continue
		}
		p := s.parts[name]
		if p == nil || p.meta.ID != m.ID {
			// A partition new to this Store: check its files first.
			if err := checkFiles(s.dir, m); err != nil {
				damaged = append(damaged, damagedPart{m, err})
				continue
			}
			if p != nil {
				p.close()
			}
			p = &partition{meta: m, window: w, dir: s.dir}
			s.parts[name] = p
		}
		seen[name] = true
		out = append(out, p)
	}
	for name, p := range s.parts {
		if !seen[name] {
			p.close()
			delete(s.parts, name)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].window.From < out[j].window.From })
	if len(damaged) == 0 {
		s.listed, s.stamp = out, st.ModTime()
	}
	return out, damaged, nil
}

func readMeta(path string) (Meta, error) {
	var m Meta
	b, err := os.ReadFile(path)
	if err != nil {
		return m, err
	}
	err = json.Unmarshal(b, &m)
	return m, err
}

// Partitions returns the metadata of the usable partitions, by window.
func (s *Store) Partitions() ([]Meta, error) {
	ps, err := s.partitions()
	if err != nil {
		return nil, err
	}
	out := make([]Meta, len(ps))
	for i, p := range ps {
		out[i] = p.meta
	}
	return out, nil
}

// Coverage says which filing dates the store covers.
type Coverage struct {
	Windows []datasetzip.Window // imported windows, by date
	// DataFrom and DataThrough bound the span of filing dates the store
	// covers without a gap: DataFrom is the first filing date of the first
	// imported window, DataThrough the last one covered without a gap from
	// it. Both are meaningful only when len(Windows) > 0.
	DataFrom, DataThrough civil.Day
}

// Covers reports whether every filing date of [from, to] is in the span
// [DataFrom, DataThrough]; an empty range (to before from) is covered.
func (c Coverage) Covers(from, to civil.Day) bool {
	return to < from || len(c.Windows) > 0 && c.DataFrom <= from && to <= c.DataThrough
}

// Coverage returns the store's coverage.
func (s *Store) Coverage() (Coverage, error) {
	ps, err := s.partitions()
	if err != nil {
		return Coverage{}, err
	}
	var c Coverage
	for i, p := range ps {
		c.Windows = append(c.Windows, p.window)
		switch {
		case i == 0:
			c.DataFrom, c.DataThrough = p.window.From, p.window.To
		case p.window.From == c.DataThrough+1 && ps[i-1].window.To == c.DataThrough:
			c.DataThrough = p.window.To
		}
	}
	return c, nil
}

// open opens the partition's Parquet files once.
func (p *partition) open() error {
	p.once.Do(func() {
		p.filings, p.err = readFilings(PartitionPath(p.dir, FilingsTable, p.window.Name), p.window.Name)
		if p.err != nil {
			return
		}
		p.ords = make(map[string]int, len(p.filings))
		for i, f := range p.filings {
			p.ords[f.Accession] = i
		}
		if p.holdings, p.err = openParquet(PartitionPath(p.dir, HoldingsTable, p.window.Name)); p.err != nil {
			return
		}
		p.byCUSIP, p.err = openParquet(PartitionPath(p.dir, ByCUSIPTable, p.window.Name))
	})
	return p.err
}

func (p *partition) close() {
	for _, f := range []*openFile{p.holdings, p.byCUSIP} {
		if f != nil {
			f.f.Close()
		}
	}
}

func openParquet(path string) (*openFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("bulkstore: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("bulkstore: %w", err)
	}
	pf, err := parquet.OpenFile(f, st.Size(), parquet.ReadBufferSize(64<<10))
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("bulkstore: %s: %w", path, err)
	}
	l, err := layoutOf(pf)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("bulkstore: %s: %w", path, err)
	}
	return &openFile{f: f, pf: pf, layout: l}, nil
}

func readFilings(path, window string) ([]Filing, error) {
	fs, err := parquet.ReadFile[Filing](path)
	if err != nil {
		return nil, fmt.Errorf("bulkstore: %s: %w", path, err)
	}
	for i := range fs {
		fs[i].Window = window
	}
	return fs, nil
}
