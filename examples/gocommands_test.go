package examples_test

import (
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/edgar13f/edgar13f/examples/internal/testkit"
)

// goDocs are the files whose go commands run from the repository's root
// (unless a command says otherwise with cd or -C), relative to it.
var goDocs = append(slices.Clone(readmes), "search/eval/README.md", "bench/README.md")

// goSubcommands are the go commands that take package patterns.
var goSubcommands = map[string]bool{"build": true, "install": true, "run": true, "test": true, "vet": true, "list": true}

// goPackages is a package pattern a go command of a document names, with
// the directory the command runs in (relative to the repository's root).
type goPackages struct {
	dir, pattern string
}

// goCommandPatterns returns the relative package patterns ("./...",
// "./search/eval") that the go commands in a shell line name, each with
// the directory the command runs in: the root, or where a "cd DIR" before
// it on the line or its own "-C DIR" puts it. Of "go run", only the
// package counts; the words after it are the program's.
func goCommandPatterns(line string) []goPackages {
	words := testkit.ShellWords(line)
	var out []goPackages
	dir := "."
	for i := 0; i < len(words); i++ {
		switch {
		case words[i] == "cd" && i+1 < len(words) && !testkit.ShellOperators[words[i+1]]:
			dir = path.Join(dir, words[i+1])
			i++
		case words[i] == "go":
			cdir, j := dir, i+1
			for ; j < len(words) && strings.HasPrefix(words[j], "-"); j++ {
				if words[j] == "-C" && j+1 < len(words) {
					cdir = path.Join(dir, words[j+1])
					j++
				}
			}
			if j >= len(words) || !goSubcommands[words[j]] {
				continue
			}
			sub := words[j]
			for j++; j < len(words) && !testkit.ShellOperators[words[j]] && words[j] != "-args"; j++ {
				w := words[j]
				if w == "." || strings.HasPrefix(w, "./") || strings.HasPrefix(w, "../") {
					out = append(out, goPackages{cdir, w})
					if sub == "run" {
						break
					}
				}
			}
			i = j
		}
	}
	return out
}

// docGoCommands returns every package pattern of a go command in the
// shell blocks and inline code of a Markdown text, with where it is.
func docGoCommands(name, text string) map[goPackages][]string {
	out := map[goPackages][]string{}
	lines := strings.Split(text, "\n")
	inFence, shell := false, false
	for n := 0; n < len(lines); n++ {
		line := lines[n]
		where := fmt.Sprintf("%s:%d", name, n+1)
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "```") {
			if !inFence {
				lang := strings.Fields(strings.TrimPrefix(t, "```") + " sh")[0]
				inFence, shell = true, lang == "sh" || lang == "bash"
			} else {
				inFence = false
			}
			continue
		}
		var code []string
		switch {
		case inFence && shell:
			full := line
			for strings.HasSuffix(full, "\\") && n+1 < len(lines) {
				n++
				full = strings.TrimSuffix(full, "\\") + " " + lines[n]
			}
			code = []string{full}
		case !inFence:
			for _, m := range inlineRE.FindAllStringSubmatch(line, -1) {
				code = append(code, m[1])
			}
		}
		for _, c := range code {
			for _, p := range goCommandPatterns(c) {
				out[p] = append(out[p], where)
			}
		}
	}
	return out
}

func TestGoCommandPatterns(t *testing.T) {
	tests := []struct {
		line string
		want []goPackages
	}{
		{"go test -race -timeout 30m ./...", []goPackages{{".", "./..."}}},
		{"go -C examples test -race -timeout 30m ./...", []goPackages{{"examples", "./..."}}},
		{"go -C examples install ./...", []goPackages{{"examples", "./..."}}},
		{"cd search/opensearch && go test ./...", []goPackages{{"search/opensearch", "./..."}}},
		{"(cd sql/check && go vet ./... && go test -count=1 .)", []goPackages{{"sql/check", "./..."}, {"sql/check", "."}}},
		{"go run ./examples/edgar13f eval ./queries.json --as-of 2025-09-01", []goPackages{{".", "./examples/edgar13f"}}},
		{"go install ./examples/...", []goPackages{{".", "./examples/..."}}},
		{"go test -run TestX -v ./search/eval -args -evaltable ./x", []goPackages{{".", "./search/eval"}}},
		{"go test -run '^$' -bench 50k ./... # a comment ./bench", []goPackages{{".", "./..."}}},
		{"edgar13f holdings 1067983 --fixture-dir ./testdata/mirror", nil},
		{"go get github.com/edgar13f/edgar13f", nil},
		{"go version", nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, goCommandPatterns(tt.line), cmp.AllowUnexported(goPackages{})); diff != "" {
			t.Errorf("goCommandPatterns(%q) (-want +got):\n%s", tt.line, diff)
		}
	}
	doc := "Run `go -C examples install ./...` first.\n\n```sh\ngo test \\\n  ./...\n```\n\n```go\ngo run ./x\n```\n"
	got := docGoCommands("R.md", doc)
	want := map[goPackages][]string{{"examples", "./..."}: {"R.md:1"}, {".", "./..."}: {"R.md:4"}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(goPackages{})); diff != "" {
		t.Errorf("docGoCommands (-want +got):\n%s", diff)
	}
}

// TestDocsGoCommandsResolve: every package pattern a go command of the
// READMEs names matches packages where the command runs. The examples are
// a module of their own, so "go install ./examples/..." from the
// repository's root names no package, while "go -C examples install ./..."
// does.
func TestDocsGoCommandsResolve(t *testing.T) {
	root := testkit.Root()
	all := map[goPackages][]string{}
	for _, name := range goDocs {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		for p, where := range docGoCommands(name, string(b)) {
			all[p] = append(all[p], where...)
		}
	}
	if len(all) < 3 {
		t.Fatalf("found only %d go package patterns in %v", len(all), goDocs)
	}
	for p, where := range all {
		cmd := exec.Command("go", "list", p.pattern)
		cmd.Dir = filepath.Join(root, filepath.FromSlash(p.dir))
		out, err := cmd.CombinedOutput()
		if err != nil || len(strings.TrimSpace(string(out))) == 0 {
			t.Errorf("%s: go list %s in %s: %v\n%s", strings.Join(where, ", "), p.pattern, p.dir, err, out)
		}
	}
}
