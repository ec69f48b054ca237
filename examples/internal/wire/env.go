package wire

import (
	"errors"

	"github.com/edgar13f/edgar13f"
)

// Config is the environment of the example server (SPEC §9).
type Config struct {
	UserAgent  string // SEC_USER_AGENT
	CacheDir   string // EDGAR13F_CACHE_DIR; "" for the library default
	FixtureDir string // EDGAR13F_FIXTURE_DIR: an EDGAR mirror tree read instead of EDGAR
	BaseURL    string // EDGAR13F_BASE_URL: an HTTP mirror of EDGAR
	RedactOff  bool   // EDGAR13F_REDACT is exactly "off"
	AgentMode  bool   // EDGAR13F_AGENT_MODE is exactly "on"
}

// AgentLimit is the max_positions applied in agent mode to a holdings or
// diff call that names none of cusip, issuer and max_positions.
const AgentLimit = 50

// ConfigFromEnv reads the settings through getenv (os.Getenv in the
// binaries). Only the exact values "off" and "on" switch redaction off and
// agent mode on.
func ConfigFromEnv(getenv func(string) string) Config {
	return Config{
		UserAgent:  getenv("SEC_USER_AGENT"),
		CacheDir:   getenv("EDGAR13F_CACHE_DIR"),
		FixtureDir: getenv("EDGAR13F_FIXTURE_DIR"),
		BaseURL:    getenv("EDGAR13F_BASE_URL"),
		RedactOff:  getenv("EDGAR13F_REDACT") == "off",
		AgentMode:  getenv("EDGAR13F_AGENT_MODE") == "on",
	}
}

// ClientOptions returns the library options of c. It refuses a fixture
// directory combined with redaction off, and a fixture directory combined
// with a base URL.
func (c Config) ClientOptions() ([]edgar13f.ClientOption, error) {
	var opts []edgar13f.ClientOption
	if c.UserAgent != "" {
		opts = append(opts, edgar13f.WithUserAgent(c.UserAgent))
	}
	if c.CacheDir != "" {
		opts = append(opts, edgar13f.WithCacheDir(c.CacheDir))
	}
	if c.RedactOff {
		if c.FixtureDir != "" {
			return nil, errors.New("wire: redaction cannot be turned off with a fixture directory")
		}
		opts = append(opts, edgar13f.WithRedaction(false))
	}
	if c.FixtureDir != "" {
		if c.BaseURL != "" {
			return nil, errors.New("wire: give a fixture directory or a base URL, not both")
		}
		fsys, err := edgar13f.MirrorDir(c.FixtureDir)
		if err != nil {
			return nil, err
		}
		opts = append(opts, edgar13f.WithFetcher(edgar13f.NewMirrorFetcher(fsys)))
	}
	if c.BaseURL != "" {
		opts = append(opts, edgar13f.WithBaseURL(c.BaseURL))
	}
	return opts, nil
}
