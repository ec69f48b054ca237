// Package parquetdir is the file discipline of the module's Parquet
// stores (internal/bulkstore for the Form 13F Data Sets, internal/factstore
// for the XBRL company facts): a lock file that makes imports run one at a
// time across processes, files synced before they are renamed, a journal
// that replaces a named partition (a set of table directories and a commit
// record) atomically and that a crash at any point leaves rolled back or
// committed, checks that find a Parquet file cut short or overwritten
// without reading it, and quarantine of a damaged partition.
//
// # The journal
//
// A partition N of a [Journal] is one directory per table (Live(table, N))
// and a commit record (Meta(N)), a small file written last. A replacement
// of N is built in a directory under <dir>/.staging, then [Journal.Commit]
// moves N's commit record and its live table directories into
// .staging/N.old, moves the built ones in, and commits by renaming the new
// commit record into place; then it removes N.old. So when N.old exists
// and N's commit record is in place, the replacement was committed (N.old
// is removed); when the record is missing it was not (N's table
// directories are removed and the old ones put back): [Journal.Recover]
// does exactly that, and a reader that reads only partitions whose commit
// record is present sees the old partition or the new one, never a part.
package parquetdir

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

const (
	// StagingDir is the directory, under a store's, of builds and of the
	// journal of a replacement.
	StagingDir = ".staging"
	// QuarantineDir is the directory, under a store's, that damaged
	// partitions are moved into.
	QuarantineDir = ".quarantine"
	// MetaBuild is the name of the commit record inside a build.
	MetaBuild = "meta.json"
	lockFile  = ".lock"
)

// Lock takes the lock file of the store in dir, waiting for it. The
// returned function releases it.
func Lock(dir string) (func(), error) {
	f, err := os.OpenFile(filepath.Join(dir, lockFile), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := lockFD(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock: %w", err)
	}
	return func() {
		unlockFD(f)
		f.Close()
	}, nil
}

// A Journal replaces the partitions of the store in Dir atomically. Live
// returns the live directory of a table's part of a partition, and Meta
// the path of a partition's commit record.
type Journal struct {
	Dir    string
	Tables []string
	Live   func(table, name string) string
	Meta   func(name string) string
}

// Recover finishes or rolls back an interrupted replacement and removes
// abandoned builds. The caller holds the lock.
func (j Journal) Recover() error {
	staging := filepath.Join(j.Dir, StagingDir)
	entries, err := os.ReadDir(staging)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		p := filepath.Join(staging, e.Name())
		if name, ok := strings.CutSuffix(e.Name(), ".old"); ok {
			if err := j.rollBack(name, p); err != nil {
				return err
			}
		}
		if err := os.RemoveAll(p); err != nil {
			return err
		}
	}
	return SyncDir(j.Dir)
}

// rollBack puts back what .staging/<name>.old holds unless the replacement
// was committed.
func (j Journal) rollBack(name, old string) error {
	if _, err := os.Stat(j.Meta(name)); err == nil {
		return nil // committed
	}
	// With an old partition (its commit record was moved aside first), the
	// old tables are moved aside one by one before any new one moves in: a
	// live table missing from old is then an old one still in place.
	// Without one, every live table of the partition is new.
	_, err := os.Stat(filepath.Join(old, MetaBuild))
	hadOld := err == nil
	for _, t := range j.Tables {
		live := j.Live(t, name)
		_, err := os.Stat(filepath.Join(old, t))
		aside := err == nil
		if !aside && hadOld {
			continue
		}
		if err := os.RemoveAll(live); err != nil {
			return err
		}
		if aside {
			if err := os.Rename(filepath.Join(old, t), live); err != nil {
				return fmt.Errorf("restoring %s: %w", name, err)
			}
		}
	}
	if hadOld {
		if err := os.Rename(filepath.Join(old, MetaBuild), j.Meta(name)); err != nil {
			return fmt.Errorf("restoring %s: %w", name, err)
		}
	}
	return nil
}

