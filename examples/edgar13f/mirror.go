package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/examples/internal/wire"
)

// mirrorWatch reads a mirror tree (--fixture-dir) as the library's own
// MirrorFetcher does, and notes the company files the tree lacks, so that
// a decline the library gives for a missing file ("EDGAR has no filer")
// is said to be what it is: the mirror lacks the company.
type mirrorWatch struct {
	*edgar13f.MirrorFetcher // Fetch, and Source for the cache

	dir     string
	mu      sync.Mutex
	missing []string // mirror paths, in the order looked for
}

// newMirrorWatch returns the watch of the mirror tree of cfg's fixture
// directory, the tree cfg opened (and checked) once.
func newMirrorWatch(cfg wire.Config) (*mirrorWatch, error) {
	fsys, err := cfg.Mirror()
	if err != nil {
		return nil, err
	}
	dir := cfg.FixtureDir
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	return &mirrorWatch{MirrorFetcher: edgar13f.NewMirrorFetcher(fsys), dir: abs}, nil
}

// Fetch reads url from the tree, noting it when the tree has no file of it.
func (m *mirrorWatch) Fetch(ctx context.Context, url string) ([]byte, error) {
	b, err := m.MirrorFetcher.Fetch(ctx, url)
	if errors.Is(err, edgar13f.ErrNotFound) {
		m.mu.Lock()
		m.missing = append(m.missing, strings.TrimPrefix(url, "https://"))
		m.mu.Unlock()
	}
	return b, err
}

// companyFiles are the mirror paths of a company's own files: a missing
// one makes the library decline as if EDGAR had no such company.
var companyFiles = []string{"data.sec.gov/submissions/", "data.sec.gov/api/xbrl/companyfacts/"}

// lacks returns, for a decline saying EDGAR has no such company (or
// filed nothing by a date) given after a company's file was missing from
// the tree, the failure saying that the mirror lacks the company and
// which file was looked for; else nil.
func (m *mirrorWatch) lacks(d *edgar13f.DeclineError) error {
	if m == nil || d.Reason != edgar13f.UnknownCIK {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var files []string
	for _, p := range m.missing {
		for _, prefix := range companyFiles {
			if strings.HasPrefix(p, prefix) {
				files = append(files, p)
			}
		}
	}
	if len(files) == 0 {
		return nil
	}
	return fmt.Errorf("the mirror tree %s lacks this company: it has no file %s (this is not EDGAR's answer; EDGAR may well have the company)",
		m.dir, strings.Join(files, " or "))
}
