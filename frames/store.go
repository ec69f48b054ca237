package frames

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/access"
	"github.com/edgar13f/edgar13f/internal/docerr"
	"github.com/edgar13f/edgar13f/internal/factstore"
	"github.com/edgar13f/edgar13f/internal/progresslimit"
)

// ZipURL is EDGAR's bulk file of every filer's company facts, republished
// nightly (about 1.3 GB).
const ZipURL = "https://www.sec.gov/Archives/edgar/daily-index/xbrl/companyfacts.zip"

// CompanyURL is the URL of one company's facts in the companyfacts API;
// append CIK##########.json.
const CompanyURL = "https://data.sec.gov/api/xbrl/companyfacts/"

// A Store holds a snapshot of company facts as Apache Parquet files and
// answers frames from it. It is safe for concurrent use by multiple
// goroutines; imports run one at a time, across processes too.
type Store struct {
	layer *access.Layer // nil for a store opened with OpenDir
	st    *factstore.Store
}

// Open opens the frames store of c, creating it if needed, and finishes or
// rolls back an import a crash interrupted. The store shares c's access
// layer (User-Agent, request spacing, retries) and lives under c's cache
// directory (a folder per source: a store imported from a test mirror
// never answers a Client reading live EDGAR), so c needs a cache on disk
// (the default, or [edgar13f.WithCacheDir]).
func Open(c *edgar13f.Client) (*Store, error) {
	if c == nil {
		return nil, errors.New(docerr.Prefix + "frames.Open: nil Client")
	}
	layer := accessOf(c)
	dir := layer.Dir()
	if dir == "" {
		return nil, errors.New(docerr.Prefix + "frames need a cache directory on disk (see edgar13f.WithCacheDir)")
	}
	sum := sha256.Sum256([]byte(layer.Source()))
	root := filepath.Join(dir, "frames", hex.EncodeToString(sum[:12]))
	s, err := OpenDir(filepath.Join(root, "store"))
	if err != nil {
		return nil, err
	}
	_ = os.WriteFile(filepath.Join(root, "SOURCE"), []byte(layer.Source()+"\n"), 0o644)
	s.layer = layer
	return s, nil
}

// OpenDir opens the frames store in dir, creating it if needed, without a
// Client: it imports local files ([Store.ImportFile]) and answers frames,
// but cannot fetch from EDGAR.
func OpenDir(dir string) (*Store, error) {
	st, err := factstore.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("%s%w", docerr.Prefix, err)
	}
	return &Store{st: st}, nil
}

// Dir returns the directory of the Parquet store, laid out for engines
// (DuckDB, Spark, Trino): facts/*.parquet (one row per fact occurrence:
// cik, taxonomy, tag, unit, start (null for an instant), end, value_text
// (the value exactly as filed), value (the same as a double), accn, fy,
// fp, form, filed), entities/part-00000.parquet (cik, entity_name),
// tags/part-00000.parquet (each taxonomy, tag and unit with its count of
// facts and first filed date) and _snapshot.json, the commit record. A
// snapshot found damaged is moved aside into .quarantine/.
func (s *Store) Dir() string { return s.st.Dir() }

// An ImportOption configures an import: [ReportProgress].
type ImportOption interface{ applyImport(*importOptions) }

type importOption func(*importOptions)

func (f importOption) applyImport(o *importOptions) { f(o) }

type importOptions struct {
	progress func(edgar13f.Progress)
	confirm  func(what string) error
}

// ReportProgress has f called as an import advances, with the
// [edgar13f.Progress] every long task of the module reports, Window set
// to the source ("companyfacts.zip" or "companyfacts API"): stage
// "download" (bytes, when fetching), "facts" (bytes of JSON read),
// "sorting" (facts written) and "done", each reported when it begins,
// at every whole percent and when it ends.
func ReportProgress(f func(edgar13f.Progress)) ImportOption {
	return importOption(func(o *importOptions) { o.progress = f })
}

// ConfirmImport has f called by [Store.Sync] and [Store.SyncCompanies]
// before anything is fetched, with what is about to be downloaded (the
// bulk zip, about 1.3 GB from EDGAR, or n companies' documents). When f
// returns an error nothing is fetched and that error is returned.
func ConfirmImport(f func(what string) error) ImportOption {
	return importOption(func(o *importOptions) { o.confirm = f })
}

// options applies opts; the progress function it returns is limited as
// ReportProgress says, for one call of Sync, ImportFile or SyncCompanies.
func options(opts []ImportOption) importOptions {
	var o importOptions
	for _, opt := range opts {
		if opt != nil {
			opt.applyImport(&o)
		}
	}
	if o.progress != nil {
		o.progress = progresslimit.Limit(o.progress)
	}
	return o
}

// An ImportResult describes a finished import.
type ImportResult struct {
	Source      string        // "companyfacts.zip", a file name, or "companyfacts API"
	Companies   int           // companies imported
	Facts       int64         // fact occurrences stored
	Skipped     int64         // facts dated before 1970-01-02, not stored
	JSONBytes   int64         // bytes of companyfacts JSON read
	Bytes       int64         // bytes written to the store
	DataThrough edgar13f.Date // the latest filed date of the snapshot
}

