package bulkstore

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/edgar13f/edgar13f/internal/civil"
	"github.com/edgar13f/edgar13f/internal/parquetdir"
)

// A partition whose files are damaged (cut short by a full disk or an
// interrupted copy, overwritten, deleted) would fail every query that
// reads it, while its commit record kept telling imports that the window
// is there. So a damaged partition is moved aside into
// <dir>/.quarantine/<window>-<n>/ (its commit record first: from then on
// the window is not imported, and the next import of it restores it) and
// never read again.
//
// Damage is looked for when a partition is listed (checkFiles: sizes and
// the Parquet magic bytes at both ends, a few bytes read per file) and
// when it is opened (the footers are parsed and the filings table read).

// ErrDamaged is wrapped by the error of a query that found a partition's
// files damaged when opening it; the partition has been moved aside.
var ErrDamaged = errors.New("bulkstore: damaged partition")

// checkFiles checks the part files of partition m without reading them
// (parquetdir.CheckFile): each is there, has the size recorded at import
// (when recorded), and has the Parquet magic bytes and a footer length
// that fits at its ends.
func checkFiles(dir string, m Meta) error {
	for _, t := range tables {
		path := PartitionPath(dir, t, m.Window)
		if err := parquetdir.CheckFile(path, m.Sizes[t]); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return nil
}

// quarantine moves the partition of window name aside, unless its commit
// record no longer has id (another import replaced it meanwhile). It
// returns the directory the partition went to ("" when nothing moved).
func (s *Store) quarantine(name, id string) (string, error) {
	unlock, err := s.lock()
	if err != nil {
		return "", err
	}
	defer unlock()
	if m, err := readMeta(filepath.Join(s.dir, metaDir, name+".json")); err != nil || m.ID != id {
		return "", nil
	}
	q, err := s.journal().Quarantine(name)
	if err != nil {
		return "", fmt.Errorf("bulkstore: %w", err)
	}
	s.mu.Lock()
	s.listed = nil
	s.mu.Unlock()
	return q, nil
}

// openChecked opens p; when its files are damaged it moves it aside and
// returns an error wrapping ErrDamaged.
func (s *Store) openChecked(p *partition) error {
	err := p.open()
	if err == nil || !parquetdir.IsDamage(err) {
		return err
	}
	q, qerr := s.quarantine(p.window.Name, p.meta.ID)
	if qerr != nil {
		return fmt.Errorf("bulkstore: window %s is damaged (%v), and moving it aside failed: %w", p.window.Name, err, qerr)
	}
	return fmt.Errorf("%w: window %s: %v; moved aside to %s: the window is no longer imported, and importing it again restores it", ErrDamaged, p.window.Name, err, q)
}

// OpenWindows opens every partition that can hold a filing dated on or
// before asOf, as the queries do. A damaged one is moved aside and named
// in moved rather than failing: the store no longer lists it, and its
// Coverage says what is left.
func (s *Store) OpenWindows(asOf civil.Day) (moved []string, err error) {
	ps, err := s.partitions()
	if err != nil {
		return nil, err
	}
	for _, p := range ps {
		if p.window.From > asOf {
			continue
		}
		if err := s.openChecked(p); errors.Is(err, ErrDamaged) {
			moved = append(moved, p.window.Name)
		} else if err != nil {
			return moved, err
		}
	}
	return moved, nil
}

// quarantineDir holds partitions moved aside.
const quarantineDir = parquetdir.QuarantineDir