// Commit moves a finished build (a directory holding one directory per
// table and the commit record MetaBuild, every file synced) into place as
// partition name. The caller holds the lock.
func (j Journal) Commit(name, build string) error {
	old := filepath.Join(j.Dir, StagingDir, name+".old")
	if err := os.Mkdir(old, 0o755); err != nil {
		return err
	}
	meta := j.Meta(name)
	if err := os.MkdirAll(filepath.Dir(meta), 0o755); err != nil {
		return err
	}
	fail := func(err error) error {
		j.rollBack(name, old)
		os.RemoveAll(old)
		return err
	}
	if err := SyncDir(filepath.Join(j.Dir, StagingDir)); err != nil {
		return fail(err)
	}
	// Uncommit: the commit record goes first, then the old tables.
	if err := os.Rename(meta, filepath.Join(old, MetaBuild)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fail(err)
	}
	for _, t := range j.Tables {
		if err := os.Rename(j.Live(t, name), filepath.Join(old, t)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fail(err)
		}
	}
	for _, t := range j.Tables {
		live := j.Live(t, name)
		if err := os.MkdirAll(filepath.Dir(live), 0o755); err != nil {
			return fail(err)
		}
		if err := os.Rename(filepath.Join(build, t), live); err != nil {
			return fail(err)
		}
		if err := SyncDir(filepath.Dir(live)); err != nil {
			return fail(err)
		}
	}
	// Commit.
	if err := os.Rename(filepath.Join(build, MetaBuild), meta); err != nil {
		return fail(err)
	}
	if err := SyncDir(filepath.Dir(meta)); err != nil {
		return err
	}
	os.RemoveAll(old)
	return nil
}

// Quarantine moves partition name aside into
// <dir>/.quarantine/<name>-<n>/, its commit record first (from then on the
// partition is not read), and returns that directory. The caller holds
// the lock and has checked that the commit record is the one it found
// damaged.
func (j Journal) Quarantine(name string) (string, error) {
	q := filepath.Join(j.Dir, QuarantineDir, name+"-"+strconv.FormatInt(time.Now().UnixNano(), 10))
	if err := os.MkdirAll(q, 0o755); err != nil {
		return "", err
	}
	meta := j.Meta(name)
	if err := os.Rename(meta, filepath.Join(q, MetaBuild)); err != nil {
		return "", err
	}
	if err := SyncDir(filepath.Dir(meta)); err != nil {
		return "", err
	}
	for _, t := range j.Tables {
		if err := os.Rename(j.Live(t, name), filepath.Join(q, t)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
	}
	return q, nil
}

// ParquetMagic begins and ends every Parquet file.
const ParquetMagic = "PAR1"

// CheckFile checks a Parquet file without reading it: it is there, has
// want bytes (when want > 0), begins with the Parquet magic bytes and ends
// with a footer length that fits in the file and the magic bytes again.
func CheckFile(path string, want int64) error {
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
	case string(head[:]) != ParquetMagic || string(tail[4:]) != ParquetMagic:
		return errors.New("no Parquet magic bytes at its start and end")
	case footer+12 > size:
		return fmt.Errorf("footer of %d bytes in a file of %d", footer, size)
	}
	return nil
}

// IsDamage reports whether err, from opening a partition's files, says
// they are damaged rather than that the system failed to read them (a
// missing file is damage; a permission error or too many open files is
// not).
func IsDamage(err error) bool {
	var pe *fs.PathError
	return errors.Is(err, fs.ErrNotExist) || !errors.As(err, &pe)
}

// WriteSynced writes a small file and syncs it.
func WriteSynced(path string, data []byte) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// CloseSynced closes w (a Parquet writer, flushing it), then syncs and
// closes f, the file it writes.
func CloseSynced(f *os.File, w interface{ Close() error }) error {
	if err := w.Close(); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// SyncDir syncs a directory's entries.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err
	}
	return nil
}
