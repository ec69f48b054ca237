package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/datasets"
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
	// Off a terminal, --progress is plain lines: no carriage returns or
	// escape codes.
	if strings.ContainsAny(stderr, "\r\033") || !strings.HasSuffix(stderr, "done 100%\n") {
		t.Errorf("progress off a terminal is not plain lines: %q", stderr)
	}
	stdout, _, code = exe(t, env, "datasets", "sync", "--from", "2024-06-01", "--to", "2024-12-31", "--format", "json")
	if code != 0 || stdout != `{"status":"ok","data_from":"2024-06-01","data_through":"2025-02-28","imported":[]}`+"\n" {
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
		{[]string{"holdings", "1067983", "--period", "2023-09-30", "--format", "parquet"}, 2, "edgar13f holdings: --format parquet is for panel and frame only"},
		{[]string{"datasets", "sync", "--format", "json"}, 2, "edgar13f datasets: missing --from"},
		{[]string{"datasets", "pull", "--from", "2024-01-01"}, 2, "edgar13f datasets: unknown datasets command \"pull\""},
		// Before the Data Sets, and with nothing imported: declines, not failures.
		{[]string{"holders", "037833100", "--period", "2010-03-31", "--as-of", "2010-05-15", "--format", "json"}, 3,
			"edgar13f: declined (unsupported_request): an answer for period 2010-03-31 as of 2010-05-15 rests on the filings dated from 2010-04-01 through 2010-05-15, but SEC's Form 13F Data Sets begin with filings of 2013-07-01"},
		{[]string{"panel", "--period", "2010-03-31", "--as-of", "2010-05-15", "--format", "json"}, 3, "edgar13f: declined (unsupported_request)"},
		{[]string{"holders", "037833100", "--period", "2099-03-31", "--as-of", "2099-05-15", "--format", "json"}, 3,
			"edgar13f: declined (unsupported_request): an answer for period 2099-03-31 as of 2099-05-15 rests on the filings dated from 2099-04-01 through 2099-05-15, and no Form 13F Data Sets window holding them is imported"},
	} {
		_, stderr, code := exe(t, fixture, tt.args...)
		if code != tt.code || !strings.HasPrefix(stderr, tt.stderr) {
			t.Errorf("%v: exit %d, stderr %q; want %d, %q...", tt.args, code, stderr, tt.code, tt.stderr)
		}
	}
}

// TestImportAsked: holders, panel and datasets sync reading EDGAR over
// HTTP (not a mirror tree) say which windows they would download and
// download none of them unless told to (--yes, stdin not a terminal);
// a single window is downloaded without asking.
func TestImportAsked(t *testing.T) {
	var mu sync.Mutex
	var zips []string
	srv, _ := testkit.MirrorServer(t, func(r *http.Request) bool {
		if strings.HasSuffix(r.URL.Path, ".zip") {
			mu.Lock()
			zips = append(zips, r.URL.Path)
			mu.Unlock()
		}
		return false
	})
	taken := func() int {
		mu.Lock()
		defer mu.Unlock()
		n := len(zips)
		zips = nil
		return n
	}
	env := []string{"SEC_USER_AGENT=edgar13f tests test@example.com", "EDGAR13F_BASE_URL=" + srv.URL}
	for _, tt := range []struct {
		args []string
		plan string
	}{
		{[]string{"holders", "037833100", "--period", "2023-09-30", "--as-of", "2024-05-15"},
			"edgar13f holders: holders needs 3 Form 13F Data Sets windows that are not imported yet (2023q4 to 01mar2024-31may2024, filings of 2023-10-01 to 2024-05-31), about 300 MB from EDGAR: run again with --yes"},
		{[]string{"panel", "--period", "2023-09-30", "--as-of", "2024-05-15"}, "edgar13f panel: panel needs 3 Form 13F Data Sets windows"},
		{[]string{"datasets", "sync", "--from", "2013-01-01"}, "edgar13f datasets: datasets sync needs 53 Form 13F Data Sets windows that are not imported yet (2013q3 to 01jun2026-31aug2026, filings of 2013-07-01 to 2026-08-31), about 5.2 GB from EDGAR"},
	} {
		_, stderr, code := exe(t, env, append(tt.args, "--format", "json")...)
		// holders and panel name the import command; datasets sync is it.
		if code != 2 || !strings.HasPrefix(stderr, tt.plan) || strings.Contains(stderr, "edgar13f datasets sync --from ") == (tt.args[0] == "datasets") {
			t.Errorf("%v: exit %d, stderr %q; want 2, %q...", tt.args, code, stderr, tt.plan)
		}
		if n := taken(); n != 0 {
			t.Errorf("%v: %d zips downloaded before asking", tt.args, n)
		}
	}
	cache := []string{"EDGAR13F_CACHE_DIR=" + t.TempDir()}
	args := []string{"holders", "037833100", "--period", "2023-09-30", "--as-of", "2024-05-15", "--format", "json"}
	stdout, stderr, code := exe(t, append(env, cache...), append(args, "--yes")...)
	if code != 0 || !strings.Contains(stdout, `"total_holders":1`) || taken() != 3 {
		t.Fatalf("--yes: exit %d, stderr %q, %s", code, stderr, stdout)
	}
	// One more window (2023q3, for the 2023-06-30 filings): not asked.
	stdout, stderr, code = exe(t, append(env, cache...), "holders", "037833100", "--period", "2023-06-30", "--as-of", "2023-09-30", "--format", "json")
	if code != 0 || !strings.Contains(stdout, `"data_from":"2023-07-01"`) || taken() != 1 {
		t.Errorf("one window: exit %d, stderr %q, %s", code, stderr, stdout)
	}
}

// TestAskImport: on a terminal the plan is said and a "y" downloads it.
func TestAskImport(t *testing.T) {
	ws := []datasets.Window{
		{Name: "2022q4", From: edgar13f.MustParseDate("2022-10-01"), To: edgar13f.MustParseDate("2022-12-31")},
		{Name: "2023q1", From: edgar13f.MustParseDate("2023-01-01"), To: edgar13f.MustParseDate("2023-03-31")},
	}
	for _, tt := range []struct {
		answer string
		ok     bool
	}{{"y\n", true}, {"Yes\n", true}, {"\n", false}, {"n\n", false}, {"", false}} {
		var out bytes.Buffer
		err := askImport("holders", ws, strings.NewReader(tt.answer), &out, true)
		if (err == nil) != tt.ok {
			t.Errorf("answer %q: %v", tt.answer, err)
		}
		want := "holders needs 2 Form 13F Data Sets windows that are not imported yet (2022q4 to 2023q1, filings of 2022-10-01 to 2023-03-31), about 200 MB from EDGAR. Download them? [y/N] "
		if out.String() != want {
			t.Errorf("asked %q, want %q", out.String(), want)
		}
	}
	// Off a terminal, holders sends the user to datasets sync as well;
	// datasets sync, the import itself, does not send the user to itself.
	for _, tt := range []struct{ name, want string }{
		{"holders", `: run again with --yes to download them, or import them first with "edgar13f datasets sync --from 2022-10-01 --to 2023-03-31 --yes"`},
		{"datasets sync", "filings of 2022-10-01 to 2023-03-31), about 200 MB from EDGAR: run again with --yes to download them"},
	} {
		if err := askImport(tt.name, ws, strings.NewReader(""), io.Discard, false); err == nil || !strings.HasSuffix(err.Error(), tt.want) {
			t.Errorf("%s, not interactive: %v, want it to end %q", tt.name, err, tt.want)
		}
	}
}
