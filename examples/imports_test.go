// Package examples_test checks that the example binaries use only the
// public edgar13f API. The examples are a module of their own, but Go's
// internal-package rule goes by import path, not by module: a package
// under github.com/edgar13f/edgar13f/examples may still import the
// library's internal packages, so the check is needed.
package examples_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const (
	module   = "github.com/edgar13f/edgar13f"
	examples = module + "/examples"
)

// violations returns "pkg -> import" for every package under examples/
// (examples/internal/ included) in lines of "pkg|import,import,..." that
// imports one of the library's internal packages. The examples may import
// examples/internal/ and the public package only.
func violations(lines []string) []string {
	var out []string
	for _, line := range lines {
		pkg, imports, _ := strings.Cut(line, "|")
		pkg, _, _ = strings.Cut(pkg, " ") // "p [p.test]" for test variants
		pkg = strings.TrimSuffix(pkg, "_test")
		if pkg != examples && !strings.HasPrefix(pkg, examples+"/") {
			continue
		}
		for _, imp := range strings.Split(imports, ",") {
			if strings.HasPrefix(imp, module+"/internal/") {
				out = append(out, pkg+" -> "+imp)
			}
		}
	}
	return out
}

func TestViolations(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		want  []string
	}{
		{"public only", []string{examples + "/edgar13f|" + module + ",fmt"}, nil},
		{"internal of examples", []string{examples + "/edgar13f-mcp|" + examples + "/internal/wire"}, nil},
		{"library internals of the library", []string{module + "|" + module + "/internal/mirror"}, nil},
		{"examples/internal may not", []string{examples + "/internal/wire|" + module + "/internal/mirror"}, []string{examples + "/internal/wire -> " + module + "/internal/mirror"}},
		{"binary may not", []string{examples + "/edgar13f|fmt," + module + "/internal/mirror"}, []string{examples + "/edgar13f -> " + module + "/internal/mirror"}},
		{"test variant may not", []string{examples + "/edgar13f-mcp [" + examples + "/edgar13f-mcp.test]|" + module + "/internal/cache"},
			[]string{examples + "/edgar13f-mcp -> " + module + "/internal/cache"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, violations(tt.lines)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestNoLibraryInternals lists every package the examples build with,
// tests included, and fails on an example importing the library's internals.
func TestNoLibraryInternals(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-test", "-f", `{{.ImportPath}}|{{join .Imports ","}}`, "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	seen := 0
	for _, l := range lines {
		if strings.HasPrefix(l, examples+"/edgar13f") {
			seen++
		}
	}
	if seen < 2 {
		t.Fatalf("go list saw %d example packages:\n%s", seen, out)
	}
	if v := violations(lines); len(v) > 0 {
		t.Errorf("examples import library internals:\n%s", strings.Join(v, "\n"))
	}
}
