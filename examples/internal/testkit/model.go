package testkit

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
)

// ChatModelName is the model a ChatModel says it is.
const ChatModelName = "scripted-llama"

// A ChatModel is an OpenAI-compatible chat completions server whose turns
// a test scripts: each request is answered by the script with the turn
// it returns, in the API's real wire format (tool calls with arguments,
// text, token usage). Point EDGAR13F_CHAT_URL at URL.
type ChatModel struct {
	URL string // the API's base URL, ending in /v1

	mu       sync.Mutex
	requests []ChatRequest
}

// A ChatRequest is what the model was sent, reduced to its messages.
type ChatRequest struct {
	Messages []ChatMessage
	Tools    []string // the names of the tools offered
}

// A ChatMessage is one message of a request; a tool result has Role
// "tool" and the id of the call it answers.
type ChatMessage struct {
	Role       string
	Content    string
	ToolCallID string
}

// ToolResults returns the contents of the tool results at the end of r.
func (r ChatRequest) ToolResults() []string {
	var out []string
	for i := len(r.Messages) - 1; i >= 0 && r.Messages[i].Role == "tool"; i-- {
		out = append([]string{r.Messages[i].Content}, out...)
	}
	return out
}

// A ChatTurn is the model's reply: tool calls, or a final text.
type ChatTurn struct {
	Text  string
	Calls []ChatCall
}

// A ChatCall is one tool call of a turn; Args is its JSON arguments.
type ChatCall struct{ ID, Name, Args string }

// NewChatModel starts a ChatModel answering request n (from 0) with
// script(n, request), closed when the test ends.
func NewChatModel(t testing.TB, script func(n int, r ChatRequest) ChatTurn) *ChatModel {
	m := &ChatModel{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
			http.Error(w, "not found", http.StatusNotFound)
			return
		}
		var body struct {
			Messages []struct {
				Role       string  `json:"role"`
				Content    *string `json:"content"`
				ToolCallID string  `json:"tool_call_id"`
			} `json:"messages"`
			Tools []struct {
				Function struct {
					Name string `json:"name"`
				} `json:"function"`
			} `json:"tools"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			t.Errorf("chat request is not JSON: %v", err)
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		var req ChatRequest
		for _, msg := range body.Messages {
			cm := ChatMessage{Role: msg.Role, ToolCallID: msg.ToolCallID}
			if msg.Content != nil {
				cm.Content = *msg.Content
			}
			req.Messages = append(req.Messages, cm)
		}
		for _, tl := range body.Tools {
			req.Tools = append(req.Tools, tl.Function.Name)
		}
		m.mu.Lock()
		n := len(m.requests)
		m.requests = append(m.requests, req)
		m.mu.Unlock()
		turn := script(n, req)
		msg := map[string]any{"role": "assistant", "content": nil}
		if turn.Text != "" {
			msg["content"] = turn.Text
		}
		finish := "stop"
		if len(turn.Calls) > 0 {
			finish = "tool_calls"
			var calls []any
			for _, c := range turn.Calls {
				calls = append(calls, map[string]any{"id": c.ID, "type": "function", "function": map[string]any{"name": c.Name, "arguments": c.Args}})
			}
			msg["tool_calls"] = calls
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": fmt.Sprintf("chatcmpl-%d", n), "object": "chat.completion", "created": 1767225600, "model": ChatModelName,
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
			"usage":   map[string]any{"prompt_tokens": 1000, "completion_tokens": 10, "total_tokens": 1010},
		})
	}))
	t.Cleanup(srv.Close)
	m.URL = srv.URL + "/v1"
	return m
}

// Env returns the environment settings that configure m as the model.
func (m *ChatModel) Env() []string {
	return []string{"EDGAR13F_CHAT_URL=" + m.URL, "EDGAR13F_AGENT_MODEL=" + ChatModelName}
}

// Requests returns the requests m has answered.
func (m *ChatModel) Requests() []ChatRequest {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]ChatRequest(nil), m.requests...)
}

// NVIDIARevenue is a sentence of NVIDIA's 10-K for fiscal 2025 (filed
// 2025-02-26, in the mirror), in its Item 7.
const NVIDIARevenue = "Revenue for fiscal year 2025 was $130.5 billion"

// FindChunk returns the chunk_id of the first hit in the tool results
// of r (all of them, the repair round's request included) whose text
// holds phrase, or "".
func FindChunk(r ChatRequest, phrase string) string {
	for _, msg := range r.Messages {
		if msg.Role != "tool" {
			continue
		}
		var res struct {
			Hits []struct {
				ChunkID string `json:"chunk_id"`
				Text    string `json:"text"`
			} `json:"hits"`
		}
		if json.Unmarshal([]byte(msg.Content), &res) != nil {
			continue
		}
		for _, h := range res.Hits {
			if strings.Contains(h.Text, phrase) {
				return h.ChunkID
			}
		}
	}
	return ""
}

// RevenueScript is a model that searches NVIDIA's filings for its fiscal
// 2025 revenue and answers citing the chunk that states it, writing the
// figure as figure (a wrong one must come back ungrounded). A request
// with tool results (the answer, the repair round) is answered; one
// without starts a question with the search. Without the chunk, the
// answer cites nothing.
func RevenueScript(figure string) func(n int, r ChatRequest) ChatTurn {
	return func(n int, r ChatRequest) ChatTurn {
		if !slices.ContainsFunc(r.Messages, func(m ChatMessage) bool { return m.Role == "tool" }) {
			return ChatTurn{Calls: []ChatCall{{ID: fmt.Sprintf("call_%d", n), Name: "search_filings", Args: `{"query":"revenue for fiscal year 2025 was","ticker":"NVDA","item":"7","k":5}`}}}
		}
		if id := FindChunk(r, NVIDIARevenue); id != "" {
			return ChatTurn{Text: fmt.Sprintf("NVIDIA's revenue for fiscal year 2025 was %s [c:%s].", figure, id)}
		}
		return ChatTurn{Text: fmt.Sprintf("NVIDIA's revenue for fiscal year 2025 was %s.", figure)}
	}
}

// ResolveAppleScript is a ChatModel script for a question that needs
// company data only: a request without tool results (a question begins)
// calls resolve_company for Apple; one with them is answered.
func ResolveAppleScript(_ int, r ChatRequest) ChatTurn {
	if len(r.ToolResults()) > 0 {
		return ChatTurn{Text: "Apple is CIK 320193."}
	}
	return ChatTurn{Calls: []ChatCall{{ID: "c1", Name: "resolve_company", Args: `{"name":"Apple"}`}}}
}
