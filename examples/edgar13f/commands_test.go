package main

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f/examples/internal/testkit"
)

// TestArity: every command given a wrong number of arguments says what it
// takes and what it got.
func TestArity(t *testing.T) {
	for _, cmd := range commands {
		t.Run(cmd.name, func(t *testing.T) {
			var args []string // none, for a command taking one or more
			if cmd.positional >= 0 {
				args = strings.Fields(strings.Repeat("x ", cmd.positional+1))
			}
			_, stderr, code := exe(t, []string{"EDGAR13F_FIXTURE_DIR=" + mirror}, append([]string{cmd.name}, args...)...)
			want := "edgar13f " + cmd.name + ": " + cmd.name + " takes "
			switch {
			case cmd.positional < 0:
				want += "one or more arguments, " + cmd.args + "; got none\n"
			case cmd.positional == 0:
				want += "no arguments; got 1: x\n"
			case cmd.positional == 1:
				want += "1 argument, " + cmd.args + "; got 2: x x\n"
			default:
				want += strconv.Itoa(cmd.positional) + " arguments, " + cmd.args + "; got " + strconv.Itoa(len(args)) + ": " + strings.Join(args, " ") + "\n"
			}
			if code != exitUsage || !strings.HasPrefix(stderr, want) {
				t.Errorf("exit %d, stderr %q; want 2, %q...", code, stderr, want)
			}
		})
	}
}

// TestParquetNotTerminal: panel writes Parquet to any standard output that
// is not a terminal, /dev/null included.
func TestParquetNotTerminal(t *testing.T) {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if isTerminal(null) {
		t.Errorf("%s taken for a terminal", os.DevNull)
	}
	cmd := testkit.Command(t, bin, []string{"EDGAR13F_FIXTURE_DIR=" + mirror}, "panel", "--period", "2024-12-31", "--as-of", "2025-04-02", "--format", "parquet")
	cmd.Stdout = null
	var stderr strings.Builder
	cmd.Stderr = &stderr
	code, err := testkit.ExitCode(cmd.Run())
	if err != nil || code != 0 || stderr.Len() != 0 {
		t.Errorf("parquet to %s: exit %d, %v, stderr %q", os.DevNull, code, err, stderr.String())
	}
}
