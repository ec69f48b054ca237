// Package diskcache stores opaque blobs under string keys in one directory.
//
// Each key maps to a file named by the SHA-256 of the key, fanned out into a
// two-hex-digit subdirectory, so a key is never used as a path. Every entry
// carries a header (magic, version, data length and a SHA-256 of the key and
// the data) that Get verifies; a short, corrupt or foreign entry is a miss.
// Put writes a temporary file, syncs it and renames it over the entry, so a
// reader sees either the old entry, the new one, or none.
package diskcache

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// ErrMiss is returned by Get when the key has no valid entry.
var ErrMiss = errors.New("diskcache: miss")

// Entry layout: magic (4 bytes), version (4 bytes, big endian), data length
// (8 bytes, big endian), SHA-256 of the key and the data (32 bytes), data.
const (
	magic      = "E13C"
	version    = 1
	headerSize = 4 + 4 + 8 + sha256.Size

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

// checksum returns the SHA-256 of key and data, with the key length first so
// that no two (key, data) pairs share an input.
func checksum(key string, data []byte) [sha256.Size]byte {
	h := sha256.New()
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(key)))
	h.Write(n[:])
	h.Write([]byte(key))
	h.Write(data)
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}

// encode returns the entry bytes for key and data.
func encode(key string, data []byte) []byte {
	buf := make([]byte, headerSize, headerSize+len(data))
	copy(buf, magic)
	binary.BigEndian.PutUint32(buf[4:], version)
	binary.BigEndian.PutUint64(buf[8:], uint64(len(data)))
	sum := checksum(key, data)
	copy(buf[16:], sum[:])
	return append(buf, data...)
}

// decode returns the data of entry b if it is a whole, valid entry for key.
func decode(key string, b []byte) ([]byte, bool) {
	if len(b) < headerSize || string(b[:4]) != magic || binary.BigEndian.Uint32(b[4:]) != version {
		return nil, false
	}
	data := b[headerSize:]
	if binary.BigEndian.Uint64(b[8:]) != uint64(len(data)) {
		return nil, false
	}
	sum := checksum(key, data)
	if !bytes.Equal(b[16:headerSize], sum[:]) {
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
	if _, err := tmp.Write(encode(key, data)); err != nil {
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
