package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/examples/internal/settingstest"
	"github.com/edgar13f/edgar13f/examples/internal/testkit"
	"github.com/edgar13f/edgar13f/examples/internal/wire"
	"github.com/edgar13f/edgar13f/search"
)

// bin is the HTTP API built by TestMain; mirror the recorded EDGAR tree.
var (
	bin    string
	mirror = testkit.Mirror()
)

func TestMain(m *testing.M) { testkit.Main(m, &bin, false) }

// asOf is the knowledge date of the tests: AAPL's 10-K of 2024-11-01 and
// NVDA's of 2025-02-26 are the newest filed by then.
const asOf = "2025-03-01"

// indexMirror indexes AAPL's and NVDA's 10-K filed by asOf from the
// mirror into the filing search of a new cache directory, with the code
// the CLI's index runs, and returns the directory. storeEnv are settings
// of the store (testkit.OpenSearchEnv), none for the embedded one.
func indexMirror(t *testing.T, storeEnv ...string) string {
	t.Helper()
	cache := t.TempDir()
	vars := map[string]string{"EDGAR13F_FIXTURE_DIR": mirror, "EDGAR13F_CACHE_DIR": cache}
	for _, kv := range storeEnv {
		k, v, _ := strings.Cut(kv, "=")
		vars[k] = v
	}
	cfg := wire.ConfigFromEnv(func(k string) string { return vars[k] })
	c, _, err := cfg.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	s, err := wire.OpenSearch(c, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	d, err := edgar13f.ParseDate(asOf)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Engine.Index(testkit.Context(t), []string{"AAPL", "NVDA"}, d, search.FormType("10-K"))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Indexed) != 2 {
		t.Fatalf("indexed %d filings, want 2", len(res.Indexed))
	}
	return cache
}

// serve starts the API in-process on 127.0.0.1:0 with env and args and
// returns its base URL; it stops when the test ends.
func serve(t *testing.T, env []string, args ...string) string {
	t.Helper()
	var stderr bytes.Buffer
	a, code := start(append([]string{"--addr", "127.0.0.1:0"}, args...), io.Discard, &stderr, testkit.Getenv(env))
	if a == nil {
		t.Fatalf("start: exit %d, %s", code, stderr.String())
	}
	ln, err := net.Listen("tcp", a.cfg.Addr)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() { done <- a.serve(ctx, ln, io.Discard) }()
	t.Cleanup(func() {
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("serve returned %d", code)
		}
		a.close()
	})
	return "http://" + ln.Addr().String()
}

// do sends a request and returns the status and body.
func do(t *testing.T, method, url, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(testkit.Context(t), method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("%s %s: Content-Type %q", method, url, ct)
	}
	return resp.StatusCode, string(b)
}

// object decodes a JSON object answer.
func object(t *testing.T, body string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, body)
	}
	return m
}

// TestSettingsTable runs the example programs' one settings table through
// the HTTP API's start.
func TestSettingsTable(t *testing.T) {
	settingstest.Run(t, wire.HTTP, func(t *testing.T, args, env []string) (int, string, *wire.Config) {
		var stdout, stderr strings.Builder
		a, code := start(args, &stdout, &stderr, testkit.Getenv(env))
		if a == nil {
			return code, stderr.String(), nil
		}
		a.close()
		return 0, stderr.String(), &a.cfg
	})
}

// TestSameAnswersAsMCP: over the same mirror and index, each endpoint
// answers byte for byte the object the MCP server's tool answers, its
// declines included.
func TestSameAnswersAsMCP(t *testing.T) { sameAnswersAsMCP(t) }

// TestSameAnswersAsMCPOpenSearch runs the same on the OpenSearch store.
func TestSameAnswersAsMCPOpenSearch(t *testing.T) { sameAnswersAsMCP(t, testkit.OpenSearchEnv(t)...) }

