package wire

import (
	"errors"
	"flag"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/agent/model"
)

// A Program is one of the example programs, or a set of them.
type Program uint8

// The example programs.
const (
	CLI  Program = 1 << iota // examples/edgar13f
	MCP                      // examples/edgar13f-mcp
	HTTP                     // examples/edgar13f-http

	AllPrograms = CLI | MCP | HTTP
)

// String names the programs of p, e.g. "CLI, MCP, HTTP".
func (p Program) String() string {
	var names []string
	for _, q := range []struct {
		p    Program
		name string
	}{{CLI, "CLI"}, {MCP, "MCP"}, {HTTP, "HTTP"}} {
		if p&q.p != 0 {
			names = append(names, q.name)
		}
	}
	return strings.Join(names, ", ")
}

// A Setting is one row of the example programs' settings table: every
// program it applies to reads its environment variable, and takes its
// flag when it has one; a flag given overrides the variable.
type Setting struct {
	Name     string  // what it sets, e.g. "cache directory"
	Env      string  // its environment variable
	Flag     string  // its flag without the dashes; "" for none
	Switch   string  // for a flag that takes no value: the variable's value it stands for ("off")
	Programs Program // the programs that read it
	Meaning  string  // what it does, for help texts and the README
}

// DefaultAddr is the address the HTTP API listens on by default.
const DefaultAddr = "127.0.0.1:8801"

// BaseURLRetry is the retry policy of the example programs when they read
// an HTTP mirror (EDGAR13F_BASE_URL): 3 attempts, waiting about 0.25 s and
// 0.5 s, so that a mirror that is down or a URL with nothing listening
// fails within a second, naming the URL and the setting. Live EDGAR keeps
// the library's default RetryPolicy (6 attempts over about 31 s), which
// rides out SEC's throttling.
var BaseURLRetry = edgar13f.RetryPolicy{MaxAttempts: 3, BaseDelay: 250 * time.Millisecond, MaxDelay: 10 * time.Second}

