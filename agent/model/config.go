package model

import (
	"fmt"
	"strings"
)

// The environment variables the example programs read to configure a
// model. The library itself reads none: a program passes their values in
// a [Config].
const (
	EnvAnthropicAPIKey = "ANTHROPIC_API_KEY"     // the Anthropic API's key
	EnvModel           = "EDGAR13F_AGENT_MODEL"  // the model's name
	EnvChatURL         = "EDGAR13F_CHAT_URL"     // an OpenAI-compatible API's base URL, ending in /v1
	EnvChatAPIKey      = "EDGAR13F_CHAT_API_KEY" // that API's key, if it needs one
)

// Config names the model the agent uses.
type Config struct {
	AnthropicAPIKey string // ANTHROPIC_API_KEY
	Model           string // EDGAR13F_AGENT_MODEL
	ChatURL         string // EDGAR13F_CHAT_URL
	ChatAPIKey      string // EDGAR13F_CHAT_API_KEY
}

// FromEnv returns the Config that getenv gives for the environment
// variables above; pass [os.Getenv].
func FromEnv(getenv func(string) string) Config {
	return Config{
		AnthropicAPIKey: strings.TrimSpace(getenv(EnvAnthropicAPIKey)),
		Model:           strings.TrimSpace(getenv(EnvModel)),
		ChatURL:         strings.TrimSpace(getenv(EnvChatURL)),
		ChatAPIKey:      strings.TrimSpace(getenv(EnvChatAPIKey)),
	}
}

// NoModelMessage says how to configure a model. It is the text of the
// error [New] returns when none is configured.
const NoModelMessage = "no language model configured: set " + EnvAnthropicAPIKey + " (and optionally " + EnvModel +
	", default " + DefaultAnthropic + ") to use the Anthropic API, or " + EnvChatURL + " (an OpenAI-compatible API's base URL, such as http://localhost:11434/v1 for Ollama) and " +
	EnvModel + " (optionally " + EnvChatAPIKey + ") to use a local or other model"

// New returns the model cfg names: an OpenAI-compatible API when
// ChatURL is set (it is the more explicit choice, and an Anthropic key may
// be set in the environment for other programs), else the Anthropic API
// when AnthropicAPIKey is set. With neither, the error matches
// [ErrNoModel] and says what to set.
func New(cfg Config, opts ...Option) (Model, error) {
	switch {
	case cfg.ChatURL != "":
		if cfg.Model == "" {
			return nil, fmt.Errorf("%w: %s is set, so %s must name the model it serves", ErrNoModel, EnvChatURL, EnvModel)
		}
		return NewOpenAI(cfg.ChatURL, cfg.Model, cfg.ChatAPIKey, opts...)
	case cfg.AnthropicAPIKey != "":
		return NewAnthropic(cfg.AnthropicAPIKey, cfg.Model, opts...)
	}
	return nil, noModelError{}
}

// noModelError is the error of New with nothing configured.
type noModelError struct{}

func (noModelError) Error() string        { return "agent: " + NoModelMessage }
func (noModelError) Is(target error) bool { return target == ErrNoModel }
