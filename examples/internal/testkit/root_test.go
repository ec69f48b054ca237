package testkit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMirrorIsTheRepositorys: from a package of the examples module (this
// one), Mirror is the repository's recorded mirror, not a testdata/mirror
// of the examples module, whose go.mod is the nearest one.
func TestMirrorIsTheRepositorys(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	want, err := filepath.Abs(filepath.Join(wd, "..", "..", "..", "testdata", "mirror"))
	if err != nil {
		t.Fatal(err)
	}
	if got := Mirror(); got != want {
		t.Errorf("Mirror() = %s, want %s", got, want)
	}
	if _, err := os.Stat(filepath.Join(Mirror(), "data.sec.gov")); err != nil {
		t.Errorf("the mirror holds no data.sec.gov: %v", err)
	}
}

// TestFindRoot walks up from a directory to the one whose go.mod declares
// the library's module, past go.mod files of other modules.
func TestFindRoot(t *testing.T) {
	tree := func(t *testing.T, files map[string]string) string {
		t.Helper()
		dir := t.TempDir()
		for name, text := range files {
			p := filepath.Join(dir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	repo := map[string]string{
		"go.mod":                     "module github.com/edgar13f/edgar13f\n\ngo 1.26.0\n",
		"examples/go.mod":            "module github.com/edgar13f/edgar13f/examples\n\nreplace github.com/edgar13f/edgar13f => ../\n",
		"examples/edgar13f/main.go":  "package main\n",
		"search/opensearch/go.mod":   "module github.com/edgar13f/edgar13f/search/opensearch\n",
		"search/opensearch/store.go": "package opensearch\n",
	}
	dir := tree(t, repo)
	for _, from := range []string{".", "examples", "examples/edgar13f", "search/opensearch"} {
		got, err := findRoot(filepath.Join(dir, filepath.FromSlash(from)))
		if err != nil || got != dir {
			t.Errorf("findRoot(%s) = %q, %v; want %q", from, got, err, dir)
		}
	}

	// A module line may be quoted and carry a comment.
	quoted := tree(t, map[string]string{
		"go.mod":          "// The library.\nmodule \"github.com/edgar13f/edgar13f\" // it\n",
		"examples/go.mod": "module github.com/edgar13f/edgar13f/examples\n",
	})
	if got, err := findRoot(filepath.Join(quoted, "examples")); err != nil || got != quoted {
		t.Errorf("quoted module line: findRoot = %q, %v; want %q", got, err, quoted)
	}

	// Without the library's go.mod above, there is no root: neither the
	// examples' own go.mod nor a module whose path merely starts alike
	// is taken for it.
	alone := tree(t, map[string]string{
		"go.mod":          "module github.com/edgar13f/edgar13fx\n",
		"examples/go.mod": "module github.com/edgar13f/edgar13f/examples\n",
	})
	if got, err := findRoot(filepath.Join(alone, "examples")); err == nil {
		t.Errorf("findRoot without the library's go.mod = %q, want an error", got)
	} else if !strings.Contains(err.Error(), "github.com/edgar13f/edgar13f") {
		t.Errorf("error %q does not name the module looked for", err)
	}
}