// Settings is the one table of the example programs' settings, in the
// order help texts list them.
var Settings = []Setting{
	{"User-Agent", "SEC_USER_AGENT", "user-agent", "", AllPrograms,
		`"Name email@domain" sent with every EDGAR request (SEC's fair-access policy); needed for EDGAR and a base URL, not for a fixture directory`},
	{"cache directory", "EDGAR13F_CACHE_DIR", "cache-dir", "", AllPrograms,
		"cache directory, also holding the filing search's index (default $XDG_CACHE_HOME/edgar13f, else ~/.cache/edgar13f); processes sharing it share the request spacing"},
	{"redaction", "EDGAR13F_REDACT", "no-redact", "off", AllPrograms,
		`exactly "off" (or the flag) keeps the rows of gold, energy and S&P 500 funds that are removed by default; refused with a fixture directory`},
	{"agent mode", "EDGAR13F_AGENT_MODE", "", "", MCP,
		`exactly "on": a holdings or diff call with none of cusip, issuer, max_positions answers the 50 largest positions`},
	{"fixture directory", "EDGAR13F_FIXTURE_DIR", "fixture-dir", "", AllPrograms,
		"read this EDGAR mirror tree (e.g. testdata/mirror) instead of EDGAR; no User-Agent needed"},
	{"base URL", "EDGAR13F_BASE_URL", "base-url", "", AllPrograms,
		"fetch each EDGAR URL https://HOST/PATH as BASE/HOST/PATH from this HTTP mirror or proxy; retried 3 times within about a second " +
			"(live EDGAR: 6 times over about 31 s), so an unreachable one fails at once. A flag of fixture directory or base URL overrides the other's variable; both flags, or both variables, are refused"},
	{"embedder URL", "EDGAR13F_EMBED_URL", "", "", AllPrograms,
		"filing search embedder: an OpenAI-compatible base URL ending in /v1 (OpenAI, vLLM, llama.cpp, TEI, LM Studio, Ollama's /v1), ollama:http://host:port (Ollama's /api/embed), " +
			"or hash:DIM (a hashing embedder that is not semantic, for offline tests); unset: BM25 only (unless the model is local:MODEL), and the knn and hybrid modes decline invalid_argument"},
	{"embedding model", "EDGAR13F_EMBED_MODEL", "", "", AllPrograms,
		"the embedding model, e.g. nomic-embed-text (needed with an embedder URL but hash:DIM); recorded in the store, which refuses another one naming both. " +
			"local:MODEL without an embedder URL runs all-MiniLM-L6-v2 or bge-small-en-v1.5 (-q: int8) in-process: programs built with -tags onnx, after search/onnx/setup.sh MODEL"},
	{"embedder API key", "EDGAR13F_EMBED_API_KEY", "", "", AllPrograms,
		"optional API key sent to the embedder (Authorization: Bearer)"},
	{"OpenSearch URL", "EDGAR13F_OPENSEARCH_URL", "", "", AllPrograms,
		"keep the filing search's chunks in this OpenSearch 2.10+ cluster (with the k-NN plugin), e.g. https://search.example.com:9200, instead of the embedded store under the cache directory"},
	{"OpenSearch index", "EDGAR13F_OPENSEARCH_INDEX", "", "", AllPrograms,
		"the prefix of the cluster's indices (default " + DefaultOpenSearchIndex + "); each source of filings (EDGAR, a fixture directory, a base URL) has indices of its own, PREFIX-SOURCE-state and PREFIX-SOURCE-data-N"},
	{"OpenSearch user", "EDGAR13F_OPENSEARCH_USER", "", "", AllPrograms,
		"user name sent to the cluster (HTTP basic authentication), with EDGAR13F_OPENSEARCH_PASSWORD"},
	{"OpenSearch password", "EDGAR13F_OPENSEARCH_PASSWORD", "", "", AllPrograms,
		"password of that user"},
	{"OpenSearch CA file", "EDGAR13F_OPENSEARCH_CA_FILE", "", "", AllPrograms,
		"PEM file of the certificate authorities an https cluster's certificate is checked against (default: the system's)"},
	{"OpenSearch insecure TLS", "EDGAR13F_OPENSEARCH_INSECURE", "", "", AllPrograms,
		`exactly "on": do not check an https cluster's certificate (a test cluster's self-signed one)`},
	{"OpenSearch shards", "EDGAR13F_OPENSEARCH_SHARDS", "", "", AllPrograms,
		"primary shards of the data index the first index command creates (default: the cluster's, 1 on OpenSearch 2.x)"},
	{"OpenSearch replicas", "EDGAR13F_OPENSEARCH_REPLICAS", "", "", AllPrograms,
		"replicas of the indices the first index command creates (default: the cluster's, 1; a single node needs 0 for a green index)"},
	{"OpenSearch exact kNN", "EDGAR13F_OPENSEARCH_EXACT", "", "", AllPrograms,
		`exactly "on": kNN compares the query with every chunk that passes the filter instead of searching the HNSW graph, and the data index the first index command creates has no graph, its vectors kept flat by the faiss engine (OpenSearch 2.18+; indexing about twice as fast, kNN slower on large stores)`},
	{"Anthropic API key", model.EnvAnthropicAPIKey, "", "", AllPrograms,
		"the question-answering agent's model: the Anthropic Messages API"},
	{"agent model", model.EnvModel, "", "", AllPrograms,
		"the model's name (default " + model.DefaultAnthropic + " for Anthropic; needed with a chat URL)"},
	{"chat URL", model.EnvChatURL, "", "", AllPrograms,
		"or an OpenAI-compatible chat completions API with tools, ending in /v1 (e.g. http://localhost:11434/v1 for Ollama, vLLM, llama.cpp); preferred over ANTHROPIC_API_KEY when both are set"},
	{"chat API key", model.EnvChatAPIKey, "", "", AllPrograms,
		"optional key sent to that chat API"},
	{"address", "EDGAR13F_HTTP_ADDR", "addr", "", HTTP,
		"HOST:PORT the HTTP API listens on (default " + DefaultAddr + ")"},
}

// setting returns the row of env.
func setting(env string) Setting {
	for _, s := range Settings {
		if s.Env == env {
			return s
		}
	}
	panic("wire: no setting " + env)
}

// Label names s in messages the same way in every program: its flag and
// its variable, e.g. "--fixture-dir (EDGAR13F_FIXTURE_DIR)" or
// "--no-redact (EDGAR13F_REDACT=off)", or the variable alone.
func (s Setting) Label() string {
	v := s.Env
	if s.Switch != "" {
		v += "=" + s.Switch
	}
	if s.Flag == "" {
		return v
	}
	return "--" + s.Flag + " (" + v + ")"
}

// LabelOf is the Label of the setting whose variable is env.
func LabelOf(env string) string { return setting(env).Label() }

func label(env string) string { return LabelOf(env) }

// SettingsHelp lists the settings of p, for its usage text.
func SettingsHelp(p Program) string {
	return "Settings (environment variables; a flag given overrides its variable):\n" +
		settingsHelp(func(s Setting) bool { return s.Programs&p != 0 })
}

// ModelHelp lists the language model's settings as [SettingsHelp] does,
// for the help of the commands that ask a model.
func ModelHelp() string {
	return settingsHelp(func(s Setting) bool {
		switch s.Env {
		case model.EnvAnthropicAPIKey, model.EnvModel, model.EnvChatURL, model.EnvChatAPIKey:
			return true
		}
		return false
	})
}

// settingsHelp lists the settings keep keeps, each with its flag and its
// meaning wrapped below it.
func settingsHelp(keep func(Setting) bool) string {
	var b strings.Builder
	for _, s := range Settings {
		if !keep(s) {
			continue
		}
		head := s.Env
		if s.Flag != "" {
			head += ", --" + s.Flag
		}
		fmt.Fprintf(&b, "  %s\n", head)
		for _, line := range wrap(s.Meaning, 90) {
			fmt.Fprintf(&b, "        %s\n", line)
		}
	}
	return b.String()
}

