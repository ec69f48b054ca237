package agent_test

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/agent/model"
	"github.com/edgar13f/edgar13f/companies"
	"github.com/edgar13f/edgar13f/internal/edgartest"
	"github.com/edgar13f/edgar13f/mirror"
	"github.com/edgar13f/edgar13f/search"
)

// This file holds what the tests of the tool loop share: a Client over the
// recorded EDGAR mirror, a filing index over real 10-K text, and scripted
// model servers speaking the Anthropic Messages and OpenAI chat
// completions wire formats.

var (
	appleAccession = "0000320193-24-000123" // Apple's 10-K for fiscal 2024, filed 2024-11-01
	appleFiled     = edgar13f.MustParseDate("2024-11-01")
	askDate        = edgar13f.MustParseDate("2025-01-15")
)

// mirrorClient returns a Client reading the recorded EDGAR mirror, without
// a cache.
func mirrorClient(t testing.TB) *edgar13f.Client {
	t.Helper()
	c, err := edgar13f.NewClient(edgar13f.WithFetcher(mirror.NewFetcher(edgartest.MirrorFS(t))), edgar13f.WithCache(nil))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// appleChunks are the chunks of appleIndex, cut once per test binary.
var appleChunks = sync.OnceValues(func() ([]search.Hit, error) {
	m, err := mirror.Dir(edgartest.MirrorDir)
	if err != nil {
		return nil, err
	}
	c, err := edgar13f.NewClient(edgar13f.WithFetcher(mirror.NewFetcher(m)), edgar13f.WithCache(nil))
	if err != nil {
		return nil, err
	}
	return cutApple(c)
})

// chunkID is the filing search's chunk id: sha1(accession|item|index), hex,
// first 16 characters.
func chunkID(accession, item string, index int) string {
	s := sha1.Sum([]byte(accession + "|" + item + "|" + strconv.Itoa(index)))
	return hex.EncodeToString(s[:])[:16]
}

// index is a filing index over real 10-K text that keeps the filing
// search's contract: no chunk of a filing made after asOf is returned, and
// asking for one declines not_yet_filed without revealing anything of it.
// It records every call, and holds a synthetic later filing the scripts can
// try to reach. TestAskWithEngine runs the same loop on the real Engine.
type index struct {
	mu     sync.Mutex
	chunks []search.Hit
	calls  []indexCall
}

type indexCall struct {
	Op    string // "search" or "chunk"
	Query string // the query, or the chunk id
	AsOf  edgar13f.Date
	Opts  int // search options passed
}

// appleIndex indexes Items 5, 7 and 8 of Apple's 10-K for fiscal 2024, read
// from the mirror through the Client, cut into chunks of at most 1,500
// characters at line ends; and one chunk of a later filing (a 10-Q filed
// 2025-05-02, synthetic text) that no question asked before that day may see.
func appleIndex(t testing.TB) *index {
	t.Helper()
	chunks, err := appleChunks()
	if err != nil {
		t.Fatal(err)
	}
	return &index{chunks: chunks}
}

func cutApple(c *edgar13f.Client) ([]search.Hit, error) {
	var chunks []search.Hit
	for _, item := range []string{"5", "7", "8"} {
		s, err := companies.New(c).Section(context.Background(), "320193", appleAccession, item, askDate, companies.MaxChars(companies.MaxSectionChars))
		if err != nil {
			return nil, err
		}
		var cur strings.Builder
		n := 0
		flush := func() {
			if cur.Len() == 0 {
				return
			}
			chunks = append(chunks, search.Hit{
				ChunkID: chunkID(appleAccession, item, n), Ticker: "AAPL", CIK: "320193", Company: "Apple Inc.", Form: "10-K",
				Accession: appleAccession, FilingDate: appleFiled, Period: edgar13f.MustParseDate("2024-09-28"), FiscalYear: 2024,
				Item: item, ItemTitle: s.Title, ChunkIndex: n, Text: cur.String(),
				URL: "https://www.sec.gov/Archives/edgar/data/320193/000032019324000123/aapl-20240928.htm",
			})
			n++
			cur.Reset()
		}
		for _, line := range strings.Split(s.Text, "\n") {
			if cur.Len()+len(line) > 1500 {
				flush()
			}
			cur.WriteString(line + "\n")
		}
		flush()
	}
	chunks = append(chunks, search.Hit{
		ChunkID: chunkID("0000320193-25-000057", "I-2", 0), Ticker: "AAPL", CIK: "320193", Company: "Apple Inc.", Form: "10-Q",
		Accession: "0000320193-25-000057", FilingDate: edgar13f.MustParseDate("2025-05-02"), FiscalYear: 2025, Item: "I-2",
		Text: "Total net sales | $95,359 | $90,753 (synthetic text of a later filing)",
	})
	return chunks, nil
}

// find returns the id of the first chunk containing phrase.
func (ix *index) find(t testing.TB, phrase string) string {
	t.Helper()
	for _, h := range ix.chunks {
		if strings.Contains(h.Text, phrase) {
			return h.ChunkID
		}
	}
	t.Fatalf("no chunk contains %q", phrase)
	return ""
}

func (ix *index) record(c indexCall) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.calls = append(ix.calls, c)
}

