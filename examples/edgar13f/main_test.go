package main

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f/examples/internal/testkit"
)

// bin is the CLI built by TestMain; mirror the recorded EDGAR tree.
var (
	bin    string
	mirror = testkit.Mirror()
)

func TestMain(m *testing.M) { testkit.Main(m, &bin, false) }

// exe runs the binary with a private cache and no inherited settings.
func exe(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return testkit.Run(t, testkit.Command(t, bin, env, args...))
}

func TestAnswers(t *testing.T) {
	fixture := []string{"EDGAR13F_FIXTURE_DIR=" + mirror}
	tests := []struct {
		name string
		args []string
	}{
		{"find", []string{"find", "berkshire", "--limit", "3"}},
		{"find_as_of", []string{"find", "--as-of", "2025-05-14", "fresh", "start"}},
		{"filings", []string{"13f-filings", "9000002", "--as-of", "2025-08-21"}},
		{"filings_period", []string{"13f-filings", "--period", "2023-09-30", "0001067983", "--as-of", "2024-05-15"}},
		{"company", []string{"company", "nvidia", "--limit", "2"}},
		{"company_filings", []string{"filings", "320193", "--as-of", "2024-11-01", "--form", "10-K", "--limit", "3"}},
		{"company_filings_older", []string{"filings", "320193", "--as-of", "2010-06-01", "--limit", "4"}},
		{"facts_restated", []string{"facts", "320193", "revenue", "--as-of", "2010-01-25", "--years", "2"}},
		{"facts_first_reported", []string{"facts", "320193", "revenue", "--as-of", "2010-01-24", "--years", "2"}},
		{"section", []string{"section", "320193", "0000320193-24-000123", "1A", "--as-of", "2024-11-01", "--max-chars", "300"}},
		{"holdings_top", []string{"holdings", "1067983", "--period", "2023-09-30", "--as-of", "2024-05-15", "--top", "2"}},
		{"holdings_options", []string{"holdings", "1029160", "--period", "2026-06-30", "--as-of", "2026-08-14", "--cusip", "67066G104,21873S108", "--cusip", "N14506104"}},
		{"holdings_thousands", []string{"holdings", "1067983", "--period", "2022-09-30", "--as-of", "2022-11-15", "--issuer", "apple"}},
		{"diff", []string{"diff", "1067983", "--period-a", "2023-09-30", "--period-b", "2023-12-31", "--as-of", "2024-05-16", "--top", "5"}},
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

func TestExits(t *testing.T) {
	fixture := []string{"EDGAR13F_FIXTURE_DIR=" + mirror}
	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantStdout string // exact, or a prefix when it ends in "..."
		wantStderr string
	}{
		{"declined", []string{"holdings", "9000001", "--period", "2025-12-31", "--as-of", "2025-11-13", "--format", "table"}, 3, "",
			"edgar13f: declined (not_yet_filed): ..."},
		{"declined json", []string{"holdings", "315090", "--period", "2024-12-31", "--as-of", "2025-03-01"}, 3,
			`{"status":"declined","disclaimer":"13F reports long positions only; data may lag the period end by up to 45 days.","reason":"notice_only","message":...`,
			"edgar13f: declined (notice_only): ..."},
		{"unknown cik", []string{"13f-filings", "9000003", "--as-of", "2025-05-14", "--format", "csv"}, 3, "", "edgar13f: declined (unknown_cik): ..."},
		// A CIK the mirror tree lacks: a failure of the mirror, not EDGAR's decline.
		{"unknown cik any form", []string{"filings", "1234567", "--as-of", "2025-05-14", "--format", "json"}, 1, "",
			"edgar13f: the mirror tree " + mirror + " lacks this company: it has no file data.sec.gov/submissions/CIK0001234567.json ..."},
		{"section not yet filed", []string{"section", "320193", "0000320193-24-000123", "1A", "--as-of", "2024-10-31", "--format", "json"}, 3,
			"{\"status\":\"declined\",\"reason\":\"not_yet_filed\",\"message\":\"CIK 320193 had filed no filing 0000320193-24-000123 on or before 2024-10-31\"}\n",
			"edgar13f: declined (not_yet_filed): CIK 320193 had filed no filing 0000320193-24-000123 on or before 2024-10-31\n"},
		{"section not found", []string{"section", "320193", "0000320193-24-000120", "7", "--as-of", "2025-01-01"}, 3, "...",
			"edgar13f: declined (section_not_found): filing 0000320193-24-000120 is a 8-K; ..."},
		{"section bad item", []string{"section", "320193", "0000320193-24-000123", "99", "--as-of", "2025-01-01"}, 2, "",
			"edgar13f section: item \"99\" is no Item of a 10-K or a 10-Q ..."},
		{"section missing item", []string{"section", "320193", "0000320193-24-000123"}, 2, "", "edgar13f section: section takes 3 arguments, CIK ACCESSION ITEM; got 2: 320193 0000320193-24-000123\n..."},
		{"facts unknown concept", []string{"facts", "320193", "no_such_concept", "--as-of", "2024-01-01", "--format", "json"}, 3,
			`{"status":"declined","disclaimer":"Annual XBRL values ...`, "edgar13f: declined (unknown_concept): ..."},
		{"facts years range", []string{"facts", "320193", "revenue", "--years", "31"}, 2, "", "edgar13f facts: --years must be 1 to 30, not 31\n..."},
		{"company limit range", []string{"company", "apple", "--limit", "101"}, 2, "", "edgar13f company: --limit must be 1 to 100, not 101\n..."},
		// Malformed arguments are usage errors, checked before any query.
		{"bad date", []string{"filings", "1067983", "--as-of", "2024-13-01", "--format", "csv"}, 2, "",
			"edgar13f filings: --as-of must be a date YYYY-MM-DD, not \"2024-13-01\"\nRun \"edgar13f filings --help\" for usage.\n"},
		{"bad period date", []string{"holdings", "1067983", "--period", "2023-9-30", "--format", "json"}, 2, "",
			"edgar13f holdings: --period must be a date YYYY-MM-DD, not \"2023-9-30\"\n..."},
		{"bad date in find", []string{"find", "berkshire", "--as-of", "yesterday"}, 2, "",
			"edgar13f find: --as-of must be a date YYYY-MM-DD, not \"yesterday\"\n..."},
		{"bad cik", []string{"filings", "12a", "--as-of", "2024-05-15", "--format", "json"}, 2, "", "edgar13f filings: CIK \"12a\" must be 1 to 10 digits\n..."},
		{"top zero", []string{"holdings", "1067983", "--period", "2023-09-30", "--top", "0", "--format", "json"}, 2, "",
			"edgar13f holdings: --top must be 1 to 200, not 0\nRun \"edgar13f holdings --help\" for usage.\n"},
		{"limit zero", []string{"find", "berkshire", "--limit", "0"}, 2, "", "edgar13f find: --limit must be 1 to 20, not 0\n..."},
		{"empty issuer", []string{"holdings", "1067983", "--period", "2023-09-30", "--issuer", ""}, 2, "", "edgar13f holdings: --issuer is empty: give a value or leave the flag out\n..."},
		{"bad period", []string{"diff", "1067983", "--period-a", "2023-12-31", "--period-b", "2023-09-30", "--format", "csv"}, 3, "",
			"edgar13f: declined (invalid_period): ..."},
		{"bad top", []string{"holdings", "1067983", "--period", "2023-09-30", "--top", "201", "--format", "csv"}, 2, "",
			"edgar13f holdings: --top must be 1 to 200, not 201\n..."},
		{"filings limit zero", []string{"filings", "320193", "--limit", "0"}, 2, "", "edgar13f filings: --limit must be 1 to 100, not 0\n..."},
		{"section max chars", []string{"section", "320193", "0000320193-24-000123", "1A", "--max-chars", "100001"}, 2, "",
			"edgar13f section: --max-chars must be 1 to 100000, not 100001\n..."},
		{"diff top", []string{"diff", "1067983", "--period-a", "2023-09-30", "--period-b", "2023-12-31", "--top", "0"}, 2, "",
			"edgar13f diff: --top must be 1 to 200, not 0\n..."},
		// An empty value is an error, as in the MCP server, not the flag's default.
		{"empty as-of", []string{"holdings", "1067983", "--period", "2023-09-30", "--as-of", ""}, 2, "",
			"edgar13f holdings: --as-of is empty: give a value or leave the flag out\n..."},
		{"blank form", []string{"filings", "320193", "--form", " "}, 2, "", "edgar13f filings: --form is empty: give a value or leave the flag out\n..."},
		{"empty cusip", []string{"holdings", "1067983", "--period", "2023-09-30", "--cusip", "037833100,"}, 2, "",
			"edgar13f holdings: invalid value \"037833100,\" for flag -cusip: empty CUSIP: give one or more, separated by commas\n..."},
		{"empty fixture dir", []string{"filings", "320193", "--fixture-dir", ""}, 2, "",
			"edgar13f filings: --fixture-dir is empty: give a value or leave the flag out\n..."},
		{"no command", nil, 2, "", "edgar13f answers questions..."},
		{"unknown command", []string{"holding"}, 2, "", "edgar13f: unknown command \"holding\"\n..."},
		{"missing period", []string{"holdings", "1067983"}, 2, "",
			"edgar13f holdings: missing --period\nRun \"edgar13f holdings --help\" for usage.\n"},
		{"missing cik", []string{"filings"}, 2, "", "edgar13f filings: filings takes 1 argument, CIK; got none\n..."},
		{"missing name", []string{"find"}, 2, "", "edgar13f find: find takes one or more arguments, NAME...; got none\n..."},
		{"bad format", []string{"filings", "1067983", "--format", "xml"}, 2, "", "edgar13f filings: --format must be table, json or csv, not \"xml\"\n..."},
		{"bad flag", []string{"filings", "1067983", "--asof", "2024-01-01"}, 2, "", "edgar13f filings: flag provided but not defined: -asof\n..."},
		{"no-redact with fixture", []string{"holdings", "1067983", "--period", "2023-09-30", "--no-redact"}, 2, "",
			"edgar13f holdings: --no-redact (EDGAR13F_REDACT=off) cannot be combined with --fixture-dir (EDGAR13F_FIXTURE_DIR): rows of a fixture directory are always redacted\n..."},
		{"fixture with base URL", []string{"filings", "1067983", "--fixture-dir", mirror, "--base-url", "http://127.0.0.1:1"}, 2, "",
			"edgar13f filings: give --fixture-dir (EDGAR13F_FIXTURE_DIR) or --base-url (EDGAR13F_BASE_URL), not both\n..."},
		{"version", []string{"--version"}, 0, "edgar13f 0.1.0\n", ""},
		{"help", []string{"--help"}, 0, "edgar13f answers questions...", ""},
		{"find help", []string{"find", "--help"}, 0, "Usage: edgar13f find NAME... [flags]\n...", ""},
		{"filings help", []string{"filings", "-h"}, 0, "Usage: edgar13f filings CIK [flags]\n...", ""},
		{"13f-filings help", []string{"13f-filings", "-h"}, 0, "Usage: edgar13f 13f-filings CIK [flags]\n...", ""},
		{"company help", []string{"company", "-h"}, 0, "Usage: edgar13f company NAME... [flags]\n...", ""},
		{"facts help", []string{"facts", "-h"}, 0, "Usage: edgar13f facts CIK CONCEPT [flags]\n...", ""},
		{"section help", []string{"section", "-h"}, 0, "Usage: edgar13f section CIK ACCESSION ITEM [flags]\n...", ""},
		{"holdings help", []string{"holdings", "--help"}, 0, "Usage: edgar13f holdings CIK [flags]\n...", ""},
		{"diff help", []string{"diff", "--help"}, 0, "Usage: edgar13f diff CIK [flags]\n...", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := exe(t, fixture, tt.args...)
			if code != tt.wantCode || !match(tt.wantStdout, stdout) || !match(tt.wantStderr, stderr) {
				t.Errorf("exit %d\nstdout %q\nstderr %q\nwant exit %d\nstdout %q\nstderr %q", code, stdout, stderr, tt.wantCode, tt.wantStdout, tt.wantStderr)
			}
			if strings.HasSuffix(tt.name, "help") && !strings.Contains(stdout, "Examples:") && tt.name != "help" {
				t.Errorf("help has no examples:\n%s", stdout)
			}
		})
	}
}

