package factstore

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/parquet-go/parquet-go"

	"github.com/edgar13f/edgar13f/internal/civil"
	"github.com/edgar13f/edgar13f/internal/parquetdir"
)

// ErrEmpty is returned when the store holds no snapshot.
var ErrEmpty = errors.New("factstore: nothing imported")

// ErrDamaged is wrapped by the error of a read that found the snapshot's
// files damaged; the snapshot has been moved aside.
var ErrDamaged = errors.New("factstore: damaged snapshot")

// A Store is a directory holding a snapshot of company facts. It is safe
// for concurrent use by multiple goroutines; imports (in any process) take
// a lock file.
type Store struct {
	dir string

	mu   sync.Mutex
	snap *Snapshot // the last snapshot opened
}

// Open opens (creating it if needed) the store in dir, and finishes or
// rolls back an import that a crash interrupted.
func Open(dir string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("factstore: %w", err)
	}
	s := &Store{dir: dir}
	unlock, err := s.lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := s.journal().Recover(); err != nil {
		return nil, fmt.Errorf("factstore: %w", err)
	}
	return s, nil
}

// Dir returns the store's directory.
func (s *Store) Dir() string { return s.dir }

func (s *Store) lock() (func(), error) {
	unlock, err := parquetdir.Lock(s.dir)
	if err != nil {
		return nil, fmt.Errorf("factstore: %w", err)
	}
	return unlock, nil
}

// journal is the store's journal: one partition, the snapshot, made of
// the three table directories and _snapshot.json.
func (s *Store) journal() parquetdir.Journal {
	return parquetdir.Journal{
		Dir:    s.dir,
		Tables: tables,
		Live:   func(table, _ string) string { return filepath.Join(s.dir, table) },
		Meta:   func(string) string { return filepath.Join(s.dir, metaFile) },
	}
}

// forget drops the opened snapshot.
func (s *Store) forget() {
	s.mu.Lock()
	s.snap = nil
	s.mu.Unlock()
}

// A Snapshot is an opened snapshot: its commit record, companies and tags
// in memory, its facts parts open. It stays readable while a later import
// replaces it.
type Snapshot struct {
	Meta
	DataThrough civil.Day // latest filed date (0 when no facts)

	entities map[int64]string
	tags     []Tag // sorted by taxonomy, tag, unit
	parts    []*parquet.File
	files    []*os.File
}

