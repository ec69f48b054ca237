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

	"github.com/edgar13f/edgar13f/internal/datasets"
)

// RuleOff is the rule name of a store imported without redaction.
const RuleOff = "off"

const (
	partitionPrefix = "window="  // partition directories: window=<name>
	stagingDir      = ".staging" // builds and the journal of a replacement
	lockFile        = ".lock"
)

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
	f, err := os.OpenFile(filepath.Join(s.dir, lockFile), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("bulkstore: %w", err)
	}
	if err := lockFD(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("bulkstore: lock: %w", err)
	}
	return func() {
		unlockFD(f)
		f.Close()
	}, nil
}

// recover rolls back interrupted replacements and removes abandoned builds.
// The caller holds the lock.
func (s *Store) recover() error {
	staging := filepath.Join(s.dir, stagingDir)
	entries, err := os.ReadDir(staging)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("bulkstore: %w", err)
	}
	for _, e := range entries {
		p := filepath.Join(staging, e.Name())
		if name, ok := strings.CutSuffix(e.Name(), ".old"); ok {
			live := filepath.Join(s.dir, partitionPrefix+name)
			if _, err := os.Stat(live); errors.Is(err, fs.ErrNotExist) {
				if err := os.Rename(p, live); err != nil {
					return fmt.Errorf("bulkstore: restoring %s: %w", name, err)
				}
				continue
			}
		}
		if err := os.RemoveAll(p); err != nil {
			return fmt.Errorf("bulkstore: %w", err)
		}
	}
	return syncDir(s.dir)
}

// commit moves a finished build into place as window name's partition.
// The caller holds the lock.
func (s *Store) commit(name, build string) error {
	live := filepath.Join(s.dir, partitionPrefix+name)
	old := filepath.Join(s.dir, stagingDir, name+".old")
	moved := false
	if _, err := os.Stat(live); err == nil {
		if err := os.Rename(live, old); err != nil {
			return fmt.Errorf("bulkstore: %w", err)
		}
		moved = true
	}
	if err := os.Rename(build, live); err != nil {
		if moved {
			os.Rename(old, live)
		}
		return fmt.Errorf("bulkstore: %w", err)
	}
	if err := syncDir(s.dir); err != nil {
		return err
	}
	if moved {
		os.RemoveAll(old)
	}
	s.mu.Lock()
	s.listed = nil
	s.mu.Unlock()
	return nil
}

// partition is an opened window directory.
type partition struct {
	meta    Meta
	window  datasets.Window
	dir     string
	filings []Filing // loaded on first use

	once     sync.Once
	err      error
	holdings *openFile
	byCUSIP  *openFile
}

// openFile is an opened Parquet file.
type openFile struct {
	f  *os.File
	pf *parquet.File
}

// partitions returns the usable partitions, sorted by window. A partition
// written under another rule or version, or whose metadata cannot be
// read, is skipped.
//
// The listing is cached while the store directory's modification time is
// unchanged: committing a partition renames entries of that directory,
// which updates it.
func (s *Store) partitions() ([]*partition, error) {
	st, err := os.Stat(s.dir)
	if err != nil {
		return nil, fmt.Errorf("bulkstore: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.listed != nil && st.ModTime().Equal(s.stamp) {
		return s.listed, nil
	}
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, fmt.Errorf("bulkstore: %w", err)
	}
	out := []*partition{}
	seen := map[string]bool{}
	for _, e := range entries {
		name, ok := strings.CutPrefix(e.Name(), partitionPrefix)
		if !ok || !e.IsDir() {
			continue
		}
		m, err := readMeta(filepath.Join(s.dir, e.Name(), metaFile))
		if err != nil || m.Format != FormatVersion || m.Redaction != s.rule || m.Window != name {
			continue
		}
		w, err := datasets.ParseWindow(name)
		if err != nil {
			continue
		}
		seen[name] = true
		p := s.parts[name]
		if p == nil || p.meta.ID != m.ID {
			if p != nil {
				p.close()
			}
			p = &partition{meta: m, window: w, dir: filepath.Join(s.dir, e.Name())}
			s.parts[name] = p
		}
		out = append(out, p)
	}
	for name, p := range s.parts {
		if !seen[name] {
			p.close()
			delete(s.parts, name)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].window.From < out[j].window.From })
	s.listed, s.stamp = out, st.ModTime()
	return out, nil
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
	Windows []datasets.Window // imported windows, by date
	// DataThrough is the last filing date covered without a gap from the
	// first imported window; meaningful only when len(Windows) > 0.
	DataThrough datasets.Date
}

// Complete reports whether an answer as of asOf is complete: asOf is on or
// before DataThrough.
func (c Coverage) Complete(asOf datasets.Date) bool {
	return len(c.Windows) > 0 && asOf <= c.DataThrough
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
			c.DataThrough = p.window.To
		case p.window.From == c.DataThrough+1 && ps[i-1].window.To == c.DataThrough:
			c.DataThrough = p.window.To
		}
	}
	return c, nil
}

// open opens the partition's Parquet files once.
func (p *partition) open() error {
	p.once.Do(func() {
		p.filings, p.err = readFilings(filepath.Join(p.dir, FilingsFile), p.window.Name)
		if p.err != nil {
			return
		}
		if p.holdings, p.err = openParquet(filepath.Join(p.dir, HoldingsFile)); p.err != nil {
			return
		}
		p.byCUSIP, p.err = openParquet(filepath.Join(p.dir, ByCUSIPFile))
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
	return &openFile{f: f, pf: pf}, nil
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
