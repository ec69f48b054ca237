package edgar13f_test

import (
	"os/exec"
	"strings"
	"testing"
)

// heavy are the import paths a program asking only per-manager questions
// must not link: the Parquet store and its codecs (package datasets), the
// search engines and tokenizer (package search), the model SDKs (package
// agent) and the MCP SDK (the examples).
var heavy = []string{
	"github.com/parquet-go/",
	"github.com/klauspost/compress",
	"github.com/edgar13f/edgar13f/internal/bulkstore",
	"github.com/edgar13f/edgar13f/internal/datasetzip",
	"github.com/edgar13f/edgar13f/datasets",
	"github.com/blevesearch/",
	"github.com/tiktoken-go/",
	"github.com/edgar13f/edgar13f/search",
	"github.com/anthropics/",
	"github.com/edgar13f/edgar13f/agent",
	"github.com/modelcontextprotocol/",
}

// linkedHeavy returns the packages of deps (go list -deps output) that
// start with one of heavy.
func linkedHeavy(deps []string) []string {
	var out []string
	for _, d := range deps {
		for _, h := range heavy {
			if strings.HasPrefix(d, h) {
				out = append(out, d)
				break
			}
		}
	}
	return out
}

func goListDeps(t *testing.T, pkg string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", pkg).Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	return strings.Fields(string(out))
}

// TestCoreLinksNothingHeavy: the root package's import graph holds none
// of the heavy capabilities, which live in packages of their own; and the
// check sees them where they are (package datasets links the Parquet
// store), so that it cannot pass by looking at nothing.
func TestCoreLinksNothingHeavy(t *testing.T) {
	if got := linkedHeavy(goListDeps(t, "github.com/edgar13f/edgar13f")); len(got) > 0 {
		t.Errorf("package edgar13f links %s", strings.Join(got, ", "))
	}
	got := linkedHeavy(goListDeps(t, "github.com/edgar13f/edgar13f/datasets"))
	for _, want := range []string{"github.com/parquet-go/parquet-go", "github.com/edgar13f/edgar13f/internal/bulkstore"} {
		found := false
		for _, g := range got {
			found = found || g == want
		}
		if !found {
			t.Errorf("package datasets does not link %s (the check would see nothing)", want)
		}
	}
}