// match compares got with want, a prefix when want ends in "...".
func match(want, got string) bool {
	if p, ok := strings.CutSuffix(want, "..."); ok {
		return strings.HasPrefix(got, p)
	}
	return got == want
}

func TestHTTP(t *testing.T) {
	srv, requests := testkit.MirrorServer(t, func(r *http.Request) bool { return r.Header.Get("User-Agent") != "edgar13f tests test@example.com" })
	args := []string{"holdings", "1067983", "--period", "2023-09-30", "--as-of", "2024-05-15", "--base-url", srv.URL, "--format", "csv", "--cusip", "78462F103"}
	tests := []struct {
		name         string
		env          []string
		extra        []string
		wantCode     int
		wantRows     int
		wantStderr   string
		wantRequests bool
	}{
		{"redacted", []string{"SEC_USER_AGENT=edgar13f tests test@example.com"}, nil, 0, 0, "", true},
		{"no-redact", nil, []string{"--user-agent", "edgar13f tests test@example.com", "--no-redact"}, 0, 1, "", true},
		{"no user agent", nil, nil, 1, 0, "edgar13f: no User-Agent for EDGAR: set --user-agent or SEC_USER_AGENT to \"Name email@domain\" (SEC's fair-access policy requires one naming you)\n", false},
		{"user agent without email", nil, []string{"--user-agent", "nobody"}, 1, 0,
			"edgar13f: User-Agent \"nobody\" has no email address: set --user-agent or SEC_USER_AGENT to \"Name email@domain\" (SEC's fair-access policy requires one naming you)\n", false},
		// Arguments are checked before the User-Agent: a usage error exits 2.
		{"bad CUSIP without user agent", nil, []string{"--cusip", "12345678"}, 2, 0, "edgar13f holdings: CUSIP \"12345678\" must be 9 letters or digits\n...", false},
		{"bad CUSIP, user agent without email", []string{"SEC_USER_AGENT=nobody"}, []string{"--cusip", "12345678"}, 2, 0,
			"edgar13f holdings: CUSIP \"12345678\" must be 9 letters or digits\n...", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := requests.Load()
			stdout, stderr, code := exe(t, tt.env, append(args, tt.extra...)...)
			rows := strings.Count(stdout, "\n") - 1
			if tt.wantCode != 0 {
				rows = 0
			}
			if code != tt.wantCode || rows != tt.wantRows || !match(tt.wantStderr, stderr) {
				t.Errorf("exit %d, %d rows, stderr %q; want %d, %d, %q\n%s", code, rows, stderr, tt.wantCode, tt.wantRows, tt.wantStderr, stdout)
			}
			if sent := requests.Load() > before; sent != tt.wantRequests {
				t.Errorf("requests sent: %v, want %v", sent, tt.wantRequests)
			}
		})
	}
}

