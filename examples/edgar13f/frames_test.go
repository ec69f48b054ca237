package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/edgar13f/edgar13f/examples/internal/testkit"
)

// TestFrameCommands: frame in every format, each on a fresh cache that
// imports the mirror's companyfacts.zip first; Apple's fiscal 2009
// restatement shows in it.
func TestFrameCommands(t *testing.T) {
	fixture := []string{"EDGAR13F_FIXTURE_DIR=" + mirror}
	tests := []struct {
		name string
		args []string
	}{
		{"frame_restated", []string{"frame", "net_income", "CY2009", "--as-of", "2010-02-01"}},
		{"frame_first_reported", []string{"frame", "net_income", "CY2009", "--as-of", "2009-12-01"}},
		{"frame_eps_value_desc", []string{"frame", "eps_diluted", "CY2023", "--as-of", "2024-11-30", "--order", "value_desc", "--max", "2"}},
	}
	for _, tt := range tests {
		for _, format := range []string{"table", "json", "csv"} {
			t.Run(tt.name+"."+format, func(t *testing.T) {
				stdout, stderr, code := exe(t, fixture, append(tt.args, "--format", format)...)
				if code != 0 || stderr != "" {
					t.Fatalf("exit %d, stderr %q", code, stderr)
				}
				testkit.GoldenText(t, tt.name+"."+format, stdout)
			})
		}
	}
	out, _, code := exe(t, fixture, "frame", "net_income", "CY2009", "--as-of", "2010-02-01", "--format", "table")
	if code != 0 || !strings.Contains(out, "8,235,000,000") || !strings.Contains(out, "5,704,000,000") || !strings.Contains(out, "yes") {
		t.Errorf("table: %s", out)
	}
}

// TestFrameParquet: the Parquet export of a frame holds its companies.
func TestFrameParquet(t *testing.T) {
	fixture := []string{"EDGAR13F_FIXTURE_DIR=" + mirror}
	out, stderr, code := exe(t, fixture, "frame", "total_assets", "CY2023Q4I", "--as-of", "2024-11-30", "--format", "parquet")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	type row struct {
		CIK      string  `parquet:"cik"`
		Value    float64 `parquet:"value"`
		Text     string  `parquet:"value_text"`
		Restated bool    `parquet:"restated"`
	}
	rows, err := parquet.Read[row](bytes.NewReader([]byte(out)), int64(len(out)))
	if err != nil || len(rows) != 4 || rows[0].CIK != "0000320193" || rows[0].Text != "353514000000" || rows[0].Value != 353514e6 {
		t.Fatalf("%+v, %v", rows, err)
	}
}

// TestFramesSyncAndDeclines: frames sync --companies imports the companies
// asked for; malformed arguments are usage errors, an unknown concept is a
// decline.
func TestFramesSyncAndDeclines(t *testing.T) {
	fixture := []string{"EDGAR13F_FIXTURE_DIR=" + mirror}
	out, stderr, code := exe(t, fixture, "frames", "sync", "--companies", "320193,1640147", "--format", "json")
	if code != 0 || stderr != "" || !strings.Contains(out, `"companies":2`) || !strings.Contains(out, `"source":"companyfacts API"`) {
		t.Fatalf("sync: exit %d, %s %s", code, out, stderr)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"frame", "net_income", "CY2023Q9", "--as-of", "2024-01-01"}, 2, "is not CYyyyy"},
		{[]string{"frame", "net_income", "CY2023", "--as-of", "2024-01-01", "--order", "value"}, 2, "order"},
		{[]string{"frame", "net_income", "CY2023", "--as-of", "2024-01-01", "--max", "0"}, 2, "limit"},
		{[]string{"frame", "us-gaap:NoSuchTag", "CY2023", "--as-of", "2024-01-01"}, 3, "unknown_concept"},
		{[]string{"frames", "load"}, 2, "want sync"},
	} {
		_, stderr, code := exe(t, fixture, append(tc.args, "--format", "json")...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q", tc.args, code, stderr)
		}
	}
}

// TestAskFrames: downloading the bulk file from EDGAR is asked for on a
// terminal, and refused elsewhere with the way on.
func TestAskFrames(t *testing.T) {
	var out bytes.Buffer
	if err := askFrames("frame", "EDGAR's bulk XBRL file (about 1.3 GB)", strings.NewReader("y\n"), &out, true); err != nil || !strings.Contains(out.String(), "1.3 GB") {
		t.Errorf("yes: %v, %q", err, out.String())
	}
	if err := askFrames("frame", "EDGAR's bulk XBRL file (about 1.3 GB)", strings.NewReader("n\n"), &out, true); err == nil {
		t.Error("no: downloaded")
	}
	if err := askFrames("frame", "EDGAR's bulk XBRL file (about 1.3 GB)", strings.NewReader(""), &out, false); err == nil || !strings.Contains(err.Error(), "--yes") ||
		!strings.Contains(err.Error(), `import it first with "edgar13f frames sync --yes"`) {
		t.Errorf("not interactive: %v", err)
	}
	// frames sync is the import: it does not send the user to itself.
	if err := askFrames("frames sync", "EDGAR's bulk XBRL file (about 1.3 GB)", strings.NewReader(""), &out, false); err == nil ||
		!strings.HasSuffix(err.Error(), ": frames sync needs EDGAR's bulk XBRL file (about 1.3 GB): run again with --yes to download it") {
		t.Errorf("frames sync, not interactive: %v", err)
	}
}
