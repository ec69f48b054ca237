package model

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// OpenAI is a [Model] served by an OpenAI-compatible chat completions API
// with tools (function calling): OpenAI itself, or a local server such as
// Ollama (http://localhost:11434/v1), vLLM, llama.cpp or LM Studio. It is a
// plain net/http JSON client.
type OpenAI struct {
	base   string // without a trailing slash, e.g. "http://localhost:11434/v1"
	model  string
	apiKey string
	o      options
}

// maxResponseBytes bounds a chat completion read from a server.
const maxResponseBytes = 16 << 20

// NewOpenAI returns model served by the OpenAI-compatible API at baseURL
// (ending in "/v1"), called with apiKey when it is not empty. A
// [WithBaseURL] option replaces baseURL.
func NewOpenAI(baseURL, model, apiKey string, opts ...Option) (*OpenAI, error) {
	o := applyOptions(opts)
	if o.baseURL != "" {
		baseURL = o.baseURL
	}
	baseURL = strings.TrimRight(strings.TrimSpace(baseURL), "/")
	if !strings.HasPrefix(baseURL, "http://") && !strings.HasPrefix(baseURL, "https://") {
		return nil, fmt.Errorf("agent: the chat completions URL %q must start with http:// or https:// (e.g. http://localhost:11434/v1)", baseURL)
	}
	if strings.TrimSpace(model) == "" {
		return nil, fmt.Errorf("agent: name the model served at %s (EDGAR13F_AGENT_MODEL)", baseURL)
	}
	return &OpenAI{base: baseURL, model: model, apiKey: apiKey, o: o}, nil
}

