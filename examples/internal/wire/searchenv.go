package wire

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/search"
	"github.com/edgar13f/edgar13f/search/store"
	"github.com/edgar13f/edgar13f/search/store/embedded"
)

// Embedder returns the filing search's embedder that the EDGAR13F_EMBED_*
// settings name, or nil when EmbedURL is empty (BM25 only). A URL without
// a model, or of no known form, is an error saying what to set. A model
// local:MODEL (without a URL) is the local embedder ([LocalPrefix]).
func (c Config) Embedder() (search.Embedder, error) {
	if strings.HasPrefix(strings.TrimSpace(c.EmbedModel), LocalPrefix) {
		return c.localEmbedder()
	}
	e, err := search.ParseEmbedderConfig(c.EmbedURL, c.EmbedModel, c.EmbedAPIKey)
	if err != nil {
		return nil, fmt.Errorf("the filing search's embedder (EDGAR13F_EMBED_URL, EDGAR13F_EMBED_MODEL): %s", strings.TrimPrefix(err.Error(), "edgar13f/search: "))
	}
	return e, nil
}

// cacheRoot returns the cache directory the Client of c uses: CacheDir, or
// the library's documented default (see edgar13f.WithCacheDir).
func (c Config) cacheRoot() (string, error) {
	dir := c.CacheDir
	if dir == "" {
		if d, err := os.UserCacheDir(); err == nil && d != "" {
			dir = filepath.Join(d, "edgar13f")
		} else {
			dir = filepath.Join(os.TempDir(), "edgar13f-"+strconv.Itoa(os.Getuid()))
		}
	}
	return filepath.Abs(dir)
}

// SearchDir returns the directory of the filing search's store: under the
// cache directory, search/edgar for filings read from EDGAR, and a
// directory of its own for each mirror tree (search/mirror-HASH) and each
// HTTP mirror (search/base-HASH), so that a store never mixes the filings
// of two sources (as the Client's cache keeps their entries apart).
func (c Config) SearchDir() (string, error) {
	root, err := c.cacheRoot()
	if err != nil {
		return "", err
	}
	name := "edgar"
	switch {
	case c.FixtureDir != "":
		abs, err := filepath.Abs(c.FixtureDir)
		if err != nil {
			return "", err
		}
		name = "mirror-" + shortHash(abs)
	case c.BaseURL != "":
		name = "base-" + shortHash(strings.TrimRight(c.BaseURL, "/"))
	}
	return filepath.Join(root, "search", name), nil
}

func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return fmt.Sprintf("%x", sum[:6])
}

// A Search is a binary's filing search: the engine over the embedded
// store in SearchDir, or over the OpenSearch store of the
// EDGAR13F_OPENSEARCH_* settings.
type Search struct {
	Engine   *search.Engine
	Store    store.Store
	Dir      string          // the embedded store's directory, or the cluster and indices of the OpenSearch store
	Embedder search.Embedder // nil: BM25 only
}

// OpenSearch opens the store of c's settings (creating its directory when
// needed) and returns the engine reading EDGAR through client and
// embedding with the embedder the settings name. Long work of opening the
// embedded store (migrating a store of an earlier release, making its
// vectors' one-byte copies) is reported on standard error, a line at
// each tenth of a stage (see [OpenSearchReporting]).
func OpenSearch(client *edgar13f.Client, c Config) (*Search, error) {
	return OpenSearchReporting(client, c, stderrLines())
}

// OpenSearchReporting is [OpenSearch] reporting the long work of opening
// the embedded store to report, as a step and its current line, each
// report of one step replacing the last. With report nil it reports
// nothing, and the first kNN query makes the vectors' one-byte copies the
// store lacks.
func OpenSearchReporting(client *edgar13f.Client, c Config, report func(step, line string)) (*Search, error) {
	emb, err := c.Embedder()
	if err != nil {
		return nil, err
	}
	var (
		st  store.Store
		dir string
	)
	if c.OpenSearch.URL != "" {
		st, dir, err = c.openOpenSearch()
		if err != nil {
			return nil, err
		}
	} else {
		dir, err = c.SearchDir()
		if err != nil {
			return nil, err
		}
		var eopts []embedded.Option
		if report != nil {
			eopts = append(eopts, embedded.Progress(storeProgress(report)))
		}
		est, err := embedded.Open(dir, eopts...)
		if err != nil {
			return nil, fmt.Errorf("the filing search store in %s: %w", dir, err)
		}
		st = est
		c.recordSource(dir)
	}
	var opts []search.Option
	if emb != nil {
		opts = append(opts, search.WithEmbedder(emb))
	}
	e, err := search.New(client, st, opts...)
	if err != nil {
		st.Close()
		return nil, err
	}
	return &Search{Engine: e, Store: st, Dir: dir, Embedder: emb}, nil
}