func (ix *index) Calls() []indexCall {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return append([]indexCall(nil), ix.calls...)
}

// Search returns up to 4 visible chunks sharing the most words with query.
func (ix *index) Search(ctx context.Context, query string, asOf edgar13f.Date, opts ...search.SearchOption) (*search.Result, error) {
	ix.record(indexCall{Op: "search", Query: query, AsOf: asOf, Opts: len(opts)})
	words := strings.Fields(strings.ToLower(query))
	type scored struct {
		h search.Hit
		n int
	}
	var best []scored
	for _, h := range ix.chunks {
		if asOf.Before(h.FilingDate) {
			continue
		}
		// Score: distinct words of four letters or more found, then how
		// often they occur.
		n := 0
		low := strings.ToLower(h.Text)
		for _, w := range words {
			if c := strings.Count(low, w); len(w) >= 4 && c > 0 {
				n += 1000 + c
			}
		}
		if n > 0 {
			best = append(best, scored{h, n})
		}
	}
	for i := 1; i < len(best); i++ {
		for j := i; j > 0 && (best[j].n > best[j-1].n || best[j].n == best[j-1].n && best[j].h.ChunkID < best[j-1].h.ChunkID); j-- {
			best[j], best[j-1] = best[j-1], best[j]
		}
	}
	res := &search.Result{Query: query, AsOf: asOf, Mode: search.BM25}
	for i, b := range best {
		if i == 4 {
			break
		}
		h := b.h
		h.Rank, h.Score = i+1, float64(b.n)
		res.Hits = append(res.Hits, h)
	}
	return res, nil
}

// Chunk returns a chunk with its neighbours in the same Item, up to the
// span given (options are values: the last one equal to a search.Span
// counts) or search.DefaultSpan.
func (ix *index) Chunk(ctx context.Context, id string, asOf edgar13f.Date, opts ...search.ChunkOption) (*search.ChunkAnswer, error) {
	ix.record(indexCall{Op: "chunk", Query: id, AsOf: asOf})
	span := search.DefaultSpan
	for _, o := range opts {
		for n := range search.MaxSpan + 1 {
			if o == search.Span(n) {
				span = n
			}
		}
	}
	for _, h := range ix.chunks {
		if h.ChunkID != id {
			continue
		}
		if asOf.Before(h.FilingDate) {
			return nil, edgar13f.Decline(edgar13f.NotYetFiled, "chunk %s is of no filing made on or before %s", id, asOf)
		}
		ans := &search.ChunkAnswer{Chunk: h}
		for _, n := range ix.chunks {
			if n.Accession == h.Accession && n.Item == h.Item && n.ChunkID != h.ChunkID && n.ChunkIndex >= h.ChunkIndex-span && n.ChunkIndex <= h.ChunkIndex+span {
				ans.Neighbors = append(ans.Neighbors, n)
			}
		}
		return ans, nil
	}
	return nil, edgar13f.Decline(edgar13f.UnknownChunk, "no indexed filing has chunk %s", id)
}

// A turn is one scripted model turn.
type turn struct {
	status int    // an HTTP error status to answer with instead; 0 for a turn
	text   string // the model's text
	calls  []call // the tools it calls
	stop   string // the stop reason, by default tool use with calls, else end of turn
	// fn, when set, makes the turn from the request, as a model reading
	// its tool results would.
	fn func(r sent) turn
}

type call struct{ id, name, args string }

// sent is a request the loop sent, decoded from either wire format.
type sent struct {
	Header    http.Header
	Model     string
	MaxTokens int
	System    string
	Tools     map[string]map[string]any // name → parameters schema
	Messages  []sentMessage
}

type sentMessage struct {
	Role    string
	Text    string
	Calls   []call
	Results []sentResult
}

type sentResult struct {
	ID      string
	Content string
	IsError bool
}

// lastResults returns the tool results of the last message.
func (s sent) lastResults() []sentResult { return s.Messages[len(s.Messages)-1].Results }

// A wire is one model API's wire format.
type wire interface {
	String() string
	model(t *testing.T, url string) model.Model
	reply(tn turn, n int) []byte             // the body of a successful turn (the n-th, from 1)
	fail(w http.ResponseWriter, status int)  // an error response the client may retry at once
	decode(t *testing.T, body []byte) sent   // a request
	wrongArgs() string                       // how this API's model writes broken arguments
	checkHeader(t *testing.T, h http.Header) // the credentials and versions the API needs
}