// Snapshot returns the store's current snapshot, opening it when it is
// new to this Store. It fails with ErrEmpty when nothing is imported;
// when the snapshot's files are damaged it moves the snapshot aside and
// fails with an error wrapping ErrDamaged that says where it went.
func (s *Store) Snapshot() (*Snapshot, error) {
	m, err := readMeta(filepath.Join(s.dir, metaFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrEmpty
	}
	if err == nil && m.Format != FormatVersion {
		return nil, fmt.Errorf("%w (the snapshot there is of layout version %d, this program reads %d: import again)", ErrEmpty, m.Format, FormatVersion)
	}
	if err != nil {
		return nil, s.damaged(m, err)
	}
	s.mu.Lock()
	sn := s.snap
	s.mu.Unlock()
	if sn != nil && sn.ID == m.ID {
		return sn, nil
	}
	sn, err = s.open(m)
	if err != nil {
		if parquetdir.IsDamage(err) {
			return nil, s.damaged(m, err)
		}
		return nil, err
	}
	s.mu.Lock()
	s.snap = sn
	s.mu.Unlock()
	return sn, nil
}

// damaged moves the snapshot of commit record m aside (unless another
// import replaced it meanwhile) and returns the error saying so.
func (s *Store) damaged(m Meta, cause error) error {
	unlock, err := s.lock()
	if err != nil {
		return err
	}
	defer unlock()
	now, err := readMeta(filepath.Join(s.dir, metaFile))
	if errors.Is(err, fs.ErrNotExist) {
		return ErrEmpty
	}
	if err == nil && now.ID != m.ID {
		return fmt.Errorf("factstore: the snapshot was replaced while being read: ask again")
	}
	q, err := s.journal().Quarantine(snapshotName)
	if err != nil {
		return fmt.Errorf("factstore: the snapshot is damaged (%v), and moving it aside failed: %w", cause, err)
	}
	s.forget()
	return fmt.Errorf("%w: %v; moved aside to %s: the store is empty until the next import", ErrDamaged, cause, q)
}

func readMeta(path string) (Meta, error) {
	var m Meta
	b, err := os.ReadFile(path)
	if err != nil {
		return m, err
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// open opens the snapshot of commit record m: its files are checked
// against m, the facts parts opened, entities and tags read.
func (s *Store) open(m Meta) (sn *Snapshot, err error) {
	if m.Parts < 1 || m.Parts > maxParts {
		return nil, fmt.Errorf("commit record: %d parts", m.Parts)
	}
	want := []string{PartPath("", EntitiesTable, 0), PartPath("", TagsTable, 0)}
	for i := range m.Parts {
		want = append(want, PartPath("", FactsTable, i))
	}
	for _, rel := range want {
		rel = filepath.ToSlash(rel)
		size, ok := m.Sizes[rel]
		if !ok {
			return nil, fmt.Errorf("commit record: no size for %s", rel)
		}
		if err := parquetdir.CheckFile(filepath.Join(s.dir, rel), size); err != nil {
			return nil, fmt.Errorf("%s: %w", rel, err)
		}
	}
	sn = &Snapshot{Meta: m, entities: map[int64]string{}}
	if m.DataThrough != "" {
		d, ok := civil.ParseISO(m.DataThrough)
		if !ok {
			return nil, fmt.Errorf("commit record: data_through %q", m.DataThrough)
		}
		sn.DataThrough = d
	}
	defer func() {
		if err != nil {
			for _, f := range sn.files {
				f.Close()
			}
		}
	}()
	for i := range m.Parts {
		f, pf, err := openParquet(PartPath(s.dir, FactsTable, i))
		if err != nil {
			return nil, err
		}
		sn.files = append(sn.files, f)
		sn.parts = append(sn.parts, pf)
	}
	es, err := parquet.ReadFile[Entity](PartPath(s.dir, EntitiesTable, 0))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", PartPath(s.dir, EntitiesTable, 0), err)
	}
	for _, e := range es {
		sn.entities[e.CIK] = e.EntityName
	}
	sn.tags, err = parquet.ReadFile[Tag](PartPath(s.dir, TagsTable, 0))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", PartPath(s.dir, TagsTable, 0), err)
	}
	for _, t := range sn.tags {
		if t.Part < 0 || int(t.Part) >= m.Parts {
			return nil, fmt.Errorf("tags: part %d of %d", t.Part, m.Parts)
		}
	}
	return sn, nil
}

func openParquet(path string) (*os.File, *parquet.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	pf, err := parquet.OpenFile(f, st.Size(), parquet.ReadBufferSize(64<<10))
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, pf, nil
}

// EntityName returns the entity name of cik ("" when not in the
// snapshot).
func (sn *Snapshot) EntityName(cik int64) string { return sn.entities[cik] }

// Companies returns the number of companies in the snapshot.
func (sn *Snapshot) Companies() int { return len(sn.entities) }

// Units returns the (taxonomy, tag, unit) rows of taxonomy:tag, by unit.
func (sn *Snapshot) Units(taxonomy, tag string) []Tag {
	i, _ := slices.BinarySearchFunc(sn.tags, Tag{Taxonomy: taxonomy, Tag: tag}, func(a, b Tag) int {
		if c := strings.Compare(a.Taxonomy, b.Taxonomy); c != 0 {
			return c
		}
		return strings.Compare(a.Tag, b.Tag)
	})
	j := i
	for j < len(sn.tags) && sn.tags[j].Taxonomy == taxonomy && sn.tags[j].Tag == tag {
		j++
	}
	return sn.tags[i:j:j]
}

// Facts calls yield with every fact of taxonomy:tag in unit, in the order
// of the part: (cik, end, start, filed, accn), until yield returns false.
// The Fact is reused between calls.
func (sn *Snapshot) Facts(taxonomy, tag, unit string, yield func(*Fact) bool) error {
	var t *Tag
	for _, u := range sn.Units(taxonomy, tag) {
		if u.Unit == unit {
			t = &u
			break
		}
	}
	if t == nil {
		return nil
	}
	pf := sn.parts[t.Part]
	col, ok := pf.Schema().Lookup("tag")
	if !ok {
		return fmt.Errorf("factstore: facts part %d has no tag column", t.Part)
	}
	key := Fact{Taxonomy: taxonomy, Tag: tag, Unit: unit}
	buf := make([]Fact, 1024)
	for _, rg := range pf.RowGroups() {
		if fc, isFile := rg.ColumnChunks()[col.ColumnIndex].(*parquet.FileColumnChunk); isFile {
			if lo, hi, ok := fc.Bounds(); ok && (tag < lo.String() || tag > hi.String()) {
				continue
			}
		}
		r := parquet.NewGenericRowGroupReader[Fact](rg)
		past := false
		for !past {
			n, err := r.Read(buf)
			for i := range buf[:n] {
				f := &buf[i]
				switch c := compareKey(f, &key); {
				case c < 0:
					continue
				case c > 0:
					past = true
				}
				if past {
					break
				}
				if !yield(f) {
					r.Close()
					return nil
				}
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				r.Close()
				return fmt.Errorf("factstore: facts part %d: %w", t.Part, err)
			}
		}
		r.Close()
		if past {
			return nil
		}
	}
	return nil
}

// compareKey compares the (taxonomy, tag, unit) of a and b.
func compareKey(a, b *Fact) int {
	if c := strings.Compare(a.Taxonomy, b.Taxonomy); c != 0 {
		return c
	}
	if c := strings.Compare(a.Tag, b.Tag); c != 0 {
		return c
	}
	return strings.Compare(a.Unit, b.Unit)
}
