package companies

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f/internal/companyfacts"
)

// TestConceptAliasesDocumented: the aliases and synonyms that Facts' doc
// comment and the README list are the ones the code knows, in its order
// (eps is eps_diluted's synonym in all three).
func TestConceptAliasesDocumented(t *testing.T) {
	var doc, readme []string
	for _, a := range companyfacts.Aliases() {
		d, r := a.Name, "`"+a.Name+"`"
		for _, s := range a.Synonyms {
			d += " (synonym " + s + ")"
			r += "/`" + s + "`"
		}
		doc, readme = append(doc, d), append(readme, r)
	}
	src, err := os.ReadFile("facts.go")
	if err != nil {
		t.Fatal(err)
	}
	comment := strings.ReplaceAll(string(src), "\n// ", " ")
	if want := "concept is an alias, any case: " + strings.Join(doc, ", ") + ";"; !strings.Contains(comment, want) {
		t.Errorf("Facts' doc comment does not say %q", want)
	}
	md, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := regexp.MustCompile(`\s+`).ReplaceAllString(string(md), " ")
	if want := "A concept is an alias (" + strings.Join(readme, ", ") + ")"; !strings.Contains(text, want) {
		t.Errorf("README does not say %q", want)
	}
}
