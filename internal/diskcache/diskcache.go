// Package diskcache stores opaque blobs under string keys in one directory.
//
// Each key maps to a file named by the SHA-256 of the key, fanned out into a
// two-hex-digit subdirectory, so a key is never used as a path. Every entry
// carries a header (magic, version, the key itself, data length and a
// CRC-32C of key and data) that Get verifies; a short, corrupt or foreign
// entry is a miss. CRC-32C (hardware-accelerated) rather than a
// cryptographic hash: it guards against torn or damaged files in a private
// directory, and warm reads of large tables should cost little more than
// the read itself.
// Put writes a temporary file, syncs it and renames it over the entry, so a
// reader sees either the old entry, the new one, or none.
package diskcache

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// ErrMiss is returned by Get when the key has no valid entry.
var ErrMiss = errors.New("diskcache: miss")

// Entry layout: magic (4 bytes), version (4 bytes, big endian), key length
// (4 bytes), data length (8 bytes), CRC-32C of key length, key and data
// (4 bytes), then the key and the data.
const (
	magic      = "E13C"
	version    = 2
	headerSize = 4 + 4 + 4 + 8 + 4

	// tempPrefix starts the name of every temporary file. Entry names are
	// hex digits only, so a temporary file never looks like an entry.
	tempPrefix = ".tmp-"
)

// A Dir is a cache of opaque blobs in one directory. It is safe for
// concurrent use by goroutines and processes.
type Dir struct {
	path string
}

// Open opens (creating with 0700 if needed, parents too) the cache directory.
// It refuses a directory that is world-writable or, on unix, owned by another
// user; it changes nothing about an existing directory.
func Open(path string) (*Dir, error) {
	if path == "" {
		return nil, errors.New("diskcache: empty cache directory path")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("diskcache: %w", err)
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return nil, fmt.Errorf("diskcache: create cache directory: %w", err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("diskcache: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("diskcache: %s is not a directory", abs)
	}
	if fi.Mode().Perm()&0o002 != 0 {
		return nil, fmt.Errorf("diskcache: refusing world-writable cache directory %s (mode %v)", abs, fi.Mode().Perm())
	}
	if err := checkOwner(abs, fi); err != nil {
		return nil, err
	}
	return &Dir{path: abs}, nil
}

// DefaultPath returns the default cache directory: $XDG_CACHE_HOME/edgar13f
// via os.UserCacheDir (on Linux ~/.cache/edgar13f), else a private per-user
// directory under os.TempDir() ("edgar13f-<uid>").
func DefaultPath() string {
	if dir, err := os.UserCacheDir(); err == nil && dir != "" {
		return filepath.Join(dir, "edgar13f")
	}
	return filepath.Join(os.TempDir(), "edgar13f-"+strconv.Itoa(os.Getuid()))
}

// Path returns the directory.
func (d *Dir) Path() string { return d.path }

// entryPath returns the subdirectory and file of key's entry.
func (d *Dir) entryPath(key string) (dir, file string) {
	sum := sha256.Sum256([]byte(key))
	h := hex.EncodeToString(sum[:])
	dir = filepath.Join(d.path, h[:2])
	return dir, filepath.Join(dir, h[2:])
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// checksum returns the CRC-32C of key and data, with the key length first so
// that no two (key, data) pairs share an input.
func checksum(key string, data []byte) uint32 {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(key)))
	c := crc32.Update(0, castagnoli, n[:])
	c = crc32.Update(c, castagnoli, []byte(key))
	return crc32.Update(c, castagnoli, data)
}

// header returns the entry bytes that precede data: the header and the key.
func header(key string, data []byte) []byte {
	buf := make([]byte, headerSize, headerSize+len(key))
	copy(buf, magic)
	binary.BigEndian.PutUint32(buf[4:], version)
	binary.BigEndian.PutUint32(buf[8:], uint32(len(key)))
	binary.BigEndian.PutUint64(buf[12:], uint64(len(data)))
	binary.BigEndian.PutUint32(buf[20:], checksum(key, data))
	return append(buf, key...)
}

// decode returns the data of entry b if it is a whole, valid entry for key.
func decode(key string, b []byte) ([]byte, bool) {
	if len(b) < headerSize || string(b[:4]) != magic || binary.BigEndian.Uint32(b[4:]) != version {
		return nil, false
	}
	if binary.BigEndian.Uint32(b[8:]) != uint32(len(key)) || len(b)-headerSize < len(key) {
		return nil, false
	}
	if string(b[headerSize:headerSize+len(key)]) != key {
		return nil, false
	}
	data := b[headerSize+len(key):]
	if binary.BigEndian.Uint64(b[12:]) != uint64(len(data)) {
		return nil, false
	}
	if binary.BigEndian.Uint32(b[20:]) != checksum(key, data) {
		return nil, false
	}
	return data, true
}

// Get returns the data stored under key. It returns ErrMiss when there is no
// entry or the entry is short, corrupt or was written for another key.
func (d *Dir) Get(ctx context.Context, key string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	_, file := d.entryPath(key)
	b, err := os.ReadFile(file)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, ErrMiss
		}
		return nil, fmt.Errorf("diskcache: read entry: %w", err)
	}
	data, ok := decode(key, b)
	if !ok {
		return nil, ErrMiss
	}
	return data, nil
}

// Put stores data under key, replacing any previous entry atomically. If ctx
// is done before the entry is in place, the previous entry is left as it was.
func (d *Dir) Put(ctx context.Context, key string, data []byte) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	dir, file := d.entryPath(key)
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("diskcache: create entry directory: %w", err)
	}
	tmp, err := os.CreateTemp(dir, tempPrefix+"*")
	if err != nil {
		return fmt.Errorf("diskcache: create temp file: %w", err)
	}
	tmpName := tmp.Name()
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmpName)
		}
	}()
	// Header and data are written apart so that a large entry is not
	// copied into one buffer first.
	if _, err := tmp.Write(header(key, data)); err != nil {
		return fmt.Errorf("diskcache: write entry: %w", err)
	}
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("diskcache: write entry: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("diskcache: sync entry: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("diskcache: close entry: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := os.Rename(tmpName, file); err != nil {
		return fmt.Errorf("diskcache: install entry: %w", err)
	}
	syncDir(dir)
	return nil
}

// syncDir makes a rename in dir durable where the platform allows it. It is
// best effort: the entry is already in place and readable.
func syncDir(dir string) {
	f, err := os.Open(dir)
	if err != nil {
		return
	}
	f.Sync()
	f.Close()
}
