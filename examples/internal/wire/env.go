package wire

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"
	"unicode"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/agent/model"
	"github.com/edgar13f/edgar13f/mirror"
)

// Version is the version both example binaries report.
const Version = "0.1.0"

// Config is the environment of the example binaries.
type Config struct {
	UserAgent  string // SEC_USER_AGENT
	CacheDir   string // EDGAR13F_CACHE_DIR; "" for the library default
	FixtureDir string // EDGAR13F_FIXTURE_DIR: an EDGAR mirror tree read instead of EDGAR
	BaseURL    string // EDGAR13F_BASE_URL: an HTTP mirror of EDGAR
	RedactOff  bool   // EDGAR13F_REDACT is exactly "off"
	AgentMode  bool   // EDGAR13F_AGENT_MODE is exactly "on"

	// The filing search's embedder (see Embedder); all "" for none.
	EmbedURL    string // EDGAR13F_EMBED_URL
	EmbedModel  string // EDGAR13F_EMBED_MODEL
	EmbedAPIKey string // EDGAR13F_EMBED_API_KEY

	// OpenSearch is the OpenSearch cluster the filing search keeps its
	// chunks in; its zero value (no URL) keeps them in the embedded store.
	OpenSearch OpenSearchConfig

	// Model is the question-answering agent's language model (see
	// model.FromEnv); its zero value names none.
	Model model.Config

	// Addr is the address the HTTP API listens on (EDGAR13F_HTTP_ADDR).
	Addr string

	// Names says how a user gives the User-Agent in the messages of a
	// failure that needs one; the zero value names the environment
	// variable. (A refused setting is named the same way in every
	// program: see Setting.Label.)
	Names Names

	// mirror is FixtureDir's tree, opened once for the Config and every
	// copy of it (Check, the Client's fetcher, the CLI's mirror watch);
	// nil for a Config not made by the settings.
	mirror *mirrorTree
}

// mirrorTree is a mirror tree opened once.
type mirrorTree struct {
	dir  string
	once sync.Once
	fsys fs.FS
	err  error
}

// OpenMirror opens the mirror tree of a fixture directory
// (mirror.Dir). The programs open it through [Config.Mirror] only,
// once at start-up; a test may count the openings by replacing it.
var OpenMirror = mirror.Dir

// Mirror returns the mirror tree of FixtureDir (nil without one), or why
// the directory is not one. A Config made by the settings opens it once,
// however often it is asked, so that every part of a program reads the
// tree it checked.
func (c Config) Mirror() (fs.FS, error) {
	if c.FixtureDir == "" {
		return nil, nil
	}
	m := c.mirror
	if m == nil || m.dir != c.FixtureDir {
		return OpenMirror(c.FixtureDir)
	}
	m.once.Do(func() { m.fsys, m.err = OpenMirror(m.dir) })
	return m.fsys, m.err
}

// Names are the words a message uses for the User-Agent: the variable
// for the MCP server, the flag or the variable for the CLI and the HTTP
// API. An empty field names the environment variable.
type Names struct {
	UserAgent string // e.g. "--user-agent or SEC_USER_AGENT"
}

// name returns s, or env when s is empty.
func name(s, env string) string {
	if s != "" {
		return s
	}
	return env
}

// AgentLimit is the max_positions applied in agent mode to a holdings or
// diff call that names none of cusip, issuer and max_positions.
const AgentLimit = 50

// ConfigFromEnv reads the settings through getenv (os.Getenv in the
// binaries). Only the exact values "off" and "on" switch redaction off and
// agent mode on.
func ConfigFromEnv(getenv func(string) string) Config { return configOf(getenv) }

// configOf builds the Config of the settings' values, each read by its
// variable's name through value: the environment itself, or (Flags.Config)
// a flag given before its variable.
func configOf(value func(env string) string) Config {
	return Config{
		UserAgent:  value("SEC_USER_AGENT"),
		CacheDir:   value("EDGAR13F_CACHE_DIR"),
		FixtureDir: value("EDGAR13F_FIXTURE_DIR"),
		BaseURL:    value("EDGAR13F_BASE_URL"),
		RedactOff:  value("EDGAR13F_REDACT") == "off",
		AgentMode:  value("EDGAR13F_AGENT_MODE") == "on",

		EmbedURL:    value("EDGAR13F_EMBED_URL"),
		EmbedModel:  value("EDGAR13F_EMBED_MODEL"),
		EmbedAPIKey: value("EDGAR13F_EMBED_API_KEY"),

		OpenSearch: OpenSearchConfig{
			URL:      value("EDGAR13F_OPENSEARCH_URL"),
			Index:    value("EDGAR13F_OPENSEARCH_INDEX"),
			User:     value("EDGAR13F_OPENSEARCH_USER"),
			Password: value("EDGAR13F_OPENSEARCH_PASSWORD"),
			CAFile:   value("EDGAR13F_OPENSEARCH_CA_FILE"),
			Insecure: value("EDGAR13F_OPENSEARCH_INSECURE") == "on",
			Shards:   value("EDGAR13F_OPENSEARCH_SHARDS"),
			Replicas: value("EDGAR13F_OPENSEARCH_REPLICAS"),
			Exact:    value("EDGAR13F_OPENSEARCH_EXACT") == "on",
		},

		Model: model.FromEnv(value),
		Addr:  value("EDGAR13F_HTTP_ADDR"),

		mirror: &mirrorTree{dir: value("EDGAR13F_FIXTURE_DIR")},
	}
}