// wrap cuts text into lines of at most width characters, between words.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return append(lines, line)
}

// Flags are the settings flags of one program on its FlagSet.
type Flags struct {
	prog  Program
	fs    *flag.FlagSet
	strs  map[string]*string // by variable
	bools map[string]*bool
}

// RegisterFlags defines on fs the flags of the settings of p, each
// described by its Meaning, but the flags named in skip (a command that
// does not read a setting does not list its flag; its variable still
// counts).
func RegisterFlags(fs *flag.FlagSet, p Program, skip ...string) *Flags {
	f := &Flags{prog: p, fs: fs, strs: map[string]*string{}, bools: map[string]*bool{}}
	for _, s := range Settings {
		if s.Programs&p == 0 || s.Flag == "" || slices.Contains(skip, s.Flag) {
			continue
		}
		if s.Switch != "" {
			f.bools[s.Env] = fs.Bool(s.Flag, false, s.Meaning+" (sets "+s.Env+"="+s.Switch+")")
		} else {
			f.strs[s.Env] = fs.String(s.Flag, "", s.Meaning+" (default $"+s.Env+")")
		}
	}
	return f
}

// Config resolves the settings of the program once its flags are parsed:
// each setting from its flag when given, else from its variable read
// through getenv. A fixture directory given as a flag overrides a base URL
// given as a variable, and the other way round. The Config is checked
// ([Config.Check]); its error is a usage error, worded the same in every
// program.
func (f *Flags) Config(getenv func(string) string) (Config, error) {
	given := map[string]bool{}
	f.fs.Visit(func(fl *flag.Flag) { given[fl.Name] = true })
	fromFlag := map[string]bool{}
	var empty error
	value := func(env string) string {
		s := setting(env)
		if s.Programs&f.prog == 0 {
			return ""
		}
		if s.Flag != "" && given[s.Flag] {
			fromFlag[env] = true
			if b, ok := f.bools[env]; ok {
				if *b {
					return s.Switch
				}
				return ""
			}
			v := *f.strs[env]
			if strings.TrimSpace(v) == "" && empty == nil {
				empty = fmt.Errorf("--%s is empty: give a value or leave the flag out", s.Flag)
			}
			return v
		}
		return getenv(env)
	}
	c := configOf(value)
	if empty != nil {
		return c, empty
	}
	if f.prog&HTTP != 0 && c.Addr == "" {
		c.Addr = DefaultAddr
	}
	// The source of EDGAR documents: a flag of one overrides the other's
	// variable; two flags or two variables are refused by Check.
	if c.FixtureDir != "" && c.BaseURL != "" && fromFlag["EDGAR13F_FIXTURE_DIR"] != fromFlag["EDGAR13F_BASE_URL"] {
		if fromFlag["EDGAR13F_FIXTURE_DIR"] {
			c.BaseURL = ""
		} else {
			c.FixtureDir = ""
		}
	}
	return c, c.Check()
}

// checkBaseURL refuses a base URL the library would refuse, naming the
// setting rather than the library's option.
func checkBaseURL(base string) error {
	b, err := url.Parse(base)
	if err != nil || (b.Scheme != "http" && b.Scheme != "https") || b.Host == "" || b.Opaque != "" ||
		b.RawQuery != "" || b.ForceQuery || b.Fragment != "" || strings.Contains(base, "#") {
		return fmt.Errorf("%s %q is not an http or https URL with a host and no query or fragment, such as http://127.0.0.1:8080", label("EDGAR13F_BASE_URL"), base)
	}
	return nil
}

// checkAddr refuses an address that is not HOST:PORT.
func checkAddr(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err == nil {
		if n, perr := strconv.Atoi(port); perr != nil || n < 0 || n > 65535 {
			err = errors.New("bad port")
		}
	}
	if err != nil {
		return fmt.Errorf("%s %q is not HOST:PORT, such as %s", label("EDGAR13F_HTTP_ADDR"), addr, DefaultAddr)
	}
	return nil
}

// unreachable reports whether err is a failure to reach a server (refused
// connection, unknown host, reset), as opposed to an answer.
func unreachable(err error) bool {
	var op *net.OpError
	var dns *net.DNSError
	return errors.As(err, &op) || errors.As(err, &dns)
}

// SettingsMarkdown is the settings table as the examples' README shows it:
// one row per setting with its variable, flag, programs and meaning.
func SettingsMarkdown() string {
	var b strings.Builder
	b.WriteString("| variable | flag | programs | meaning |\n|---|---|---|---|\n")
	for _, s := range Settings {
		flag := ""
		if s.Flag != "" {
			flag = "`--" + s.Flag + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", s.Env, flag, s.Programs, strings.ReplaceAll(s.Meaning, "|", `\|`))
	}
	return b.String()
}
