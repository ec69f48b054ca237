package wire

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/search"
	"github.com/edgar13f/edgar13f/search/store/embedded"
)

// EmbedderHelp describes the embedder settings, for the binaries' usage texts.
const EmbedderHelp = `  EDGAR13F_EMBED_URL      filing search embedder: an OpenAI-compatible base URL ending in /v1,
                          ollama:http://host:port, or hash:DIM (a hashing embedder that is not
                          semantic, for offline tests); unset: the search is BM25 only
  EDGAR13F_EMBED_MODEL    the embedding model, e.g. nomic-embed-text
  EDGAR13F_EMBED_API_KEY  optional API key sent to the embedder
`

// Embedder returns the filing search's embedder that the EDGAR13F_EMBED_*
// settings name, or nil when EmbedURL is empty (BM25 only). A URL without
// a model, or of no known form, is an error saying what to set.
func (c Config) Embedder() (search.Embedder, error) {
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
// store in SearchDir.
type Search struct {
	Engine   *search.Engine
	Store    *embedded.Store
	Dir      string
	Embedder search.Embedder // nil: BM25 only
}

// OpenSearch opens the store of c's settings (creating its directory when
// needed) and returns the engine reading EDGAR through client and
// embedding with the embedder the settings name.
func OpenSearch(client *edgar13f.Client, c Config) (*Search, error) {
	emb, err := c.Embedder()
	if err != nil {
		return nil, err
	}
	dir, err := c.SearchDir()
	if err != nil {
		return nil, err
	}
	st, err := embedded.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("the filing search store in %s: %w", dir, err)
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