// Check refuses settings that cannot be combined (redaction off with a
// fixture directory, a fixture directory with a base URL), a fixture
// directory that is not an EDGAR mirror tree, a base URL that is not an
// http or https URL, an embedder setting that names no usable embedder
// and an address that is not HOST:PORT. Its messages name each setting by
// its Label, the same in every program.
func (c Config) Check() error {
	fixture := label("EDGAR13F_FIXTURE_DIR")
	if c.RedactOff && c.FixtureDir != "" {
		return fmt.Errorf("%s cannot be combined with %s: rows of a fixture directory are always redacted", label("EDGAR13F_REDACT"), fixture)
	}
	if c.FixtureDir != "" && c.BaseURL != "" {
		return fmt.Errorf("give %s or %s, not both", fixture, label("EDGAR13F_BASE_URL"))
	}
	if c.FixtureDir != "" {
		// A directory that is not a mirror tree would answer every
		// question "unknown CIK".
		if _, err := c.Mirror(); err != nil {
			return fmt.Errorf("%s: %s", fixture, c.Explain(err))
		}
	}
	if c.BaseURL != "" {
		if err := checkBaseURL(c.BaseURL); err != nil {
			return err
		}
	}
	if _, err := c.Embedder(); err != nil {
		return err
	}
	if err := c.OpenSearch.check(); err != nil {
		return err
	}
	if c.Addr != "" {
		return checkAddr(c.Addr)
	}
	return nil
}

// ClientOptions returns the library options of c, or the error of Check.
func (c Config) ClientOptions() ([]edgar13f.ClientOption, error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	var opts []edgar13f.ClientOption
	if c.UserAgent != "" {
		opts = append(opts, edgar13f.WithUserAgent(c.UserAgent))
	}
	if c.CacheDir != "" {
		opts = append(opts, edgar13f.WithCacheDir(c.CacheDir))
	}
	if c.RedactOff {
		opts = append(opts, edgar13f.WithRedaction(false))
	}
	if c.FixtureDir != "" {
		fsys, err := c.Mirror()
		if err != nil {
			return nil, err
		}
		opts = append(opts, edgar13f.WithFetcher(mirror.NewFetcher(fsys)))
	}
	if c.BaseURL != "" {
		opts = append(opts, edgar13f.WithBaseURL(c.BaseURL), edgar13f.WithRetryPolicy(BaseURLRetry))
	}
	return opts, nil
}

// NewClient returns the Client of c's settings and extra options. When the
// library refuses the User-Agent (none, or one without an email address),
// the Client is built all the same, over a fetcher that fails every request
// with the library's error: arguments are still checked (and declined)
// first, nothing is sent, and a question that needs EDGAR fails saying what
// is wrong with the User-Agent ([Config.Explain]). uaErr is that error, nil
// when the User-Agent is accepted.
func (c Config) NewClient(extra ...edgar13f.ClientOption) (client *edgar13f.Client, uaErr error, err error) {
	opts, err := c.ClientOptions()
	if err != nil {
		return nil, nil, err
	}
	opts = append(opts, extra...)
	client, err = edgar13f.NewClient(opts...)
	if errors.Is(err, edgar13f.ErrNoUserAgent) {
		uaErr = err
		client, err = edgar13f.NewClient(append(opts, edgar13f.WithFetcher(failingFetcher{uaErr}))...)
	}
	if err != nil {
		return nil, nil, err
	}
	return client, uaErr, nil
}

// failingFetcher fails every fetch with err: nothing is sent. It names a
// source of its own, so that the Client keeps its cache directory (the
// Form 13F Data Sets need one to get as far as a fetch) while no entry of
// another source can answer through it.
type failingFetcher struct{ err error }

func (f failingFetcher) Fetch(context.Context, string) ([]byte, error) { return nil, f.err }

func (f failingFetcher) Source() string { return "refused-user-agent" }

// NoUserAgent reports whether c reaches EDGAR over HTTP (live or through a
// base URL) without a User-Agent, so that every request will fail.
func (c Config) NoUserAgent() bool {
	return c.FixtureDir == "" && strings.TrimSpace(c.UserAgent) == ""
}

// NoUserAgentText says what is wrong with the User-Agent (missing, or one
// the library refuses) and what to set.
func (c Config) NoUserAgentText() string {
	what := "no User-Agent for EDGAR"
	switch ua := strings.TrimSpace(c.UserAgent); {
	case ua == "":
	case strings.ContainsFunc(ua, unicode.IsControl):
		what = fmt.Sprintf("User-Agent %q contains control characters", ua)
	default:
		what = fmt.Sprintf("User-Agent %q has no email address", ua)
	}
	return what + `: set ` + name(c.Names.UserAgent, "SEC_USER_AGENT") +
		` to "Name email@domain" (SEC's fair-access policy requires one naming you)`
}

// Explain returns the text of a failure for a user of a binary, which
// prints its own name before it: a missing or refused User-Agent names the
// setting that gives one, and the library's "edgar13f: " prefix is left
// out.
func (c Config) Explain(err error) string {
	if errors.Is(err, edgar13f.ErrNoUserAgent) {
		return c.NoUserAgentText()
	}
	msg := strings.TrimPrefix(err.Error(), "edgar13f: ")
	if c.BaseURL != "" && c.FixtureDir == "" && unreachable(err) {
		return fmt.Sprintf("%s %s is unreachable: %s", label("EDGAR13F_BASE_URL"), c.BaseURL, msg)
	}
	return msg
}