// The wire format of chat completions.
type (
	oaRequest struct {
		Model     string      `json:"model"`
		Messages  []oaMessage `json:"messages"`
		Tools     []oaTool    `json:"tools,omitempty"`
		MaxTokens int         `json:"max_tokens,omitempty"`
	}
	oaMessage struct {
		Role       string       `json:"role"`
		Content    *string      `json:"content"`
		ToolCalls  []oaToolCall `json:"tool_calls,omitempty"`
		ToolCallID string       `json:"tool_call_id,omitempty"`
	}
	oaToolCall struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	}
	oaTool struct {
		Type     string `json:"type"`
		Function struct {
			Name        string         `json:"name"`
			Description string         `json:"description"`
			Parameters  map[string]any `json:"parameters"`
		} `json:"function"`
	}
	oaResponse struct {
		Model   string `json:"model"`
		Choices []struct {
			Message struct {
				Content   *string      `json:"content"`
				Refusal   *string      `json:"refusal"`
				ToolCalls []oaToolCall `json:"tool_calls"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
		Usage struct {
			PromptTokens     int64 `json:"prompt_tokens"`
			CompletionTokens int64 `json:"completion_tokens"`
		} `json:"usage"`
		Error *oaError `json:"error"`
	}
	oaError struct {
		Message string `json:"message"`
	}
)

// Chat sends req to the chat completions endpoint.
func (m *OpenAI) Chat(ctx context.Context, req *Request) (*Response, error) {
	body, err := json.Marshal(m.wireRequest(req))
	if err != nil {
		return nil, fmt.Errorf("agent: encoding the chat request: %w", err)
	}
	var resp oaResponse
	if err := m.post(ctx, body, &resp); err != nil {
		return nil, err
	}
	if len(resp.Choices) == 0 {
		return nil, &Error{Provider: "openai", StatusCode: http.StatusOK, Message: "the response has no choices"}
	}
	c := resp.Choices[0]
	out := &Response{
		Usage: Usage{InputTokens: resp.Usage.PromptTokens, OutputTokens: resp.Usage.CompletionTokens},
		Model: resp.Model,
	}
	if c.Message.Content != nil {
		out.Text = *c.Message.Content
	}
	for i, tc := range c.Message.ToolCalls {
		id := tc.ID
		if id == "" {
			id = "call_" + strconv.Itoa(i) // some local servers leave ids out
		}
		out.ToolCalls = append(out.ToolCalls, ToolCall{ID: id, Name: tc.Function.Name, Arguments: json.RawMessage(tc.Function.Arguments)})
	}
	switch c.FinishReason {
	case "tool_calls", "function_call":
		out.Stop = StopToolUse
	case "stop":
		out.Stop = StopEndTurn
	case "length":
		out.Stop = StopMaxTokens
	case "content_filter":
		out.Stop = StopRefusal
	default:
		out.Stop = StopReason(c.FinishReason)
	}
	if c.Message.Refusal != nil && *c.Message.Refusal != "" {
		out.Stop, out.Text = StopRefusal, *c.Message.Refusal
	}
	return out, nil
}

func (m *OpenAI) wireRequest(req *Request) oaRequest {
	w := oaRequest{Model: m.model, MaxTokens: req.MaxTokens}
	if w.MaxTokens <= 0 {
		w.MaxTokens = DefaultMaxTokens
	}
	if req.System != "" {
		w.Messages = append(w.Messages, oaMessage{Role: "system", Content: &req.System})
	}
	for _, msg := range req.Messages {
		for _, r := range msg.ToolResults {
			content := r.Content
			if r.IsError && !strings.HasPrefix(content, "error") {
				content = "error: " + content
			}
			w.Messages = append(w.Messages, oaMessage{Role: "tool", ToolCallID: r.CallID, Content: &content})
		}
		if msg.Text == "" && len(msg.ToolCalls) == 0 {
			continue
		}
		wm := oaMessage{Role: string(msg.Role)}
		if msg.Text != "" {
			text := msg.Text
			wm.Content = &text
		}
		for _, c := range msg.ToolCalls {
			var tc oaToolCall
			tc.ID, tc.Type = c.ID, "function"
			tc.Function.Name, tc.Function.Arguments = c.Name, string(c.Arguments)
			wm.ToolCalls = append(wm.ToolCalls, tc)
		}
		w.Messages = append(w.Messages, wm)
	}
	for _, t := range req.Tools {
		var ot oaTool
		ot.Type = "function"
		ot.Function.Name, ot.Function.Description, ot.Function.Parameters = t.Name, t.Description, t.Parameters
		w.Tools = append(w.Tools, ot)
	}
	return w
}

// post sends body to the chat completions endpoint, retrying a 408, 409,
// 429 or 5xx status and connection errors, and decodes the response.
func (m *OpenAI) post(ctx context.Context, body []byte, into *oaResponse) error {
	url := m.base + "/chat/completions"
	for attempt := 1; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
		if err != nil {
			return fmt.Errorf("agent: %w", err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json")
		if m.apiKey != "" {
			req.Header.Set("Authorization", "Bearer "+m.apiKey)
		}
		res, err := m.o.httpClient.Do(req)
		if ctx.Err() != nil {
			if res != nil {
				res.Body.Close()
			}
			return ctx.Err()
		}
		var data []byte
		status := 0
		if err == nil {
			status = res.StatusCode
			data, err = io.ReadAll(io.LimitReader(res.Body, maxResponseBytes+1))
			res.Body.Close()
			if err == nil && len(data) > maxResponseBytes {
				return &Error{Provider: "openai", StatusCode: status, Attempts: attempt, Message: "the response is larger than 16 MiB"}
			}
		}
		retryable := err != nil || status == http.StatusRequestTimeout || status == http.StatusConflict ||
			status == http.StatusTooManyRequests || status >= 500
		if err == nil && status == http.StatusOK {
			if err := json.Unmarshal(data, into); err != nil {
				return &Error{Provider: "openai", StatusCode: status, Attempts: attempt, Message: "the response is not a chat completion", Err: err}
			}
			if into.Error != nil {
				return &Error{Provider: "openai", StatusCode: status, Attempts: attempt, Message: into.Error.Message}
			}
			return nil
		}
		if !retryable || attempt > m.o.maxRetries {
			me := &Error{Provider: "openai", StatusCode: status, Attempts: attempt, Err: err}
			var e struct {
				Error *oaError `json:"error"`
			}
			if json.Unmarshal(data, &e) == nil && e.Error != nil {
				me.Message = e.Error.Message
			}
			if me.Message == "" && err == nil {
				me.Message = strings.TrimSpace(string(data[:min(len(data), 200)]))
			}
			return me
		}
		var wait time.Duration
		if res != nil {
			wait = retryAfter(res.Header, attempt)
		} else {
			wait = backoff(attempt)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}

// retryAfter is the wait the server asks for (retry-after-ms, then
// Retry-After in seconds), else the backoff of the attempt.
func retryAfter(h http.Header, attempt int) time.Duration {
	if v, err := strconv.ParseFloat(h.Get("Retry-After-Ms"), 64); err == nil && v >= 0 {
		return min(time.Duration(v*float64(time.Millisecond)), time.Minute)
	}
	if v, err := strconv.ParseFloat(h.Get("Retry-After"), 64); err == nil && v >= 0 {
		return min(time.Duration(v*float64(time.Second)), time.Minute)
	}
	return backoff(attempt)
}

// backoff waits half a second, doubling with each attempt up to 8
// seconds, less up to a quarter at random.
func backoff(attempt int) time.Duration {
	d := min(time.Duration(500<<(attempt-1))*time.Millisecond, 8*time.Second)
	return d - time.Duration(rand.Int64N(int64(d/4)+1))
}
