package model

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"
)

// DefaultAnthropic is the model [NewAnthropic] and [New] use
// when none is named.
const DefaultAnthropic = anthropic.ModelClaudeSonnet5_5

// DefaultMaxRetries is how many times a model request is retried after a
// 408, 409, 429 or 5xx status or a connection error, unless
// [WithMaxRetries] says otherwise.
const DefaultMaxRetries = 2

// An Option configures a [Model] made by [NewAnthropic], [NewOpenAI]
// or [New].
type Option func(*options)

type options struct {
	baseURL    string
	httpClient *http.Client
	maxRetries int
}

// WithBaseURL sends the model's requests to base instead of the API's own
// address: for the Anthropic API a URL such as "https://api.anthropic.com",
// for an OpenAI-compatible server one ending in "/v1", such as
// "http://localhost:11434/v1".
func WithBaseURL(base string) Option { return func(o *options) { o.baseURL = base } }

// WithHTTPClient makes the model send its requests with c.
func WithHTTPClient(c *http.Client) Option { return func(o *options) { o.httpClient = c } }

// WithMaxRetries sets how many times a failed request is retried (0 to
// 10, default [DefaultMaxRetries]). Retries wait as the server's
// Retry-After (or retry-after-ms) header asks, else back off from half a
// second up to 8 seconds.
func WithMaxRetries(n int) Option {
	return func(o *options) { o.maxRetries = min(max(n, 0), 10) }
}

func applyOptions(opts []Option) options {
	o := options{maxRetries: DefaultMaxRetries}
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	if o.httpClient == nil {
		o.httpClient = http.DefaultClient
	}
	return o
}

// Anthropic is a [Model] served by the Anthropic Messages API, through the
// official Go SDK. It reads no environment variable: the key, model and
// base URL are the ones given.
type Anthropic struct {
	client anthropic.Client
	model  string
}

// NewAnthropic returns the Anthropic Messages API's model (default
// [DefaultAnthropic]) called with apiKey.
func NewAnthropic(apiKey, model string, opts ...Option) (*Anthropic, error) {
	if strings.TrimSpace(apiKey) == "" {
		return nil, errors.New("agent: the Anthropic API needs an API key (ANTHROPIC_API_KEY)")
	}
	if model == "" {
		model = DefaultAnthropic
	}
	o := applyOptions(opts)
	ro := []option.RequestOption{
		option.WithoutEnvironmentDefaults(), // the library reads no environment
		option.WithAPIKey(apiKey),
		option.WithHTTPClient(o.httpClient),
		option.WithMaxRetries(o.maxRetries),
		option.WithMiddleware(countAttempts),
	}
	if o.baseURL != "" {
		ro = append(ro, option.WithBaseURL(o.baseURL))
	}
	return &Anthropic{client: anthropic.NewClient(ro...), model: model}, nil
}

// attemptsKey holds, in a request's context, the counter of its attempts.
type attemptsKey struct{}

// countAttempts counts the attempts (retries included) of one call.
func countAttempts(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
	if n, ok := req.Context().Value(attemptsKey{}).(*atomic.Int32); ok {
		n.Add(1)
	}
	return next(req)
}

// Chat sends req to the Messages API.
func (m *Anthropic) Chat(ctx context.Context, req *Request) (*Response, error) {
	maxTokens := req.MaxTokens
	if maxTokens <= 0 {
		maxTokens = DefaultMaxTokens
	}
	params := anthropic.MessageNewParams{
		Model:     m.model,
		MaxTokens: int64(maxTokens),
		Messages:  anthropicMessages(req.Messages),
		Tools:     anthropicTools(req.Tools),
	}
	if req.System != "" {
		params.System = []anthropic.TextBlockParam{{Text: req.System}}
	}
	attempts := new(atomic.Int32)
	msg, err := m.client.Messages.New(context.WithValue(ctx, attemptsKey{}, attempts), params)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		me := &Error{Provider: "anthropic", Attempts: int(attempts.Load()), Err: err}
		var ae *anthropic.Error
		if errors.As(err, &ae) {
			me.StatusCode, me.Message = ae.StatusCode, ae.Message
		}
		return nil, me
	}
	out := &Response{
		Stop:  StopReason(msg.StopReason),
		Usage: Usage{InputTokens: msg.Usage.InputTokens, OutputTokens: msg.Usage.OutputTokens},
		Model: msg.Model,
	}
	var text []string
	for _, b := range msg.Content {
		switch b.Type {
		case "text":
			text = append(text, b.Text)
		case "tool_use":
			args := json.RawMessage(b.Input)
			if len(args) == 0 {
				args = json.RawMessage("{}")
			}
			out.ToolCalls = append(out.ToolCalls, ToolCall{ID: b.ID, Name: b.Name, Arguments: args})
		}
	}
	out.Text = strings.Join(text, "\n")
	return out, nil
}

func anthropicMessages(ms []Message) []anthropic.MessageParam {
	var out []anthropic.MessageParam
	for _, m := range ms {
		var blocks []anthropic.ContentBlockParamUnion
		for _, r := range m.ToolResults {
			blocks = append(blocks, anthropic.NewToolResultBlock(r.CallID, r.Content, r.IsError))
		}
		if m.Text != "" {
			blocks = append(blocks, anthropic.NewTextBlock(m.Text))
		}
		for _, c := range m.ToolCalls {
			args := c.Arguments
			if !json.Valid(args) {
				args = json.RawMessage("{}")
			}
			blocks = append(blocks, anthropic.NewToolUseBlock(c.ID, args, c.Name))
		}
		if len(blocks) == 0 {
			blocks = append(blocks, anthropic.NewTextBlock("(no text)"))
		}
		if m.Role == Assistant {
			out = append(out, anthropic.NewAssistantMessage(blocks...))
		} else {
			out = append(out, anthropic.NewUserMessage(blocks...))
		}
	}
	return out
}

func anthropicTools(ts []Tool) []anthropic.ToolUnionParam {
	var out []anthropic.ToolUnionParam
	for _, t := range ts {
		schema := anthropic.ToolInputSchemaParam{Properties: t.Parameters["properties"]}
		if req, ok := t.Parameters["required"].([]string); ok {
			schema.Required = req
		}
		extra := map[string]any{}
		for k, v := range t.Parameters {
			if k != "properties" && k != "required" && k != "type" {
				extra[k] = v
			}
		}
		if len(extra) > 0 {
			schema.ExtraFields = extra
		}
		out = append(out, anthropic.ToolUnionParam{OfTool: &anthropic.ToolParam{
			Name:        t.Name,
			Description: param.NewOpt(t.Description),
			InputSchema: schema,
		}})
	}
	return out
}
