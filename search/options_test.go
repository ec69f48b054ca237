package search_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestOptionsOfEachQuestion compiles programs against the package (added
// to the module through a build overlay, so nothing is written to the
// tree): each question takes exactly its own options. Limit and FormType
// are options of both Search and Index, a Mode is a Search option, Span
// the one option of Chunk, and an option of one question given to another
// (or a span given by position) does not compile.
func TestOptionsOfEachQuestion(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to compile the cases: %v", err)
	}
	dir, err := filepath.Abs(filepath.Join("internal", "optioncheck"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Fatalf("%s exists; the cases are compiled as that package", dir)
	}
	compile := func(t *testing.T, body string) (string, error) {
		t.Helper()
		src := `package optioncheck

import (
	"context"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/search"
)

var (
	_ = edgar13f.Date{}
	_ = context.Background
)

func check(ctx context.Context, e *search.Engine, asOf edgar13f.Date) {
` + body + `
}
`
		tmp := t.TempDir()
		file := filepath.Join(tmp, "check.go")
		if err := os.WriteFile(file, []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
		ov, err := json.Marshal(map[string]any{"Replace": map[string]string{filepath.Join(dir, "check.go"): file}})
		if err != nil {
			t.Fatal(err)
		}
		overlay := filepath.Join(tmp, "overlay.json")
		if err := os.WriteFile(overlay, ov, 0o600); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(goCmd, "build", "-overlay", overlay, "./internal/optioncheck")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}

	t.Run("taken", func(t *testing.T) {
		out, err := compile(t, `
	_, _ = e.Search(ctx, "q", asOf, search.Ticker("NVDA"), search.CIK("1045810"), search.Item("1A"),
		search.FiscalYear(2024), search.FormType("10-K"), search.FormType(edgar13f.Form("10-Q")),
		search.Limit(5), search.BM25, search.Mode("knn"))
	_, _ = e.Index(ctx, []string{"NVDA"}, asOf, search.FormType("10-K"), search.FormType("10-Q"),
		search.Limit(2), search.Reindex(), search.ReportProgress(func(search.Progress) {}))
	var both []search.LimitOption
	for _, o := range both {
		_, _ = e.Search(ctx, "q", asOf, o)
		_, _ = e.Index(ctx, nil, asOf, o)
	}
	_, _ = e.Chunk(ctx, "0123456789abcdef", asOf)
	_, _ = e.Chunk(ctx, "0123456789abcdef", asOf, search.Span(2))
	var spans []search.ChunkOption
	_, _ = e.Chunk(ctx, "0123456789abcdef", asOf, spans...)
	var forms []search.FormTypeOption
	for _, o := range forms {
		_, _ = e.Search(ctx, "q", asOf, o)
		_, _ = e.Index(ctx, nil, asOf, o)
	}`)
		if err != nil {
			t.Fatalf("the options of Search, Index and Chunk do not compile: %v\n%s", err, out)
		}
	})

	for _, tc := range []struct{ name, call, want string }{
		{"mode to Index", `_, _ = e.Index(ctx, nil, asOf, search.BM25)`, "IndexOption"},
		{"ticker to Index", `_, _ = e.Index(ctx, nil, asOf, search.Ticker("NVDA"))`, "IndexOption"},
		{"item to Index", `_, _ = e.Index(ctx, nil, asOf, search.Item("7"))`, "IndexOption"},
		{"fiscal year to Index", `_, _ = e.Index(ctx, nil, asOf, search.FiscalYear(2024))`, "IndexOption"},
		{"reindex to Search", `_, _ = e.Search(ctx, "q", asOf, search.Reindex())`, "SearchOption"},
		{"progress to Search", `_, _ = e.Search(ctx, "q", asOf, search.ReportProgress(nil))`, "SearchOption"},
		{"a span given by position", `_, _ = e.Chunk(ctx, "0123456789abcdef", asOf, 2)`, "ChunkOption"},
		{"limit to Chunk", `_, _ = e.Chunk(ctx, "0123456789abcdef", asOf, search.Limit(2))`, "ChunkOption"},
		{"span to Search", `_, _ = e.Search(ctx, "q", asOf, search.Span(1))`, "SearchOption"},
		{"span to Index", `_, _ = e.Index(ctx, nil, asOf, search.Span(1))`, "IndexOption"},
		{"a form given as a string variable", `f := "10-K"; _, _ = e.Search(ctx, "q", asOf, search.FormType(f))`, "edgar13f.Form"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := compile(t, "\t"+tc.call)
			if err == nil {
				t.Fatalf("%s compiles; want a compile error", tc.call)
			}
			if !strings.Contains(out, tc.want) {
				t.Errorf("%s: the compiler says\n%s\nwant a mention of %s", tc.call, out, tc.want)
			}
		})
	}
}
