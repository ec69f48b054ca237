package mirror_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/mirror"
)

// multiGB is the size of the largest hostile file.
const multiGB = 5 << 30

// bigFS is a file system holding one file of a given size made of spaces.
type bigFS struct {
	name string
	size int64
}

func (b bigFS) Open(name string) (fs.File, error) {
	if name != b.name {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return &bigFile{bigFS: b}, nil
}

type bigFile struct {
	bigFS
	off int64
}

func (f *bigFile) Stat() (fs.FileInfo, error) { return bigInfo{f.bigFS}, nil }
func (f *bigFile) Close() error               { return nil }
func (f *bigFile) Read(p []byte) (int, error) {
	if f.off >= f.size {
		return 0, io.EOF
	}
	n := int(min(int64(len(p)), f.size-f.off))
	for i := range p[:n] {
		p[i] = ' '
	}
	f.off += int64(n)
	return n, nil
}

type bigInfo struct{ bigFS }

func (i bigInfo) Name() string     { return filepath.Base(i.name) }
func (i bigInfo) Size() int64      { return i.size }
func (bigInfo) Mode() fs.FileMode  { return 0o444 }
func (bigInfo) ModTime() time.Time { return time.Time{} }
func (bigInfo) IsDir() bool        { return false }
func (bigInfo) Sys() any           { return nil }

// TestMirrorFetcherSizeLimits checks that mirror.Fetcher refuses files over
// the limit of their kind without reading them, and reads files within it.
func TestMirrorFetcherSizeLimits(t *testing.T) {
	tests := []struct {
		url     string
		size    int64
		tooBig  bool
		maxRead int64
	}{
		{"https://www.sec.gov/Archives/edgar/data/1/000000000125000001/0000000001-25-000001.txt", multiGB, true, 0},
		{"https://data.sec.gov/submissions/CIK0000000001.json", 64<<20 + 1, true, 0},
		{"https://data.sec.gov/submissions/CIK0000000001.json", 1 << 20, false, 1 << 20},
		{"https://www.sec.gov/Archives/edgar/data/1/000000000125000001/primary_doc.xml", 16<<20 + 1, true, 0},
		{"https://www.sec.gov/Archives/edgar/data/1/000000000125000001/primary_doc.xml", 16 << 20, false, 16 << 20},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(filepath.Base(tt.url), "/", tt.size), func(t *testing.T) {
			name := strings.TrimPrefix(strings.TrimPrefix(tt.url, "https://"), "/")
			f := mirror.NewFetcher(bigFS{name: name, size: tt.size})
			b, err := f.Fetch(context.Background(), tt.url)
			if got := errors.Is(err, edgar13f.ErrTooLarge); got != tt.tooBig {
				t.Fatalf("Fetch: %v; ErrTooLarge %v, want %v", err, got, tt.tooBig)
			}
			if int64(len(b)) != tt.maxRead {
				t.Errorf("Fetch read %d bytes, want %d", len(b), tt.maxRead)
			}
		})
	}
}

// TestMirrorDirNotATree: a directory holding no EDGAR host's directory is
// refused, saying it is not a mirror tree, rather than read as a mirror in
// which no CIK exists.
func TestMirrorDirNotATree(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "CIK0001067983.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "www.sec.gov"), nil, 0o644); err != nil { // a file, not a host's directory
		t.Fatal(err)
	}
	if _, err := mirror.Dir(dir); err == nil || !strings.Contains(err.Error(), dir+" is not an EDGAR mirror tree") {
		t.Errorf("mirror.Dir of a directory without hosts: %v, want an error saying it is not a mirror tree", err)
	}
	if err := os.Mkdir(filepath.Join(dir, "data.sec.gov"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := mirror.Dir(dir); err != nil {
		t.Errorf("mirror.Dir of a tree with data.sec.gov: %v", err)
	}
}