// TestNotAMirror: a fixture directory that is not an EDGAR mirror tree is a
// usage error saying so, not a decline of every CIK, given as a flag or in
// the environment.
func TestNotAMirror(t *testing.T) {
	dir := t.TempDir()
	want := "edgar13f filings: --fixture-dir (EDGAR13F_FIXTURE_DIR): " + dir + " is not an EDGAR mirror tree: it has no www.sec.gov or data.sec.gov directory"
	for _, tt := range []struct {
		env  []string
		args []string
	}{
		{nil, []string{"--fixture-dir", dir}},
		{[]string{"EDGAR13F_FIXTURE_DIR=" + dir}, nil},
		{[]string{"EDGAR13F_FIXTURE_DIR=" + mirror}, []string{"--fixture-dir", dir}},
	} {
		_, stderr, code := exe(t, tt.env, append([]string{"filings", "1067983", "--as-of", "2024-05-15"}, tt.args...)...)
		if code != 2 || !strings.HasPrefix(stderr, want) {
			t.Errorf("%v %v: exit %d, stderr %q; want 2, %q...", tt.env, tt.args, code, stderr, want)
		}
	}
}

// TestFilingsOrder: 13f-filings prints a manager's 13F filings oldest
// first (filing date, then accession number) in every format, as the MCP
// server answers list_13f_filings, whatever the library's order; its help
// says so, and filings (any form) says it lists newest first.
func TestFilingsOrder(t *testing.T) {
	fixture := []string{"EDGAR13F_FIXTURE_DIR=" + mirror}
	for _, format := range []string{"table", "csv", "json"} {
		out, _, code := exe(t, fixture, "13f-filings", "1067983", "--as-of", "2025-12-31", "--format", format)
		if code != 0 {
			t.Fatalf("%s: exit %d", format, code)
		}
		// The accession numbers in the order printed; in this manager's
		// filings they rise with the filing date, and three share one.
		var got []string
		for _, f := range strings.FieldsFunc(out, func(r rune) bool { return r == ' ' || r == ',' || r == '"' || r == '\n' }) {
			if len(f) == 20 && (strings.HasPrefix(f, "0000950123-") || strings.HasPrefix(f, "0001193125-")) {
				got = append(got, f)
			}
		}
		if len(got) < 30 || !slices.IsSorted(got) {
			t.Errorf("%s: accessions printed %v, want 30 or more, ascending", format, got)
		}
	}
	for cmd, want := range map[string]string{"13f-filings": "oldest first (by filing date, then accession number)", "filings": "newest first"} {
		out, _, _ := exe(t, nil, cmd, "--help")
		if !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
			t.Errorf("%s --help does not say %q:\n%s", cmd, want, out)
		}
	}
}
