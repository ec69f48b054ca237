package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/edgar13f/edgar13f/examples/internal/testkit"
)

// TestDatasetsCommands: holders and panel in every format, each run on a
// fresh cache importing the windows it needs from the test mirror.
func TestDatasetsCommands(t *testing.T) {
	fixture := []string{"EDGAR13F_FIXTURE_DIR=" + mirror}
	tests := []struct {
		name string
		args []string
	}{
		{"holders", []string{"holders", "037833100", "--period", "2023-09-30", "--as-of", "2024-05-15"}},
		{"holders_option", []string{"holders", "n14506104", "--period", "2026-06-30", "--as-of", "2026-08-14", "--max", "5"}},
		{"panel", []string{"panel", "--period", "2024-12-31", "--as-of", "2025-04-02"}},
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
}

// TestPanelParquet: the Parquet export holds the rows of the JSON panel.
func TestPanelParquet(t *testing.T) {
	fixture := []string{"EDGAR13F_FIXTURE_DIR=" + mirror}
	args := []string{"panel", "--period", "2023-09-30", "--as-of", "2024-05-15"}
	out, stderr, code := exe(t, fixture, append(args, "--format", "parquet")...)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	rows, err := parquet.Read[parquetRow](bytes.NewReader([]byte(out)), int64(len(out)))
	if err != nil {
		t.Fatal(err)
	}
	js, _, _ := exe(t, fixture, append(args, "--format", "json")...)
	var want struct {
		Rows []struct {
			CIK       string `json:"cik"`
			Accession string `json:"accession_number"`
			CUSIP     string `json:"cusip"`
			ValueUSD  int64  `json:"value_usd"`
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(js), &want); err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(want.Rows) || len(rows) == 0 {
		t.Fatalf("parquet %d rows, json %d", len(rows), len(want.Rows))
	}
	for i, r := range rows {
		w := want.Rows[i]
		if r.Accession != w.Accession || r.CUSIP != w.CUSIP || r.ValueUSD != w.ValueUSD || r.FilingDate <= 0 {
			t.Fatalf("row %d: %+v, want %+v", i, r, w)
		}
	}
}

// TestDatasetsSync imports windows with a progress bar on stderr, then
// finds nothing left to import.
func TestDatasetsSync(t *testing.T) {
	env := []string{"EDGAR13F_FIXTURE_DIR=" + mirror, "EDGAR13F_CACHE_DIR=" + t.TempDir()}
	stdout, stderr, code := exe(t, env, "datasets", "sync", "--from", "2024-06-01", "--to", "2024-12-31", "--progress", "--format", "table")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	testkit.GoldenText(t, "datasets_sync.table", stdout)
	for _, want := range []string{"] window 1/3 01jun2024-31aug2024 download", "] window 3/3 01dec2024-28feb2025 done 100%"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("progress lacks %q", want)
		}
	}
	if !strings.HasSuffix(stderr, "\r\033[K") {
		t.Errorf("progress line not cleared: %q", stderr[max(0, len(stderr)-40):])
	}
	stdout, _, code = exe(t, env, "datasets", "sync", "--from", "2024-06-01", "--to", "2024-12-31", "--format", "json")
	if code != 0 || stdout != `{"status":"ok","data_through":"2025-02-28","imported":[]}`+"\n" {
		t.Errorf("warm sync: exit %d, %q", code, stdout)
	}
}

func TestDatasetsUsage(t *testing.T) {
	fixture := []string{"EDGAR13F_FIXTURE_DIR=" + mirror}
	for _, tt := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"holders", "03783310", "--period", "2023-09-30", "--format", "json"}, 2, "edgar13f holders: CUSIP \"03783310\" must be 9 letters or digits"},
		{[]string{"holders", "037833100", "--period", "2023-09-30", "--max", "501", "--format", "json"}, 2, "edgar13f holders: --max must be 1 to 500, not 501"},
		{[]string{"holders", "037833100", "--period", "2023-09-29", "--format", "json"}, 3, "edgar13f: declined (invalid_period)"},
		{[]string{"holdings", "1067983", "--period", "2023-09-30", "--format", "parquet"}, 2, "edgar13f holdings: --format parquet is for panel only"},
		{[]string{"datasets", "sync", "--format", "json"}, 2, "edgar13f datasets: missing --from"},
		{[]string{"datasets", "pull", "--from", "2024-01-01"}, 2, "edgar13f datasets: unknown datasets command \"pull\""},
	} {
		_, stderr, code := exe(t, fixture, tt.args...)
		if code != tt.code || !strings.HasPrefix(stderr, tt.stderr) {
			t.Errorf("%v: exit %d, stderr %q; want %d, %q...", tt.args, code, stderr, tt.code, tt.stderr)
		}
	}
}
