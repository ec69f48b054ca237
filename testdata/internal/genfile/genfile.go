// Package genfile writes the files of the test-data generators
// (testdata/mkmirror, testdata/mkdatasets) so that a second run changes
// nothing: a file that already holds the wanted bytes is left alone, and
// every other one is replaced atomically.
package genfile

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// A Writer writes generated files and counts what it wrote and what was
// already up to date. The zero Writer is ready to use.
type Writer struct {
	Written   int // files created or replaced
	Unchanged int // files that already held the wanted bytes
}

// Write makes the file at path hold exactly data (mode 0644), creating
// its directories. A file that already holds data is not touched; any
// other file there is replaced by a rename, so that a reader never sees a
// partial file and a read-only file is replaced too.
func (w *Writer) Write(path string, data []byte) error {
	old, err := os.ReadFile(path)
	if err == nil && bytes.Equal(old, data) {
		w.Unchanged++
		return nil
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := writeAtomic(path, data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	w.Written++
	return nil
}

func writeAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name()) // after a successful rename there is nothing to remove
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
