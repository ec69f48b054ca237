package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/edgar13f/edgar13f"
)

// got is what the accessors return for one argument list.
type got struct {
	CIK    string
	AsOf   string
	CUSIPs []string
	Max    int
	Reason edgar13f.Reason
	Msg    string
}

func parse(raw string) got {
	var g got
	fail := func(err error) got {
		d, _ := AsDecline(err)
		g.Reason, g.Msg = d.Reason, d.Message
		return g
	}
	a, err := ParseArgs(json.RawMessage(raw), "cik", "as_of", "cusip", "max_positions")
	if err != nil {
		return fail(err)
	}
	if g.CIK, err = a.String("cik", true); err != nil {
		return fail(err)
	}
	d, err := a.Date("as_of", false)
	if err != nil {
		return fail(err)
	}
	if !d.IsZero() {
		g.AsOf = d.String()
	}
	if g.CUSIPs, err = a.Strings("cusip", false); err != nil {
		return fail(err)
	}
	if g.Max, err = a.Int("max_positions", 1, edgar13f.MaxPositions); err != nil {
		return fail(err)
	}
	return g
}

func TestArgs(t *testing.T) {
	ia := edgar13f.InvalidArgument
	tests := []struct {
		raw  string
		want got
	}{
		{`{"cik":"0001067983","as_of":"2024-05-15","cusip":["037833100"],"max_positions":3}`, got{CIK: "0001067983", AsOf: "2024-05-15", CUSIPs: []string{"037833100"}, Max: 3}},
		{`{"cik":"1","max_positions":-3}`, got{CIK: "1", Reason: ia, Msg: `argument "max_positions" must be 1 to 200, not -3`}},
		{`{"cik":"1","max_positions":0}`, got{CIK: "1", Reason: ia, Msg: `argument "max_positions" must be 1 to 200, not 0`}},
		{`{"cik":"1","max_positions":201}`, got{CIK: "1", Reason: ia, Msg: `argument "max_positions" must be 1 to 200, not 201`}},
		{`{"cik":"1","max_positions":200}`, got{CIK: "1", Max: 200}},
		{` {"cik":"1"} `, got{CIK: "1"}},
		{`{"cik":"1","cusip":[]}`, got{CIK: "1", CUSIPs: []string{}}},
		{``, got{Reason: ia, Msg: `argument "cik" is required`}},
		{`null`, got{Reason: ia, Msg: `argument "cik" is required`}},
		{`[]`, got{Reason: ia, Msg: `arguments must be one JSON object`}},
		{`{"cik":"1"`, got{Reason: ia, Msg: `arguments must be one JSON object`}},
		{`{"cik":"1"} {}`, got{Reason: ia, Msg: `arguments must be one JSON object`}},
		{`{"cik":"1","period":"2024-03-31"}`, got{Reason: ia, Msg: `unknown argument "period"; this tool takes cik, as_of, cusip, max_positions`}},
		{`{"cik":"1","cik":"2"}`, got{Reason: ia, Msg: `argument "cik" is given twice`}},
		{`{"cik":1067983}`, got{Reason: ia, Msg: `argument "cik" must be a JSON string, not a number`}},
		{`{"cik":null}`, got{Reason: ia, Msg: `argument "cik" must be a JSON string, not null`}},
		{`{"cik":"1","as_of":"2024-02-30"}`, got{CIK: "1", Reason: ia, Msg: `argument "as_of" must be a date YYYY-MM-DD, not "2024-02-30"`}},
		{`{"cik":"1","as_of":20240515}`, got{CIK: "1", Reason: ia, Msg: `argument "as_of" must be a JSON string, not a number`}},
		{`{"cik":"1","cusip":"037833100"}`, got{CIK: "1", Reason: ia, Msg: `argument "cusip" must be a JSON array of strings, not a string`}},
		{`{"cik":"1","cusip":["037833100",7]}`, got{CIK: "1", Reason: ia, Msg: `argument "cusip" must be a JSON array of strings; item 1 is a number`}},
		{`{"cik":"1","max_positions":true}`, got{CIK: "1", Reason: ia, Msg: `argument "max_positions" must be a JSON integer such as 10, not a boolean true`}},
		{`{"cik":"1","max_positions":1.0}`, got{CIK: "1", Reason: ia, Msg: `argument "max_positions" must be a JSON integer such as 10, not a number 1.0`}},
		{`{"cik":"1","max_positions":1e1}`, got{CIK: "1", Reason: ia, Msg: `argument "max_positions" must be a JSON integer such as 10, not a number 1e1`}},
		{`{"cik":"1","max_positions":"5"}`, got{CIK: "1", Reason: ia, Msg: `argument "max_positions" must be a JSON integer such as 10, not a string "5"`}},
		{`{"cik":"1","max_positions":99999999999999999999}`, got{CIK: "1", Reason: ia, Msg: `argument "max_positions" must be 1 to 200, not 99999999999999999999`}},
		// JSON null is no value of any type and never stands for an absent argument.
		{`{"cik":"1","as_of":null}`, got{CIK: "1", Reason: ia, Msg: `argument "as_of" must be a date YYYY-MM-DD, not null; to leave it unset, omit it`}},
		{`{"cik":"1","cusip":null}`, got{CIK: "1", Reason: ia, Msg: `argument "cusip" must be a JSON array of strings, not null; to leave it unset, omit it`}},
		{`{"cik":"1","max_positions":null}`, got{CIK: "1", Reason: ia, Msg: `argument "max_positions" must be an integer from 1 to 200, not null; to leave it unset, omit it`}},
		{`{"cik":"1","cusip":[null]}`, got{CIK: "1", Reason: ia, Msg: `argument "cusip" must be a JSON array of strings; item 0 is null`}},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, parse(tt.raw)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestArgsNull: each accessor declines null with a message saying what the
// argument must be, and, for an optional one, to leave it out.
func TestArgsNull(t *testing.T) {
	a, err := ParseArgs(json.RawMessage(`{"s":null,"d":null,"l":null,"i":null,"n":null}`), "s", "d", "l", "i", "n")
	if err != nil {
		t.Fatal(err)
	}
	const omit = "; to leave it unset, omit it"
	msg := func(_ any, err error) string {
		d, ok := AsDecline(err)
		if !ok || d.Reason != edgar13f.InvalidArgument {
			t.Fatalf("error %v, want an invalid_argument decline", err)
		}
		return d.Message
	}
	tests := []struct{ got, want string }{
		{msg(a.String("s", true)), `argument "s" must be a JSON string, not null`},
		{msg(a.String("s", false)), `argument "s" must be a JSON string, not null` + omit},
		{msg(a.Date("d", true)), `argument "d" must be a date YYYY-MM-DD, not null`},
		{msg(a.Date("d", false)), `argument "d" must be a date YYYY-MM-DD, not null` + omit},
		{msg(a.Strings("l", true)), `argument "l" must be a JSON array of strings, not null`},
		{msg(a.Strings("l", false)), `argument "l" must be a JSON array of strings, not null` + omit},
		{msg(a.Int("i", 0, 5)), `argument "i" must be an integer from 0 to 5, not null` + omit},
		{msg(a.Int("n", math.MinInt, math.MaxInt)), `argument "n" must be a JSON integer, not null` + omit},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("message %q, want %q", tt.got, tt.want)
		}
	}
}

func TestConfig(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "data.sec.gov"), 0o755); err != nil {
		t.Fatal(err)
	}
	notTree := t.TempDir()
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	tests := []struct {
		name    string
		getenv  func(string) string
		want    Config
		nOpts   int
		wantErr string
	}{
		{"empty", env(), Config{}, 0, ""},
		{"all", env("SEC_USER_AGENT", "A a@b.c", "EDGAR13F_CACHE_DIR", "/c", "EDGAR13F_BASE_URL", "http://x", "EDGAR13F_REDACT", "off", "EDGAR13F_AGENT_MODE", "on"),
			Config{UserAgent: "A a@b.c", CacheDir: "/c", BaseURL: "http://x", RedactOff: true, AgentMode: true}, 5, ""},
		{"inexact values", env("EDGAR13F_REDACT", "OFF", "EDGAR13F_AGENT_MODE", "on "), Config{}, 0, ""},
		{"fixture", env("EDGAR13F_FIXTURE_DIR", dir), Config{FixtureDir: dir}, 1, ""},
		{"fixture not a mirror tree", env("EDGAR13F_FIXTURE_DIR", notTree), Config{FixtureDir: notTree}, 0,
			"--fixture-dir (EDGAR13F_FIXTURE_DIR): " + notTree + " is not an EDGAR mirror tree: it has no www.sec.gov or data.sec.gov directory (a mirror holds https://HOST/PATH as HOST/PATH)"},
		{"fixture and redaction off", env("EDGAR13F_FIXTURE_DIR", dir, "EDGAR13F_REDACT", "off"), Config{FixtureDir: dir, RedactOff: true}, 0,
			"--no-redact (EDGAR13F_REDACT=off) cannot be combined with --fixture-dir (EDGAR13F_FIXTURE_DIR): rows of a fixture directory are always redacted"},
		{"fixture and base", env("EDGAR13F_FIXTURE_DIR", dir, "EDGAR13F_BASE_URL", "http://x"), Config{FixtureDir: dir, BaseURL: "http://x"}, 0,
			"give --fixture-dir (EDGAR13F_FIXTURE_DIR) or --base-url (EDGAR13F_BASE_URL), not both"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := ConfigFromEnv(tt.getenv)
			if diff := cmp.Diff(tt.want, c, cmpopts.IgnoreUnexported(Config{})); diff != "" {
				t.Errorf("config (-want +got):\n%s", diff)
			}
			opts, err := c.ClientOptions()
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if gotErr != tt.wantErr || len(opts) != tt.nOpts {
				t.Errorf("ClientOptions() = %d options, %q; want %d, %q", len(opts), gotErr, tt.nOpts, tt.wantErr)
			}
		})
	}
}

