package access

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/edgar13f/edgar13f/internal/docerr"
	"github.com/edgar13f/edgar13f/internal/mirror"
)

// downloadDir is the folder of the cache directory that holds downloads:
// downloadDir/<source id>/HOST/PATH, the mirror layout under a folder of
// each source.
const downloadDir = "download"

// sourceFile, in the folder of a source, names the source in full.
const sourceFile = "SOURCE"

// tempPrefix starts the name of a download being written; staleTemp is
// the age past which one left by a crashed process is removed.
const (
	tempPrefix = ".tmp-"
	staleTemp  = 24 * time.Hour
)

// A File is a document downloaded into the cache directory.
type File struct {
	Path    string    // the file, complete: only a whole document is ever put here
	Size    int64     // its length in bytes
	Fetched time.Time // when it was downloaded (the file's modification time)
	Reused  bool      // an earlier download was returned; nothing was fetched
}

// ErrCannotDownload is wrapped by the error of a Download that has nowhere
// to put the file: the Layer has no cache directory, or its Fetcher names
// no source (implement Source() string to download through a Fetcher).
var ErrCannotDownload = errors.New(docerr.Prefix + "cannot download")

// Download fetches the document at url into a file of the cache directory
// and returns it, streaming it there without holding it in memory: the
// fetch for a ~100 MB Data Sets zip. It goes through the Layer's fetcher
// like Fetch: the User-Agent, the spacing of request starts, retries (a
// body cut short is fetched again whole) and the size limit of its kind
// ([MaxBytes]). The file is written atomically (a temporary file, synced,
// then renamed into place), so a failed or interrupted download leaves no
// file and any earlier copy as it was.
//
// The file lies under the folder of the Layer's source (provenance: a copy
// read from one source is never returned to a Layer reading another) at
// the URL's mirror path, e.g. .../www.sec.gov/files/.../2024q1_form13f.zip.
// An earlier copy is returned as it is, without a request, unless refresh
// is set: a document at an unchanged URL can be republished (a Data Sets
// window can be), and the caller, who knows when that happens, decides.
// Concurrent Downloads of one url by one Layer make one request.
func (l *Layer) Download(ctx context.Context, url string, refresh bool) (File, error) {
	if l.dir == "" {
		why := "no cache directory"
		if l.source == "fetcher:unnamed" {
			why = "the Fetcher names no source (implement Source() string)"
		}
		return File{}, fmt.Errorf("%w %s: %s", ErrCannotDownload, url, why)
	}
	rel, err := mirror.PathFor(url)
	if err != nil {
		return File{}, fmt.Errorf("%sdownload %s: %v", docerr.Prefix, url, err)
	}
	folder := filepath.Join(l.dir, downloadDir, sourceID(l.source))
	path := filepath.Join(folder, filepath.FromSlash(rel))
	if !refresh {
		if f, ok := existing(path); ok {
			return f, nil
		}
	}
	key := fmt.Sprintf("download|%t|%s", refresh, url)
	v, err := l.Shared(ctx, key, func() (any, error) {
		if err := nameSource(folder, l.source); err != nil {
			return File{}, err
		}
		return l.download(ctx, url, path)
	})
	if err != nil {
		return File{}, err
	}
	return v.(File), nil
}

// sourceID names the folder of a source: a hash, since a source name (a
// base URL, a directory) is no file name.
func sourceID(source string) string {
	sum := sha256.Sum256([]byte(source))
	return hex.EncodeToString(sum[:8])
}

// existing returns the file at path if there is one.
func existing(path string) (File, bool) {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return File{}, false
	}
	return File{Path: path, Size: fi.Size(), Fetched: fi.ModTime(), Reused: true}, true
}

// nameSource writes the SOURCE file of a source's folder unless it is
// there, so that a person looking at the cache can tell where a download
// came from.
func nameSource(folder, source string) error {
	if _, err := os.Stat(filepath.Join(folder, sourceFile)); err == nil {
		return nil
	}
	if err := os.MkdirAll(folder, 0o700); err != nil {
		return fmt.Errorf("%sdownload: %v", docerr.Prefix, err)
	}
	return writeAtomic(filepath.Join(folder, sourceFile), func(f *os.File) error {
		_, err := f.WriteString(source + "\n")
		return err
	})
}

// download fetches url into path.
func (l *Layer) download(ctx context.Context, url, path string) (File, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return File{}, fmt.Errorf("%sdownload %s: %v", docerr.Prefix, url, err)
	}
	removeStaleTemps(filepath.Dir(path))
	var size int64
	err := writeAtomic(path, func(f *os.File) error {
		sink := &fileSink{f: f}
		if err := l.fetch.download(ctx, url, sink); err != nil {
			return err
		}
		size = sink.n
		return ctx.Err()
	})
	if err != nil {
		return File{}, err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return File{}, fmt.Errorf("%sdownload %s: %v", docerr.Prefix, url, err)
	}
	return File{Path: path, Size: size, Fetched: fi.ModTime()}, nil
}

// writeAtomic writes the file at path through write: into a temporary file
// beside it, synced, then renamed over path. When write fails, nothing is
// left and path is as it was.
func writeAtomic(path string, write func(f *os.File) error) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, tempPrefix+"*")
	if err != nil {
		return fmt.Errorf("%s%v", docerr.Prefix, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err := write(f); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("%ssync %s: %v", docerr.Prefix, f.Name(), err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("%sclose %s: %v", docerr.Prefix, f.Name(), err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("%sinstall %s: %v", docerr.Prefix, path, err)
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync() // best effort: the file is in place and whole
		d.Close()
	}
	return nil
}

// removeStaleTemps removes the temporary files in dir that a crashed
// process left over a day ago (a download in progress elsewhere is newer).
func removeStaleTemps(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), tempPrefix) {
			continue
		}
		if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > staleTemp {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// A fileSink is an edgarhttp.Sink over a temporary file.
type fileSink struct {
	f *os.File
	n int64
}

func (s *fileSink) Write(p []byte) (int, error) {
	n, err := s.f.Write(p)
	s.n += int64(n)
	return n, err
}

// Reset empties the file for another attempt.
func (s *fileSink) Reset() error {
	s.n = 0
	if err := s.f.Truncate(0); err != nil {
		return err
	}
	_, err := s.f.Seek(0, 0)
	return err
}
