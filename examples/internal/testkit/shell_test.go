package testkit

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestShellWords(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{`edgar13f search export controls China --as-of 2025-02-25`, []string{"edgar13f", "search", "export", "controls", "China", "--as-of", "2025-02-25"}},
		{`D=$(mktemp -d)`, []string{"D=$", "(", "mktemp", "-d", ")"}},
		{`curl -s "localhost:8801/search?q=a b&as_of=x" | jq .`, []string{"curl", "-s", "localhost:8801/search?q=a b&as_of=x", "|", "jq", "."}},
		{`edgar13f holdings 1 --issuer 'apple inc' # a comment --top`, []string{"edgar13f", "holdings", "1", "--issuer", "apple inc"}},
		{`x --tool-arg 'cik="1067983"'`, []string{"x", "--tool-arg", `cik="1067983"`}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, ShellWords(tt.line)); diff != "" {
			t.Errorf("ShellWords(%q) (-want +got):\n%s", tt.line, diff)
		}
	}
}