func TestExplain(t *testing.T) {
	flags := Config{Names: Names{UserAgent: "--user-agent or SEC_USER_AGENT"}}
	tests := []struct {
		name string
		c    Config
		err  error
		want string
	}{
		{"no user agent, server", Config{}, edgar13f.ErrNoUserAgent,
			`no User-Agent for EDGAR: set SEC_USER_AGENT to "Name email@domain" (SEC's fair-access policy requires one naming you)`},
		{"no user agent, CLI", flags, fmt.Errorf("fetching: %w", edgar13f.ErrNoUserAgent),
			`no User-Agent for EDGAR: set --user-agent or SEC_USER_AGENT to "Name email@domain" (SEC's fair-access policy requires one naming you)`},
		{"user agent without email", Config{UserAgent: "nobody"}, uaErr("nobody"),
			`User-Agent "nobody" has no email address: set SEC_USER_AGENT to "Name email@domain" (SEC's fair-access policy requires one naming you)`},
		{"user agent with a control character", Config{UserAgent: "A\ta@b.example"}, uaErr("A\ta@b.example"),
			`User-Agent "A\ta@b.example" contains control characters: set SEC_USER_AGENT to "Name email@domain" (SEC's fair-access policy requires one naming you)`},
		{"library prefix", Config{}, errors.New("edgar13f: mirror has no x: edgar13f: not found"), "mirror has no x: edgar13f: not found"},
		{"other", Config{}, errors.New("dial tcp: refused"), "dial tcp: refused"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.c.Explain(tt.err); got != tt.want {
				t.Errorf("Explain(%v) = %q, want %q", tt.err, got, tt.want)
			}
			if strings.Contains(tt.c.Explain(tt.err), "WithUserAgent") {
				t.Errorf("Explain names the Go option")
			}
		})
	}
}

func TestNoUserAgent(t *testing.T) {
	tests := []struct {
		c    Config
		want bool
	}{
		{Config{}, true},
		{Config{UserAgent: "  "}, true},
		{Config{BaseURL: "http://127.0.0.1:1"}, true},
		{Config{UserAgent: "A a@b.c"}, false},
		{Config{FixtureDir: "d"}, false},
	}
	for _, tt := range tests {
		if got := tt.c.NoUserAgent(); got != tt.want {
			t.Errorf("%+v.NoUserAgent() = %v, want %v", tt.c, got, tt.want)
		}
	}
}

// uaErr returns the library's error for a User-Agent it refuses.
func uaErr(ua string) error {
	_, err := edgar13f.NewClient(edgar13f.WithUserAgent(ua))
	if !errors.Is(err, edgar13f.ErrNoUserAgent) {
		panic(fmt.Sprintf("the library accepts User-Agent %q", ua))
	}
	return err
}
