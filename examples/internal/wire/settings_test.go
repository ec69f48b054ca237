package wire

import (
	"os"
	"strings"
	"testing"
)

// TestSettingsDocumented: the examples' README shows the settings table
// as the programs have it.
func TestSettingsDocumented(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if want := SettingsMarkdown(); !strings.Contains(string(b), want) {
		t.Errorf("examples/README.md does not hold the settings table; it is:\n%s", want)
	}
}

// TestSettingsHelp: each program's help lists exactly the settings that
// apply to it, with their flags.
func TestSettingsHelp(t *testing.T) {
	for _, p := range []Program{CLI, MCP, HTTP} {
		help := SettingsHelp(p)
		for _, s := range Settings {
			head := "  " + s.Env
			if s.Flag != "" {
				head += ", --" + s.Flag
			}
			if listed := strings.Contains(help, head+"\n"); listed != (s.Programs&p != 0) {
				t.Errorf("%s help lists %s: %v", p, s.Env, listed)
			}
		}
	}
}