func sameAnswersAsMCP(t *testing.T, storeEnv ...string) {
	cache := indexMirror(t, storeEnv...)
	env := append([]string{"EDGAR13F_FIXTURE_DIR=" + mirror, "EDGAR13F_CACHE_DIR=" + cache}, storeEnv...)
	base := serve(t, env)
	mcpBin, err := testkit.Build(t.TempDir(), "../edgar13f-mcp", false)
	if err != nil {
		t.Fatal(err)
	}
	s := testkit.Connect(t, testkit.Command(t, mcpBin, env))
	callMCP := func(tool, args string) string {
		res, err := s.CallTool(testkit.Context(t), &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(args)})
		if err != nil {
			t.Fatal(err)
		}
		return res.Content[0].(*mcp.TextContent).Text
	}
	// A chunk of NVDA's 10-K to read.
	_, body := do(t, "GET", base+"/search?q=revenue+for+fiscal+year+2025&as_of="+asOf+"&ticker=NVDA&item=7&k=1", "")
	hits, _ := object(t, body)["hits"].([]any)
	if len(hits) != 1 {
		t.Fatalf("no hit to read: %s", body)
	}
	chunk := hits[0].(map[string]any)["chunk_id"].(string)
	tests := []struct {
		name, path string
		status     int
		tool, args string
	}{
		{"companies", "/companies?q=nvidia&limit=2", 200, "search_company", `{"name":"nvidia","limit":2}`},
		{"search", "/search?q=export+controls+China&as_of=" + asOf + "&k=3", 200, "search_filings", `{"query":"export controls China","as_of":"` + asOf + `","k":3}`},
		{"search filtered", "/search?q=risk&as_of=" + asOf + "&ticker=AAPL&form=10-K&item=1A&fiscal_year=2024&mode=bm25&k=2", 200, "search_filings",
			`{"query":"risk","as_of":"` + asOf + `","ticker":"AAPL","form":"10-K","item":"1A","fiscal_year":2024,"mode":"bm25","k":2}`},
		{"chunk", "/chunk/" + chunk + "?as_of=" + asOf + "&span=1", 200, "get_chunk", `{"chunk_id":"` + chunk + `","as_of":"` + asOf + `","span":1}`},
		{"chunk not yet filed", "/chunk/" + chunk + "?as_of=2025-01-01", 404, "get_chunk", `{"chunk_id":"` + chunk + `","as_of":"2025-01-01"}`},
		{"unknown chunk", "/chunk/0123456789abcdef?as_of=" + asOf, 404, "get_chunk", `{"chunk_id":"0123456789abcdef","as_of":"` + asOf + `"}`},
		{"bad chunk id", "/chunk/xyz?as_of=" + asOf, 400, "get_chunk", `{"chunk_id":"xyz","as_of":"` + asOf + `"}`},
		{"knn without embedder", "/search?q=risk&as_of=" + asOf + "&mode=knn", 400, "search_filings", `{"query":"risk","as_of":"` + asOf + `","mode":"knn"}`},
		{"k out of range", "/search?q=risk&as_of=" + asOf + "&k=51", 400, "search_filings", `{"query":"risk","as_of":"` + asOf + `","k":51}`},
		{"bad date", "/search?q=risk&as_of=2025-02-30", 400, "search_filings", `{"query":"risk","as_of":"2025-02-30"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := do(t, "GET", base+tt.path, "")
			want := callMCP(tt.tool, tt.args)
			if status != tt.status || strings.TrimSuffix(body, "\n") != want {
				t.Errorf("GET %s: %d\n%s\nwant %d and the MCP answer\n%s", tt.path, status, body, tt.status, want)
			}
		})
	}
}

// TestEndpoints: the statuses and objects of what is not an answer.
func TestEndpoints(t *testing.T) {
	cache := indexMirror(t)
	base := serve(t, []string{"EDGAR13F_FIXTURE_DIR=" + mirror, "EDGAR13F_CACHE_DIR=" + cache})
	big := `{"question":"` + strings.Repeat("x", maxBody) + `","as_of":"` + asOf + `"}`
	tests := []struct {
		name, method, path, body string
		status                   int
		want                     map[string]any // members of the answer
	}{
		{"healthz", "GET", "/healthz", "", 200, map[string]any{"status": "ok", "version": wire.Version, "model": false}},
		{"unknown parameter", "GET", "/search?q=risk&as_of=" + asOf + "&top=3", "", 400, map[string]any{"status": "declined", "reason": "invalid_argument",
			"message": `unknown query parameter "top"; /search takes q, as_of, ticker, cik, form, item, fiscal_year, mode, k`}},
		{"repeated parameter", "GET", "/search?q=risk&q=revenue&as_of=" + asOf, "", 400, map[string]any{"status": "declined", "reason": "invalid_argument",
			"message": `query parameter "q" is given 2 times`}},
		{"missing as_of", "GET", "/search?q=risk", "", 400, map[string]any{"status": "declined", "reason": "invalid_argument",
			"message": `query parameter "as_of" is required; /search takes q, as_of, ticker, cik, form, item, fiscal_year, mode, k`}},
		{"not an integer", "GET", "/chunk/0123456789abcdef?as_of=" + asOf + "&span=one", "", 400, map[string]any{"status": "declined", "reason": "invalid_argument",
			"message": `query parameter "span" must be an integer, not "one"`}},
		{"unknown companies parameter", "GET", "/companies?name=nvidia", "", 400, map[string]any{"status": "declined", "reason": "invalid_argument",
			"message": `unknown query parameter "name"; /companies takes q, limit`}},
		{"wrong method", "POST", "/search?q=risk&as_of=" + asOf, "", 405, map[string]any{"status": "error", "message": "POST /search: method not allowed, use GET"}},
		{"ask by GET", "GET", "/ask", "", 405, map[string]any{"status": "error", "message": "GET /ask: method not allowed, use POST"}},
		{"unknown path", "GET", "/holdings", "", 404, map[string]any{"status": "error",
			"message": "no endpoint /holdings: the endpoints are GET /healthz, GET /companies, GET /search, GET /chunk/{chunk_id} and POST /ask"}},
		{"chunk without id", "GET", "/chunk/", "", 404, map[string]any{"status": "error"}},
		{"no model", "POST", "/ask", `{"question":"What was NVIDIA's revenue?","as_of":"` + asOf + `"}`, 503, map[string]any{"status": "error",
			"message": "no language model configured: set ANTHROPIC_API_KEY (and optionally EDGAR13F_AGENT_MODEL, default claude-sonnet-5-5) to use the Anthropic API, " +
				"or EDGAR13F_CHAT_URL (an OpenAI-compatible API's base URL, such as http://localhost:11434/v1 for Ollama) and EDGAR13F_AGENT_MODEL " +
				"(optionally EDGAR13F_CHAT_API_KEY) to use a local or other model"}},
		{"body over 64 KB", "POST", "/ask", big, 413, map[string]any{"status": "error", "message": "the request body is over 65536 bytes"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := do(t, tt.method, base+tt.path, tt.body)
			got := object(t, body)
			if status != tt.status {
				t.Errorf("%s %s: status %d, want %d\n%s", tt.method, tt.path, status, tt.status, body)
			}
			for k, v := range tt.want {
				if got[k] != v {
					t.Errorf("%s %s: %s = %v, want %v", tt.method, tt.path, k, got[k], v)
				}
			}
		})
	}
}

// TestUnreachableBaseURL: EDGAR behind a base URL with nothing listening
// is a 502 naming the setting and the URL, after the short retry budget.
func TestUnreachableBaseURL(t *testing.T) {
	refused := testkit.RefusedURL(t)
	base := serve(t, []string{"SEC_USER_AGENT=edgar13f tests test@example.com", "EDGAR13F_CACHE_DIR=" + t.TempDir()}, "--base-url", refused)
	status, body := do(t, "GET", base+"/companies?q=nvidia", "")
	msg, _ := object(t, body)["message"].(string)
	if status != 502 || !strings.HasPrefix(msg, "--base-url (EDGAR13F_BASE_URL) "+refused+" is unreachable: ") || !strings.Contains(msg, "giving up after 3 attempts") {
		t.Errorf("status %d, %s; want 502 naming the setting and the URL", status, body)
	}
}

// TestAsk: /ask answers ask_filings' object, with a scripted model that
// searches NVDA's 10-K and cites the chunk stating its revenue; a figure
// the chunk does not state comes back ungrounded.
func TestAsk(t *testing.T) {
	for _, tt := range []struct {
		figure, status string
	}{{"$130.5 billion", "answered"}, {"$131.5 billion", "ungrounded"}} {
		t.Run(tt.status, func(t *testing.T) {
			m := testkit.NewChatModel(t, testkit.RevenueScript(tt.figure))
			base := serve(t, append(m.Env(), "EDGAR13F_FIXTURE_DIR="+mirror, "EDGAR13F_CACHE_DIR="+t.TempDir()))
			status, body := do(t, "POST", base+"/ask", `{"question":"What was NVIDIA's revenue for fiscal year 2025?","as_of":"`+asOf+`","tickers":["NVDA"]}`)
			got := object(t, body)
			if status != 200 || got["status"] != tt.status || got["disclaimer"] != wire.AskDisclaimer || got["model"] != testkit.ChatModelName {
				t.Fatalf("status %d\n%s", status, body)
			}
			if cites, _ := got["citations"].([]any); tt.status == "answered" && len(cites) != 1 {
				t.Errorf("%d citations, want 1\n%s", len(cites), body)
			}
			status, body = do(t, "POST", base+"/ask", `{"question":"x","as_of":"`+asOf+`","top":1}`)
			if got := object(t, body); status != 400 || got["reason"] != "invalid_argument" || got["disclaimer"] != wire.AskDisclaimer {
				t.Errorf("unknown member: %d %s", status, body)
			}
		})
	}
}

// TestHelp: --help answers with the endpoints, examples and the settings.
func TestHelp(t *testing.T) {
	stdout, _, code := testkit.Run(t, testkit.Command(t, bin, nil, "--help"))
	for _, want := range []string{"GET  /search?q=", "Examples", "curl ", "EDGAR13F_HTTP_ADDR, --addr", "EDGAR13F_REDACT, --no-redact"} {
		if code != 0 || !strings.Contains(stdout, want) {
			t.Errorf("exit %d, help without %q:\n%s", code, want, stdout)
		}
	}
}

// TestGracefulShutdown: SIGTERM with a request in flight (an /ask whose
// model is held by the test) stops accepting connections, lets the
// request finish with its answer and exits 0.
func TestGracefulShutdown(t *testing.T) {
	asked := make(chan struct{})
	release := make(chan struct{})
	var once sync.Once
	m := testkit.NewChatModel(t, func(n int, r testkit.ChatRequest) testkit.ChatTurn {
		once.Do(func() { close(asked) })
		<-release
		return testkit.ChatTurn{Text: "I cannot tell."}
	})
	t.Cleanup(func() {
		select {
		case <-release:
		default:
			close(release)
		}
	})
	// The port: taken and released, for the binary to listen on.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := testkit.Command(t, bin, append(m.Env(), "EDGAR13F_FIXTURE_DIR="+mirror), "--addr", addr)
	cmd.Stderr = nil // read here, line by line
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 16)
	go func() {
		b := make([]byte, 0, 4096)
		buf := make([]byte, 512)
		for {
			n, err := stderr.Read(buf)
			b = append(b, buf[:n]...)
			for {
				i := bytes.IndexByte(b, '\n')
				if i < 0 {
					break
				}
				lines <- string(b[:i])
				b = b[i+1:]
			}
			if err != nil {
				close(lines)
				return
			}
		}
	}()
	waitLine := func(prefix string) {
		t.Helper()
		for line := range lines {
			t.Log(line)
			if strings.HasPrefix(line, prefix) {
				return
			}
		}
		t.Fatalf("no line %q on stderr", prefix)
	}
	waitLine("edgar13f-http: listening on http://" + addr)

	type reply struct {
		status int
		body   string
		err    error
	}
	replied := make(chan reply, 1)
	go func() {
		resp, err := http.Post("http://"+addr+"/ask", "application/json", strings.NewReader(`{"question":"What was NVIDIA's revenue?","as_of":"`+asOf+`"}`))
		if err != nil {
			replied <- reply{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		replied <- reply{resp.StatusCode, string(b), err}
	}()
	<-asked // the request is in flight, held by the model
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	waitLine("edgar13f-http: shutting down: accepting no new connections, finishing 1 requests in flight")
	if _, err := net.Dial("tcp", addr); err == nil {
		t.Error("a new connection was accepted after the signal")
	}
	close(release)
	r := <-replied
	if r.err != nil || r.status != 200 || object(t, r.body)["status"] == nil {
		t.Errorf("the request in flight: %d %q %v; want 200 and an answer", r.status, r.body, r.err)
	}
	waitLine("edgar13f-http: stopped")
	for range lines {
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("exit: %v, want 0", err)
	}
}

// TestAddressInUse: an address another program listens on is a failure
// (exit 1) naming the setting; a malformed one a usage error (exit 2).
func TestAddressInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, stderr, code := testkit.Run(t, testkit.Command(t, bin, []string{"EDGAR13F_FIXTURE_DIR=" + mirror}, "--addr", ln.Addr().String()))
	if want := "edgar13f-http: --addr (EDGAR13F_HTTP_ADDR): listen tcp " + ln.Addr().String() + ": "; code != 1 || !strings.HasPrefix(stderr, want) {
		t.Errorf("in use: exit %d, stderr %q; want 1, %q...", code, stderr, want)
	}
	_, stderr, code = testkit.Run(t, testkit.Command(t, bin, []string{"EDGAR13F_FIXTURE_DIR=" + mirror}, "--addr", "localhost"))
	if want := "edgar13f-http: --addr (EDGAR13F_HTTP_ADDR) \"localhost\" is not HOST:PORT, such as 127.0.0.1:8801\n"; code != 2 || stderr != want {
		t.Errorf("malformed: exit %d, stderr %q; want 2, %q", code, stderr, want)
	}
}
