package wire

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/mirror"
)

// MirrorWatch reads a mirror tree (the fixture directory) as the library's
// own mirror.Fetcher does, and notes the company files the tree lacks, so
// that a decline the library gives for a missing file ("EDGAR has no
// filer") can be said to be what it is: the mirror lacks the company.
// Every example program reads its fixture directory through one.
type MirrorWatch struct {
	f *mirror.Fetcher // reads the tree; its Source names the cache's source

	dir string // absolute, for messages
}

// NewMirrorWatch returns the watch of the mirror tree of c's fixture
// directory (the tree c opened and checked once: [Config.Mirror]), or nil
// without one.
func NewMirrorWatch(c Config) (*MirrorWatch, error) {
	fsys, err := c.Mirror()
	if err != nil || fsys == nil {
		return nil, err
	}
	abs, err := filepath.Abs(c.FixtureDir)
	if err != nil {
		abs = c.FixtureDir
	}
	return &MirrorWatch{f: mirror.NewFetcher(fsys), dir: abs}, nil
}

// missing are the mirror paths one question looked for and did not find.
type missing struct {
	mu    sync.Mutex
	paths []string
}

type missingKey struct{}

// Watch returns ctx that notes the files a question asked with it looks
// for in the tree and does not find, for [MirrorWatch.Lacks]: each
// question (a command, a tool call, a request) is watched on its own.
func Watch(ctx context.Context) context.Context {
	return context.WithValue(ctx, missingKey{}, &missing{})
}

// Source names the tree, so that the cache keeps its entries apart from
// live EDGAR's and every other tree's.
func (m *MirrorWatch) Source() string { return m.f.Source() }

// Fetch reads url from the tree, noting it on the question's context
// ([Watch]) when the tree has no file of it.
func (m *MirrorWatch) Fetch(ctx context.Context, url string) ([]byte, error) {
	b, err := m.f.Fetch(ctx, url)
	if errors.Is(err, edgar13f.ErrNotFound) {
		if ms, ok := ctx.Value(missingKey{}).(*missing); ok {
			ms.mu.Lock()
			ms.paths = append(ms.paths, strings.TrimPrefix(url, "https://"))
			ms.mu.Unlock()
		}
	}
	return b, err
}

// companyFiles are the mirror paths of a company's own files: a missing
// one makes the library decline as if EDGAR had no such company.
var companyFiles = []string{"data.sec.gov/submissions/", "data.sec.gov/api/xbrl/companyfacts/"}

// Lacks returns, for a decline saying EDGAR has no such company given to
// the question of ctx ([Watch]) after a company's file was missing from
// the tree, the failure saying that the mirror lacks the company and
// which file was looked for; else nil (also for a nil watch).
func (m *MirrorWatch) Lacks(ctx context.Context, d *edgar13f.DeclineError) error {
	ms, ok := ctx.Value(missingKey{}).(*missing)
	if m == nil || d == nil || d.Reason != edgar13f.UnknownCIK || !ok {
		return nil
	}
	ms.mu.Lock()
	defer ms.mu.Unlock()
	var files []string
	for _, p := range ms.paths {
		for _, prefix := range companyFiles {
			if strings.HasPrefix(p, prefix) && !slices.Contains(files, p) {
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