// scripted is a model server playing turns in order.
type scripted struct {
	t     *testing.T
	w     wire
	srv   *httptest.Server
	mu    sync.Mutex
	turns []turn
	next  int
	reqs  []sent
}

func newScripted(t *testing.T, w wire, turns ...turn) *scripted {
	s := &scripted{t: t, w: w, turns: turns}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *scripted) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	if s.next >= len(s.turns) {
		s.mu.Unlock()
		s.t.Errorf("%s: request %d after the script's %d turns", s.w, s.next+1, len(s.turns))
		http.Error(w, `{"error":{"message":"script exhausted"}}`, http.StatusBadRequest)
		return
	}
	tn := s.turns[s.next]
	s.next++
	n := s.next
	req := s.w.decode(s.t, body)
	req.Header = r.Header.Clone()
	s.reqs = append(s.reqs, req)
	s.mu.Unlock()
	if tn.fn != nil {
		tn = tn.fn(req)
	}
	if tn.status != 0 {
		s.w.fail(w, tn.status)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(s.w.reply(tn, n))
}

func (s *scripted) requests() []sent {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]sent(nil), s.reqs...)
}

func (s *scripted) model() model.Model { return s.w.model(s.t, s.srv.URL) }

// anthropicWire is the Anthropic Messages API.
type anthropicWire struct{}

func (anthropicWire) String() string { return "anthropic" }

func (anthropicWire) model(t *testing.T, url string) model.Model {
	m, err := model.NewAnthropic("test-key", "claude-test", model.WithBaseURL(url))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func (anthropicWire) reply(tn turn, n int) []byte {
	var content []any
	if tn.text != "" {
		content = append(content, map[string]any{"type": "text", "text": tn.text})
	}
	for _, c := range tn.calls {
		content = append(content, map[string]any{"type": "tool_use", "id": c.id, "name": c.name, "input": json.RawMessage(c.args)})
	}
	stop := tn.stop
	if stop == "" {
		stop = "end_turn"
		if len(tn.calls) > 0 {
			stop = "tool_use"
		}
	}
	b, _ := json.Marshal(map[string]any{
		"id": fmt.Sprintf("msg_%d", n), "type": "message", "role": "assistant", "model": "claude-test",
		"content": content, "stop_reason": stop, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 1000 * n, "output_tokens": 10 * n},
	})
	return b
}

func (anthropicWire) fail(w http.ResponseWriter, status int) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("retry-after-ms", "0") // retry at once: the test does not wait
	kind := map[int]string{429: "rate_limit_error", 500: "api_error", 529: "overloaded_error"}[status]
	w.WriteHeader(status)
	fmt.Fprintf(w, `{"type":"error","error":{"type":%q,"message":"scripted %d"}}`, kind, status)
}

