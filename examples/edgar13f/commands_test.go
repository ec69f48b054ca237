package main

import (
	"os"
	"regexp"
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

// TestPanelTableAligned: in the panel's table form every heading stands
// over its column (left-aligned cells start under it, right-aligned ones
// end under it), and amounts have thousands separators.
func TestPanelTableAligned(t *testing.T) {
	stdout, _, code := exe(t, []string{"EDGAR13F_FIXTURE_DIR=" + mirror}, "panel", "--period", "2024-12-31", "--as-of", "2025-04-02", "--format", "table")
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if code != 0 || len(lines) < 3 {
		t.Fatalf("exit %d\n%s", code, stdout)
	}
	head, rows := lines[1], lines[2:]
	for _, c := range []struct {
		head  string
		right bool
	}{{"CIK", false}, {"CUSIP", false}, {"ISSUER", false}, {"FILED", false}, {"VALUE ($)", true}, {"AMOUNT", true}} {
		at := strings.Index(head, c.head)
		if at < 0 {
			t.Errorf("no heading %q in %q", c.head, head)
			continue
		}
		for _, r := range rows {
			var ok bool
			if c.right {
				end := at + len(c.head)
				ok = len(r) > end && r[end-1] != ' ' && r[end] == ' '
			} else {
				ok = len(r) > at && r[at] != ' ' && (at == 0 || r[at-2:at] == "  ")
			}
			if !ok {
				t.Errorf("column %q is not under its heading:\n%s\n%s", c.head, head, r)
			}
		}
	}
	if !strings.Contains(stdout, "  3,005,040  ") {
		t.Errorf("amounts without thousands separators:\n%s", stdout)
	}
}

// TestHoldingsTopPositions: holdings cut with --top say, in the table
// format, that their rows are those of N positions, with each position's
// totals; the JSON format is the library's answer, unchanged.
func TestHoldingsTopPositions(t *testing.T) {
	args := []string{"holdings", "1067983", "--period", "2023-09-30", "--as-of", "2024-05-15", "--top", "3"}
	stdout, _, code := exe(t, []string{"EDGAR13F_FIXTURE_DIR=" + mirror}, append(args, "--format", "table")...)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	m := regexp.MustCompile(`(?m)^3 positions \(of (\d+)\), (\d+) rows, ordered value_desc: each position's totals, then all its rows\.$`).FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("no line saying the rows are of 3 positions:\n%s", stdout)
	}
	_, tables, _ := strings.Cut(stdout, "\n#  ISSUER")
	positions, rows, _ := strings.Cut(tables, "\n\n")
	if n := strings.Count(positions, "\n"); n != 3 {
		t.Errorf("%d position lines, want 3:\n%s", n, positions)
	}
	if n := strings.Count(strings.TrimSuffix(rows, "\n"), "\n"); strconv.Itoa(n) != m[2] {
		t.Errorf("%d rows printed, the header says %s", n, m[2])
	}
	js, _, _ := exe(t, []string{"EDGAR13F_FIXTURE_DIR=" + mirror}, append(args, "--format", "json")...)
	if strings.Contains(js, "positions (of") || !strings.Contains(js, `"total_positions":`+m[1]) {
		t.Errorf("json changed or disagrees on the total: %.300s", js)
	}
}