// Close closes the store.
func (s *Search) Close() error { return s.Store.Close() }

// A SearchSource is what a filing search store's filings were read from,
// recorded beside the store (in DIR.source.json) when it is opened.
type SearchSource struct {
	FixtureDir string `json:"fixture_dir,omitempty"` // a mirror tree, absolute
	BaseURL    string `json:"base_url,omitempty"`    // an HTTP mirror
}

// sourceFile is the file beside the store in dir recording its source.
func sourceFile(dir string) string { return dir + ".source.json" }

// source returns the source of c's settings.
func (c Config) source() SearchSource {
	switch {
	case c.FixtureDir != "":
		abs, err := filepath.Abs(c.FixtureDir)
		if err != nil {
			abs = c.FixtureDir
		}
		return SearchSource{FixtureDir: abs}
	case c.BaseURL != "":
		return SearchSource{BaseURL: strings.TrimRight(c.BaseURL, "/")}
	}
	return SearchSource{}
}

// recordSource writes the source of the store in dir beside it when it
// is not recorded yet; a store that cannot be described is no failure.
func (c Config) recordSource(dir string) {
	if _, err := os.Stat(sourceFile(dir)); !errors.Is(err, fs.ErrNotExist) {
		return
	}
	b, err := json.Marshal(c.source())
	if err == nil {
		_ = os.WriteFile(sourceFile(dir), append(b, '\n'), 0o644)
	}
}

// describe says, for a message, which settings a source is read with.
func (c Config) describe(s *SearchSource) string {
	switch {
	case s == nil:
		return "source not recorded"
	case s.FixtureDir != "":
		return "the mirror tree " + s.FixtureDir + ", " + label("EDGAR13F_FIXTURE_DIR")
	case s.BaseURL != "":
		return "the HTTP mirror " + s.BaseURL + ", " + label("EDGAR13F_BASE_URL")
	}
	return "EDGAR itself, neither " + label("EDGAR13F_FIXTURE_DIR") + " nor " + label("EDGAR13F_BASE_URL") + " set"
}

// CheckSearchStore returns nil when the filing search store of c's
// settings exists, and otherwise, creating nothing, an error saying so and
// which stores exist under the cache directory, each with the source it
// was built from (when recorded): a search with other settings than the
// index was built with (another --fixture-dir, say) finds another store.
func (c Config) CheckSearchStore() error {
	if c.OpenSearch.URL != "" {
		return nil // the cluster's store answers for itself
	}
	dir, err := c.SearchDir()
	if err != nil {
		return err
	}
	if st, err := os.Stat(dir); err == nil && st.IsDir() {
		return nil
	}
	root := filepath.Dir(dir)
	ents, _ := os.ReadDir(root)
	var have []string
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		var src *SearchSource
		if b, err := os.ReadFile(sourceFile(filepath.Join(root, e.Name()))); err == nil {
			src = new(SearchSource)
			if json.Unmarshal(b, src) != nil {
				src = nil
			}
		}
		have = append(have, fmt.Sprintf("%s (filings read from %s)", filepath.Join(root, e.Name()), c.describe(src)))
	}
	src := c.source()
	msg := fmt.Sprintf("no filing search index for these settings (filings read from %s): %s does not exist; build it with the index command and the same settings",
		c.describe(&src), dir)
	if len(have) == 0 {
		return errors.New(msg + "; no index exists under " + root)
	}
	return fmt.Errorf("%s, or search one that exists: %s", msg, strings.Join(have, "; "))
}

// storeProgress passes to report the embedded store's reports of long
// work: the making of its vectors' one-byte copies and of its filings'
// BM25 term tables, and the reading of filings its manifest does not
// describe (a store of an earlier release); reading the filings the manifest describes is quick, and not
// reported. Of each stage it passes the first report, one at each further
// tenth of the stage and the last.
func storeProgress(report func(step, line string)) func(embedded.OpenProgress) {
	stage, tenth := embedded.OpenStage(-1), -1
	return func(p embedded.OpenProgress) {
		if p.Stage == embedded.StageFilings && p.Read == 0 || p.Total == 0 {
			return
		}
		t := p.Done * 10 / p.Total
		if p.Stage == stage && t == tenth {
			return
		}
		stage, tenth = p.Stage, t
		report(fmt.Sprint("open-store-", int(p.Stage)), "opening the filing search store: "+p.String())
	}
}

// stderrLines returns a report writing each line to standard error.
func stderrLines() func(step, line string) {
	return func(_, line string) { fmt.Fprintln(os.Stderr, line) }
}
