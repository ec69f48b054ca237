package wire

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/search"
	"github.com/edgar13f/edgar13f/search/store"
)

// fakeLocal replaces the local embedder's constructor for one test with
// hashing embedders named by the model, and forgets those made.
func fakeLocal(t *testing.T) {
	t.Helper()
	saved := newLocal
	forget := func() {
		locals.Lock()
		locals.m = nil
		locals.Unlock()
	}
	forget()
	newLocal = func(model string) (search.Embedder, error) {
		return namedHash{search.HashEmbedder{Dim: 16}, model}, nil
	}
	t.Cleanup(func() { newLocal = saved; forget() })
}

// namedHash is a hashing embedder under another model name.
type namedHash struct {
	search.HashEmbedder
	name string
}

func (n namedHash) Model() string { return n.name }

func TestLocalModelWithURLRefused(t *testing.T) {
	fakeLocal(t)
	_, err := Config{EmbedURL: "http://127.0.0.1:1/v1", EmbedModel: "local:bge-small-en-v1.5"}.Embedder()
	if err == nil || !strings.Contains(err.Error(), "unset EDGAR13F_EMBED_URL") {
		t.Errorf("local model with a URL: %v; want a refusal naming EDGAR13F_EMBED_URL", err)
	}
	_, err = Config{EmbedModel: "local:"}.Embedder()
	if err == nil || !strings.Contains(err.Error(), "names no model") {
		t.Errorf("local: without a model: %v", err)
	}
}

func TestLocalModelSelectsLocalEmbedder(t *testing.T) {
	fakeLocal(t)
	c := Config{EmbedModel: " local:all-MiniLM-L6-v2-q "}
	e, err := c.Embedder()
	if err != nil {
		t.Fatal(err)
	}
	if e.Model() != "all-MiniLM-L6-v2-q" {
		t.Errorf("model %q; want all-MiniLM-L6-v2-q", e.Model())
	}
	if err := c.Check(); err != nil {
		t.Errorf("Check: %v", err)
	}
	if again, _ := c.Embedder(); again != e {
		t.Errorf("the settings read twice made two embedders; want the model loaded once")
	}
}

// A store built with another model is refused, naming both, when the
// settings switch to a local model (and back).
func TestStoreOfAnotherModelRefused(t *testing.T) {
	fakeLocal(t)
	cache := t.TempDir()
	asOf := edgar13f.MustParseDate("2025-08-15")
	index := func(c Config) error {
		t.Helper()
		c.FixtureDir, c.CacheDir = filepath.Join("..", "..", "..", "testdata", "mirror"), cache
		client, _, err := c.NewClient()
		if err != nil {
			t.Fatal(err)
		}
		s, err := OpenSearch(client, c)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		_, err = s.Engine.Index(context.Background(), []string{"AAPL"}, asOf, search.FormType("10-Q"))
		return err
	}
	if err := index(Config{EmbedURL: "hash:16"}); err != nil {
		t.Fatal(err)
	}
	for _, model := range []string{"local:bge-small-en-v1.5", "local:all-MiniLM-L6-v2"} {
		err := index(Config{EmbedModel: model})
		var me *store.MismatchError
		if !errors.As(err, &me) || !strings.Contains(err.Error(), "hash-16") || !strings.Contains(err.Error(), strings.TrimPrefix(model, "local:")) {
			t.Errorf("%s over a store of hash:16: %v; want a refusal naming both models", model, err)
		}
	}
}