// Sync fetches EDGAR's bulk companyfacts.zip (about 1.3 GB) as one request
// through the Client's access layer, streaming it into the cache
// directory, imports it as the store's snapshot (replacing the one there)
// and removes the zip. It needs a store opened with [Open].
func (s *Store) Sync(ctx context.Context, opts ...ImportOption) (ImportResult, error) {
	o := options(opts)
	if s.layer == nil {
		return ImportResult{}, errors.New(docerr.Prefix + "frames: a store opened with OpenDir cannot fetch: open it with frames.Open(client), or import a local file with ImportFile")
	}
	if o.confirm != nil {
		if err := o.confirm("EDGAR's bulk XBRL file " + ZipURL + " (about 1.3 GB)"); err != nil {
			return ImportResult{}, err
		}
	}
	const name = "companyfacts.zip"
	if o.progress != nil {
		o.progress(edgar13f.Progress{Window: name, Stage: "download", Index: 1, Count: 1})
	}
	f, err := s.layer.Download(ctx, ZipURL, true)
	if err != nil {
		return ImportResult{}, err
	}
	if o.progress != nil {
		o.progress(edgar13f.Progress{Window: name, Stage: "download", Done: f.Size, Total: f.Size, Index: 1, Count: 1})
	}
	r, err := s.importZip(ctx, f.Path, name, o)
	if err == nil {
		os.Remove(f.Path)
	}
	return r, err
}

// ImportFile imports a companyfacts.zip from a local file as the store's
// snapshot, replacing the one there.
func (s *Store) ImportFile(ctx context.Context, path string, opts ...ImportOption) (ImportResult, error) {
	return s.importZip(ctx, path, filepath.Base(path), options(opts))
}

func (s *Store) importZip(ctx context.Context, path, name string, o importOptions) (ImportResult, error) {
	f, err := os.Open(path)
	if err != nil {
		return ImportResult{}, fmt.Errorf("%s%v", docerr.Prefix, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return ImportResult{}, fmt.Errorf("%s%v", docerr.Prefix, err)
	}
	members, err := factstore.ZipMembers(f, st.Size(), name)
	if err != nil {
		return ImportResult{}, fmt.Errorf("%s%w", docerr.Prefix, err)
	}
	return s.importMembers(ctx, members, name, o)
}

// SyncCompanies fetches the companyfacts API document of each CIK (1-10
// digits; leading zeros optional), one request each through the Client's
// access layer, streamed to files of the cache directory, and imports them
// as the store's snapshot, replacing the one there: the snapshot then
// holds these companies only. A malformed CIK declines invalid_argument;
// a CIK EDGAR has no company facts for fails the sync, naming it, before
// anything is imported.
func (s *Store) SyncCompanies(ctx context.Context, ciks []string, opts ...ImportOption) (ImportResult, error) {
	o := options(opts)
	if len(ciks) == 0 {
		return ImportResult{}, edgar13f.Decline(edgar13f.InvalidArgument, "no CIK to import")
	}
	seen := map[int64]bool{}
	var nums []int64
	for _, c := range ciks {
		n, ok := parseCIK(c)
		if !ok {
			return ImportResult{}, edgar13f.Decline(edgar13f.InvalidArgument, "CIK %q is not 1-10 ASCII digits", c)
		}
		if !seen[n] {
			seen[n] = true
			nums = append(nums, n)
		}
	}
	if s.layer == nil {
		return ImportResult{}, errors.New(docerr.Prefix + "frames: a store opened with OpenDir cannot fetch: open it with frames.Open(client)")
	}
	if o.confirm != nil {
		if err := o.confirm(fmt.Sprintf("the companyfacts API documents of %d companies", len(nums))); err != nil {
			return ImportResult{}, err
		}
	}
	const name = "companyfacts API"
	var members []factstore.Member
	var files []string
	for i, n := range nums {
		doc := fmt.Sprintf("CIK%010d.json", n)
		if o.progress != nil {
			o.progress(edgar13f.Progress{Window: name, Stage: "download", Done: int64(i), Total: int64(len(nums)), Index: 1, Count: 1})
		}
		f, err := s.layer.Download(ctx, CompanyURL+doc, true)
		if err != nil {
			return ImportResult{}, docerr.Wrap(fmt.Sprintf("CIK %d", n), err)
		}
		files = append(files, f.Path)
		path := f.Path
		members = append(members, factstore.Member{Name: doc, Size: f.Size, Open: func() (io.ReadCloser, error) { return os.Open(path) }})
	}
	if o.progress != nil {
		o.progress(edgar13f.Progress{Window: name, Stage: "download", Done: int64(len(nums)), Total: int64(len(nums)), Index: 1, Count: 1})
	}
	r, err := s.importMembers(ctx, members, name, o)
	if err == nil {
		for _, p := range files {
			os.Remove(p)
		}
	}
	return r, err
}

func (s *Store) importMembers(ctx context.Context, members []factstore.Member, name string, o importOptions) (ImportResult, error) {
	opt := factstore.Options{Source: name, PartBytes: partBytes}
	if o.progress != nil {
		opt.Progress = func(p factstore.Progress) {
			o.progress(edgar13f.Progress{Window: name, Stage: p.Phase, Done: p.Done, Total: p.Total, Index: 1, Count: 1})
		}
	}
	st, err := s.st.Import(ctx, members, opt)
	if err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return ImportResult{}, cerr
		}
		return ImportResult{}, fmt.Errorf("%simport %s: %w", docerr.Prefix, name, err)
	}
	r := ImportResult{Source: name, Companies: st.Companies, Facts: st.Facts, Skipped: st.Skipped, JSONBytes: st.SourceBytes, Bytes: st.Bytes}
	if st.DataThrough != "" {
		r.DataThrough, _ = edgar13f.ParseDate(st.DataThrough)
	}
	return r, nil
}

// partBytes is the JSON bytes per facts part of an import (0: the
// store's default); tests make it small to cut many parts.
var partBytes int64

// parseCIK reads 1-10 ASCII digits, not all zeros.
func parseCIK(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	if len(s) < 1 || len(s) > 10 {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil && n > 0
}
