package bulkstore

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/edgar13f/edgar13f/internal/civil"
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

const quarantineDir = ".quarantine"

// parquetMagic begins and ends every Parquet file.
const parquetMagic = "PAR1"

// checkFiles checks the part files of partition m without reading them:
// each is there, has the size recorded at import (when recorded), begins
// with the Parquet magic bytes and ends with a footer length that fits in
// the file and the magic bytes again.
func checkFiles(dir string, m Meta) error {
	for _, t := range tables {
		path := PartitionPath(dir, t, m.Window)
		if err := checkFile(path, m.Sizes[t]); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return nil
}

func checkFile(path string, want int64) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	size := st.Size()
	if want > 0 && size != want {
		return fmt.Errorf("%d bytes, %d written at import", size, want)
	}
	if size < 12 {
		return fmt.Errorf("%d bytes, too short for a Parquet file", size)
	}
	var head [4]byte
	var tail [8]byte
	if _, err := f.ReadAt(head[:], 0); err != nil {
		return err
	}
	if _, err := f.ReadAt(tail[:], size-8); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	footer := int64(binary.LittleEndian.Uint32(tail[:4]))
	switch {
	case string(head[:]) != parquetMagic || string(tail[4:]) != parquetMagic:
		return errors.New("no Parquet magic bytes at its start and end")
	case footer+12 > size:
		return fmt.Errorf("footer of %d bytes in a file of %d", footer, size)
	}
	return nil
}

// isDamage reports whether err, from opening a partition, says its files
// are damaged rather than that the system failed to read them (a missing
// file is damage; a permission error or too many open files is not).
func isDamage(err error) bool {
	var pe *fs.PathError
	return errors.Is(err, fs.ErrNotExist) || !errors.As(err, &pe)
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
	meta := filepath.Join(s.dir, metaDir, name+".json")
	if m, err := readMeta(meta); err != nil || m.ID != id {
		return "", nil
	}
	q := filepath.Join(s.dir, quarantineDir, name+"-"+strconv.FormatInt(time.Now().UnixNano(), 10))
	if err := os.MkdirAll(q, 0o755); err != nil {
		return "", fmt.Errorf("bulkstore: %w", err)
	}
	// The commit record first: once it is gone the window is not imported.
	if err := os.Rename(meta, filepath.Join(q, metaBuild)); err != nil {
		return "", fmt.Errorf("bulkstore: %w", err)
	}
	if err := syncDir(filepath.Join(s.dir, metaDir)); err != nil {
		return "", err
	}
	for _, t := range tables {
		live := filepath.Dir(PartitionPath(s.dir, t, name))
		if err := os.Rename(live, filepath.Join(q, t)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("bulkstore: %w", err)
		}
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
	if err == nil || !isDamage(err) {
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
