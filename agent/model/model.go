// Package model is the language model of package
// github.com/edgar13f/edgar13f/agent: the [Model] interface its tool loop
// talks to, in terms of its own (one [Request], one [Response], tool calls
// and their results), and two implementations.
//
// [NewAnthropic] calls the Anthropic Messages API through the official Go
// SDK; [NewOpenAI] calls an OpenAI-compatible chat completions API with
// tools, such as a local model served by Ollama, vLLM or llama.cpp.
// [New] chooses from a [Config], which [FromEnv] fills from the
// environment variables the example programs use (ANTHROPIC_API_KEY,
// EDGAR13F_AGENT_MODEL, EDGAR13F_CHAT_URL, EDGAR13F_CHAT_API_KEY). The
// package reads no environment variable itself. Both models retry 429 and
// 5xx responses; a request that still fails is an [*Error]. Error texts
// begin with "agent:", as the agent's own do.
package model

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// A Model is a chat model that can call tools. [NewAnthropic] and
// [NewOpenAI] return the two implementations; [New] picks one from
// configuration. Implementations must be safe for concurrent use.
type Model interface {
	// Chat sends one request and returns the model's next turn.
	Chat(ctx context.Context, req *Request) (*Response, error)
}

// A Request is everything a model sees for one turn.
type Request struct {
	System    string
	Messages  []Message
	Tools     []Tool
	MaxTokens int // the most tokens the model may write in its turn; 0 means DefaultMaxTokens
}

// DefaultMaxTokens is the most tokens a model writes in one turn when the
// Request does not say.
const DefaultMaxTokens = 4096

// A Role says who wrote a [Message].
type Role string

// The roles of a conversation.
const (
	User      Role = "user"
	Assistant Role = "assistant"
)

// A Message is one turn of the conversation. A user message holds text or
// the results of the tool calls of the assistant message before it; an
// assistant message holds text, tool calls or both.
type Message struct {
	Role        Role
	Text        string
	ToolCalls   []ToolCall   // assistant: the tools it called
	ToolResults []ToolResult // user: the results of the calls of the previous assistant message
}

// A Tool is a tool the model may call.
type Tool struct {
	Name        string
	Description string
	// Parameters is the JSON Schema of the tool's arguments: an object
	// schema with "properties" and "required".
	Parameters map[string]any
}

// A ToolCall is the model's request to run a tool.
type ToolCall struct {
	ID        string          // the API's id of the call; results refer to it
	Name      string          // the tool's name
	Arguments json.RawMessage // a JSON object, as the model wrote it
}

// A ToolResult is what a tool call returned, sent back to the model.
type ToolResult struct {
	CallID  string // the ToolCall's ID
	Content string
	IsError bool // the call failed or was declined; Content says why
}

// A StopReason says why the model ended its turn.
type StopReason string

// The stop reasons the tool loop tells apart. An API's other reasons are
// passed through as they are.
const (
	StopEndTurn   StopReason = "end_turn"   // the turn is complete
	StopToolUse   StopReason = "tool_use"   // the model called tools
	StopMaxTokens StopReason = "max_tokens" // the turn was cut at Request.MaxTokens
	StopRefusal   StopReason = "refusal"    // the model refused to answer
)

// A Response is the model's turn.
type Response struct {
	Text      string
	ToolCalls []ToolCall
	Stop      StopReason
	Usage     Usage
	Model     string // the model that answered, as the API names it
}

// Usage counts the tokens of one or more model turns.
type Usage struct {
	InputTokens  int64
	OutputTokens int64
}

// Add returns the sum of u and v.
func (u Usage) Add(v Usage) Usage {
	return Usage{InputTokens: u.InputTokens + v.InputTokens, OutputTokens: u.OutputTokens + v.OutputTokens}
}

// An Error reports a failed model request: an HTTP error status after
// the retries, or a response that could not be read.
type Error struct {
	Provider   string // "anthropic" or "openai"
	StatusCode int    // the last HTTP status; 0 when no response was read
	Attempts   int    // requests made, retries included; 0 when not known
	Message    string // the API's error message, or what went wrong
	Err        error  // the underlying error, if any
}

// Error describes the failure.
func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "agent: %s model request failed", e.Provider)
	if e.StatusCode != 0 {
		fmt.Fprintf(&b, " with HTTP status %d", e.StatusCode)
	}
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " after %d attempts", e.Attempts)
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	} else if e.Err != nil {
		b.WriteString(": " + e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// ErrNoModel is matched (with [errors.Is]) by the error of [New] when
// the configuration names no model; the error's text says what to set.
var ErrNoModel = errors.New("agent: no language model configured")
