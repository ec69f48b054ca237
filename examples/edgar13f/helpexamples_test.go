package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f/examples/internal/testkit"
)

// helpExamples returns the example lines of a command's --help (the lines
// after "Examples:" up to the first blank one), each as the environment
// assignments before it and the words after "edgar13f", up to a
// redirection or any other shell operator ("> panel.csv") or a comment.
func helpExamples(help string) (lines [][2][]string) {
	_, after, ok := strings.Cut(help, "\nExamples:\n")
	if !ok {
		return nil
	}
	for _, line := range strings.Split(after, "\n") {
		if strings.TrimSpace(line) == "" {
			break
		}
		words := testkit.ShellWords(line)
		if i := slices.IndexFunc(words, func(w string) bool { return testkit.ShellOperators[w] }); i >= 0 {
			words = words[:i]
		}
		var env []string
		for len(words) > 0 && strings.Contains(words[0], "=") {
			env, words = append(env, words[0]), words[1:]
		}
		if len(words) == 0 || words[0] != "edgar13f" {
			continue
		}
		lines = append(lines, [2][]string{env, words[1:]})
	}
	return lines
}

// TestHelpExamples runs every example line of every command's --help, in
// the order of the usage text, against the repository's mirror with one
// cache directory (so that index comes before search) and a scripted
// model for ask: every example must answer (exit 0); a usage error would
// mean the help shows a command line the program refuses, and a decline
// (an unknown chunk id) one that answers nothing. An example
// whose placeholder stands for the user's own text ("...") is only parsed
// by its command's help.
func TestHelpExamples(t *testing.T) {
	model := testkit.NewChatModel(t, testkit.RevenueScript("$130,497 million"))
	work := t.TempDir()
	env := append([]string{"EDGAR13F_FIXTURE_DIR=" + mirror, "EDGAR13F_CACHE_DIR=" + t.TempDir()}, model.Env()...)
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, cmd := range commands {
		help, _, code := exe(t, nil, append(strings.Fields(cmd.name), "--help")...)
		if code != 0 {
			t.Fatalf("%s --help: exit %d", cmd.name, code)
		}
		examples := helpExamples(help)
		if len(examples) == 0 {
			t.Errorf("%s --help shows no example", cmd.name)
		}
		for _, ex := range examples {
			lineEnv, args := ex[0], ex[1]
			if strings.Join(args, " ") == "" || containsWord(args, "...") || containsWord(lineEnv, "...") {
				continue
			}
			for i, a := range args {
				if a == "testdata/mirror" || strings.HasPrefix(a, "search/") || strings.HasPrefix(a, "agent/") {
					args[i] = filepath.Join(root, a) // paths in the examples are the repository's
				}
			}
			c := testkit.Command(t, bin, append(append([]string{}, env...), lineEnv...), args...)
			c.Dir = work
			_, stderr, code := testkit.Run(t, c)
			ran++
			// The scripted model answers NVIDIA's revenue only: another
			// question of ask may go unanswered (exit 3), never refused.
			if code != exitOK && (cmd.name != "ask" || code == exitUsage) {
				t.Errorf("edgar13f %s (from %s --help): exit %d, not an answer:\n%s", strings.Join(args, " "), cmd.name, code, stderr)
			}
		}
	}
	if ran < len(commands) {
		t.Errorf("ran %d examples for %d commands", ran, len(commands))
	}
	if _, err := os.Stat(filepath.Join(work, "panel.csv")); err == nil {
		t.Error("an example's redirection was run as an argument")
	}
}

func containsWord(words []string, w string) bool {
	for _, x := range words {
		if x == w || strings.HasSuffix(x, "="+w) {
			return true
		}
	}
	return false
}