func (anthropicWire) decode(t *testing.T, body []byte) sent {
	var r struct {
		Model     string `json:"model"`
		MaxTokens int    `json:"max_tokens"`
		System    []struct {
			Text string `json:"text"`
		} `json:"system"`
		Tools []struct {
			Name        string         `json:"name"`
			InputSchema map[string]any `json:"input_schema"`
		} `json:"tools"`
		Messages []struct {
			Role    string `json:"role"`
			Content []struct {
				Type      string          `json:"type"`
				Text      string          `json:"text"`
				ID        string          `json:"id"`
				Name      string          `json:"name"`
				Input     json.RawMessage `json:"input"`
				ToolUseID string          `json:"tool_use_id"`
				IsError   bool            `json:"is_error"`
				Content   []struct {
					Text string `json:"text"`
				} `json:"content"`
			} `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		t.Errorf("anthropic request is not JSON: %v\n%s", err, body)
	}
	out := sent{Model: r.Model, MaxTokens: r.MaxTokens, Tools: map[string]map[string]any{}}
	for _, s := range r.System {
		out.System += s.Text
	}
	for _, tl := range r.Tools {
		out.Tools[tl.Name] = tl.InputSchema
	}
	for _, m := range r.Messages {
		sm := sentMessage{Role: m.Role}
		for _, c := range m.Content {
			switch c.Type {
			case "text":
				sm.Text += c.Text
			case "tool_use":
				sm.Calls = append(sm.Calls, call{c.ID, c.Name, string(c.Input)})
			case "tool_result":
				var text string
				for _, x := range c.Content {
					text += x.Text
				}
				sm.Results = append(sm.Results, sentResult{c.ToolUseID, text, c.IsError})
			default:
				t.Errorf("anthropic request has a content block of type %q", c.Type)
			}
		}
		out.Messages = append(out.Messages, sm)
	}
	return out
}

func (anthropicWire) checkHeader(t *testing.T, h http.Header) {
	// This SDK version sends the key as a bearer token; older ones sent x-api-key.
	if (h.Get("X-Api-Key") != "test-key" && h.Get("Authorization") != "Bearer test-key") || h.Get("Anthropic-Version") == "" {
		t.Errorf("anthropic request headers: x-api-key %q, anthropic-version %q, authorization %q", h.Get("X-Api-Key"), h.Get("Anthropic-Version"), h.Get("Authorization"))
	}
}

func (anthropicWire) wrongArgs() string { return `{"query": 5}` }

// openAIWire is an OpenAI-compatible chat completions API.
type openAIWire struct{}

func (openAIWire) String() string { return "openai" }

func (openAIWire) model(t *testing.T, url string) model.Model {
	m, err := model.NewOpenAI(url+"/v1", "llama-test", "local-key")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func (openAIWire) reply(tn turn, n int) []byte {
	msg := map[string]any{"role": "assistant", "content": nil}
	if tn.text != "" {
		msg["content"] = tn.text
	}
	var calls []any
	for _, c := range tn.calls {
		calls = append(calls, map[string]any{"id": c.id, "type": "function", "function": map[string]any{"name": c.name, "arguments": c.args}})
	}
	if calls != nil {
		msg["tool_calls"] = calls
	}
	finish := map[string]string{"": "stop", "end_turn": "stop", "max_tokens": "length", "refusal": "content_filter"}[tn.stop]
	if tn.stop == "" && len(tn.calls) > 0 {
		finish = "tool_calls"
	}
	b, _ := json.Marshal(map[string]any{
		"id": fmt.Sprintf("chatcmpl-%d", n), "object": "chat.completion", "created": 1767225600, "model": "llama-test",
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
		"usage":   map[string]any{"prompt_tokens": 1000 * n, "completion_tokens": 10 * n, "total_tokens": 1010 * n},
	})
	return b
}

func (openAIWire) fail(w http.ResponseWriter, status int) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Retry-After", "0")
	w.WriteHeader(status)
	fmt.Fprintf(w, `{"error":{"message":"scripted %d","type":"server_error","code":null}}`, status)
}

func (openAIWire) decode(t *testing.T, body []byte) sent {
	var r struct {
		Model     string `json:"model"`
		MaxTokens int    `json:"max_tokens"`
		Messages  []struct {
			Role      string  `json:"role"`
			Content   *string `json:"content"`
			ToolCalls []struct {
				ID       string `json:"id"`
				Type     string `json:"type"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
			ToolCallID string `json:"tool_call_id"`
		} `json:"messages"`
		Tools []struct {
			Type     string `json:"type"`
			Function struct {
				Name       string         `json:"name"`
				Parameters map[string]any `json:"parameters"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		t.Errorf("openai request is not JSON: %v\n%s", err, body)
	}
	out := sent{Model: r.Model, MaxTokens: r.MaxTokens, Tools: map[string]map[string]any{}}
	for _, tl := range r.Tools {
		if tl.Type != "function" {
			t.Errorf("openai tool of type %q", tl.Type)
		}
		out.Tools[tl.Function.Name] = tl.Function.Parameters
	}
	for _, m := range r.Messages {
		text := ""
		if m.Content != nil {
			text = *m.Content
		}
		switch m.Role {
		case "system":
			out.System += text
		case "tool":
			// Consecutive tool messages are the results of one turn.
			if n := len(out.Messages); n == 0 || out.Messages[n-1].Role != "user" || out.Messages[n-1].Results == nil {
				out.Messages = append(out.Messages, sentMessage{Role: "user"})
			}
			last := &out.Messages[len(out.Messages)-1]
			last.Results = append(last.Results, sentResult{m.ToolCallID, text, strings.HasPrefix(text, "error")})
		default:
			sm := sentMessage{Role: m.Role, Text: text}
			for _, c := range m.ToolCalls {
				if c.Type != "function" {
					t.Errorf("openai tool call of type %q", c.Type)
				}
				sm.Calls = append(sm.Calls, call{c.ID, c.Function.Name, c.Function.Arguments})
			}
			out.Messages = append(out.Messages, sm)
		}
	}
	return out
}

func (openAIWire) checkHeader(t *testing.T, h http.Header) {
	if h.Get("Authorization") != "Bearer local-key" || h.Get("Content-Type") != "application/json" {
		t.Errorf("openai request headers: authorization %q, content-type %q", h.Get("Authorization"), h.Get("Content-Type"))
	}
}

func (openAIWire) wrongArgs() string { return `{"query": "net sales", ` } // not JSON: a local model's slip

var wires = []wire{anthropicWire{}, openAIWire{}}

// eachWire runs f once per wire format.
func eachWire(t *testing.T, f func(t *testing.T, w wire)) {
	for _, w := range wires {
		t.Run(w.String(), func(t *testing.T) { f(t, w) })
	}
}
