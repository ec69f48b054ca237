package search

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/search/internal/chunk"
)

// fakeVector is the vector the test servers give a text: its length and
// first byte, so that a test sees which text a vector belongs to.
func fakeVector(text string) []float32 {
	first := float32(0)
	if text != "" {
		first = float32(text[0])
	}
	return []float32{float32(len(text)), first, 1}
}

// embedRequest is what both wire formats send.
type embedRequest struct {
	Model string   `json:"model"`
	Input []string `json:"input"`
}

// wireServer is an httptest server speaking one wire format ("openai" or
// "ollama") whose answers a test can replace per request.
type wireServer struct {
	*httptest.Server
	wire     string
	requests atomic.Int32
	mu       sync.Mutex
	batches  [][]string
	headers  []http.Header
	// respond, when set, answers request n (from 1) instead of the
	// server; it returns false to let the server answer.
	respond func(n int, w http.ResponseWriter, req embedRequest) bool
}

func newWireServer(t *testing.T, wire string) *wireServer {
	t.Helper()
	s := &wireServer{wire: wire}
	path := "/v1/embeddings"
	if wire == "ollama" {
		path = "/api/embed"
	}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := int(s.requests.Add(1))
		if r.Method != http.MethodPost || r.URL.Path != path {
			http.Error(w, fmt.Sprintf("unexpected %s %s", r.Method, r.URL.Path), http.StatusNotFound)
			return
		}
		if ct := r.Header.Get("Content-Type"); ct != "application/json" {
			http.Error(w, "content type "+ct, http.StatusUnsupportedMediaType)
			return
		}
		var req embedRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		s.batches = append(s.batches, req.Input)
		s.headers = append(s.headers, r.Header.Clone())
		s.mu.Unlock()
		if s.respond != nil && s.respond(n, w, req) {
			return
		}
		writeVectors(w, wire, req.Input, nil)
	}))
	t.Cleanup(s.Close)
	return s
}

// writeVectors answers in the wire format with the fake vectors of texts,
// changed by edit when not nil. The OpenAI answer lists them in reverse
// order, as a server may: the client must sort by index.
func writeVectors(w http.ResponseWriter, wire string, texts []string, edit func([][]float32) [][]float32) {
	vs := make([][]float32, len(texts))
	for i, t := range texts {
		vs[i] = fakeVector(t)
	}
	if edit != nil {
		vs = edit(vs)
	}
	w.Header().Set("Content-Type", "application/json")
	if wire == "ollama" {
		json.NewEncoder(w).Encode(map[string]any{"model": "m", "embeddings": vs})
		return
	}
	type item struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	var data []item
	for i := len(vs) - 1; i >= 0; i-- {
		data = append(data, item{"embedding", i, vs[i]})
	}
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": "m",
		"usage": map[string]int{"prompt_tokens": 1, "total_tokens": 1}})
}

// sleeps records the waits of a client instead of waiting.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.d = append(s.d, d)
	s.mu.Unlock()
	return ctx.Err()
}

// testClient returns the embedder for the server's wire format, with
// recorded sleeps and no jitter (the backoff factor is exactly 1).
func testClient(t *testing.T, s *wireServer, opts ...EmbedderOption) (Embedder, *embedClient, *sleeps) {
	t.Helper()
	var e Embedder
	var c *embedClient
	if s.wire == "ollama" {
		o, err := NewOllamaEmbedder(s.URL, "nomic-embed-text", opts...)
		if err != nil {
			t.Fatal(err)
		}
		e, c = o, o.c
	} else {
		o, err := NewOpenAIEmbedder(s.URL+"/v1", "text-embedding-3-small", "sk-test-key", opts...)
		if err != nil {
			t.Fatal(err)
		}
		e, c = o, o.c
	}
	rec := &sleeps{}
	c.sleep = rec.sleep
	c.jitter = func() float64 { return 0.5 }
	return e, c, rec
}

func texts(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%c text number %d", 'A'+i%26, i)
	}
	return out
}

func checkFake(t *testing.T, in []string, got [][]float32) {
	t.Helper()
	if len(got) != len(in) {
		t.Fatalf("%d vectors for %d texts", len(got), len(in))
	}
	for i, s := range in {
		if !slices.Equal(got[i], fakeVector(s)) {
			t.Fatalf("vector %d = %v; want %v (the vector of %q)", i, got[i], fakeVector(s), s)
		}
	}
}

// TestEmbedWire: both wire formats, the request each sends, and vectors
// back in text order (the OpenAI server answers in reverse order).
func TestEmbedWire(t *testing.T) {
	for _, wire := range []string{"openai", "ollama"} {
		t.Run(wire, func(t *testing.T) {
			s := newWireServer(t, wire)
			e, _, _ := testClient(t, s)
			in := texts(5)
			got, err := e.Embed(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			checkFake(t, in, got)
			if !slices.Equal(s.batches[0], in) {
				t.Errorf("sent input %q; want %q", s.batches[0], in)
			}
			auth := s.headers[0].Get("Authorization")
			if wire == "openai" && auth != "Bearer sk-test-key" || wire == "ollama" && auth != "" {
				t.Errorf("Authorization = %q", auth)
			}
		})
	}
}

func TestEmbedModelSent(t *testing.T) {
	s := newWireServer(t, "openai")
	var model string
	s.respond = func(_ int, w http.ResponseWriter, req embedRequest) bool {
		model = req.Model
		return false
	}
	e, _, _ := testClient(t, s)
	if _, err := e.Embed(context.Background(), []string{"x"}); err != nil {
		t.Fatal(err)
	}
	if model != "text-embedding-3-small" || e.Model() != model {
		t.Errorf("sent model %q, Model() = %q; want text-embedding-3-small", model, e.Model())
	}
}

func TestEmbedEmpty(t *testing.T) {
	s := newWireServer(t, "openai")
	e, _, _ := testClient(t, s)
	got, err := e.Embed(context.Background(), nil)
	if err != nil || len(got) != 0 || s.requests.Load() != 0 {
		t.Errorf("Embed(nil) = %v, %v after %d requests; want nothing and no request", got, err, s.requests.Load())
	}
}

// TestEmbedBatches counts requests: 150 texts are 64 + 64 + 22 by default,
// 15 batches of 10 with WithBatchSize(10).
func TestEmbedBatches(t *testing.T) {
	for _, tc := range []struct {
		opts  []EmbedderOption
		sizes []int
	}{
		{nil, []int{64, 64, 22}},
		{[]EmbedderOption{WithBatchSize(10)}, slices.Repeat([]int{10}, 15)},
		{[]EmbedderOption{WithBatchSize(150)}, []int{150}},
	} {
		for _, wire := range []string{"openai", "ollama"} {
			s := newWireServer(t, wire)
			e, _, _ := testClient(t, s, tc.opts...)
			in := texts(150)
			got, err := e.Embed(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			checkFake(t, in, got)
			var sizes []int
			for _, b := range s.batches {
				sizes = append(sizes, len(b))
			}
			if !slices.Equal(sizes, tc.sizes) {
				t.Errorf("%s: batch sizes %v; want %v", wire, sizes, tc.sizes)
			}
		}
	}
}

// TestEmbedRetry429: a 429 with Retry-After: 7 waits 7 s (more than the
// backoff), then the retry succeeds.
func TestEmbedRetry429(t *testing.T) {
	for _, wire := range []string{"openai", "ollama"} {
		s := newWireServer(t, wire)
		s.respond = func(n int, w http.ResponseWriter, _ embedRequest) bool {
			if n == 1 {
				w.Header().Set("Retry-After", "7")
				http.Error(w, `{"error":{"message":"Rate limit reached"}}`, http.StatusTooManyRequests)
				return true
			}
			return false
		}
		e, _, rec := testClient(t, s)
		in := texts(3)
		got, err := e.Embed(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		checkFake(t, in, got)
		if s.requests.Load() != 2 || !slices.Equal(rec.d, []time.Duration{7 * time.Second}) {
			t.Errorf("%s: %d requests, waits %v; want 2 and [7s]", wire, s.requests.Load(), rec.d)
		}
	}
}

// TestEmbedRetryAfterDate: Retry-After as an HTTP date, and capped by the
// longest wait.
func TestEmbedRetryAfterDate(t *testing.T) {
	now := time.Date(2025, 3, 14, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		header string
		opts   []EmbedderOption
		want   time.Duration
	}{
		{now.Add(10 * time.Second).Format(http.TimeFormat), nil, 10 * time.Second},
		{"3600", nil, time.Minute},
		{"3600", []EmbedderOption{WithRetryDelay(time.Second, 5*time.Second)}, 5 * time.Second},
		{"soon", nil, 500 * time.Millisecond},
	} {
		s := newWireServer(t, "openai")
		s.respond = func(n int, w http.ResponseWriter, _ embedRequest) bool {
			if n == 1 {
				w.Header().Set("Retry-After", tc.header)
				w.WriteHeader(http.StatusServiceUnavailable)
				return true
			}
			return false
		}
		e, c, rec := testClient(t, s, tc.opts...)
		c.now = func() time.Time { return now }
		if _, err := e.Embed(context.Background(), texts(1)); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(rec.d, []time.Duration{tc.want}) {
			t.Errorf("Retry-After %q: waits %v; want [%v]", tc.header, rec.d, tc.want)
		}
	}
}

// TestEmbedRetry500: 500 and 502 are retried with a doubling backoff.
func TestEmbedRetry500(t *testing.T) {
	s := newWireServer(t, "openai")
	s.respond = func(n int, w http.ResponseWriter, _ embedRequest) bool {
		switch n {
		case 1:
			http.Error(w, "boom", http.StatusInternalServerError)
		case 2:
			http.Error(w, "bad gateway", http.StatusBadGateway)
		default:
			return false
		}
		return true
	}
	e, _, rec := testClient(t, s)
	in := texts(2)
	got, err := e.Embed(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	checkFake(t, in, got)
	if want := []time.Duration{500 * time.Millisecond, time.Second}; !slices.Equal(rec.d, want) {
		t.Errorf("waits %v; want %v", rec.d, want)
	}
}

// TestEmbedGivesUp: a server that stays overloaded is asked MaxAttempts
// times; the error names the URL, the status and the server's message.
func TestEmbedGivesUp(t *testing.T) {
	s := newWireServer(t, "openai")
	s.respond = func(_ int, w http.ResponseWriter, _ embedRequest) bool {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		io.WriteString(w, `{"error":{"message":"The server is overloaded","type":"server_error"}}`)
		return true
	}
	e, _, rec := testClient(t, s, WithMaxAttempts(4))
	_, err := e.Embed(context.Background(), texts(1))
	var ee *EmbedError
	if !errors.As(err, &ee) {
		t.Fatalf("Embed error %v (%T); want *EmbedError", err, err)
	}
	if ee.StatusCode != 503 || ee.Attempts != 4 || ee.Message != "The server is overloaded" || ee.URL != s.URL+"/v1/embeddings" {
		t.Errorf("EmbedError = %+v", ee)
	}
	msg := err.Error()
	for _, want := range []string{s.URL + "/v1/embeddings", "503", "The server is overloaded", "4 attempts"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not say %q", msg, want)
		}
	}
	if strings.Contains(msg, "sk-test-key") {
		t.Errorf("error %q shows the API key", msg)
	}
	if s.requests.Load() != 4 || len(rec.d) != 3 {
		t.Errorf("%d requests, %d waits; want 4 and 3", s.requests.Load(), len(rec.d))
	}
}

// TestEmbedNoRetry: a 400 or 401 is not retried; Ollama's {"error": "..."}
// message is read.
func TestEmbedNoRetry(t *testing.T) {
	for _, status := range []int{http.StatusBadRequest, http.StatusUnauthorized, http.StatusNotImplemented} {
		s := newWireServer(t, "ollama")
		s.respond = func(_ int, w http.ResponseWriter, _ embedRequest) bool {
			w.WriteHeader(status)
			io.WriteString(w, `{"error":"model \"nomic-embed-text\" not found, try pulling it first"}`)
			return true
		}
		e, _, _ := testClient(t, s)
		_, err := e.Embed(context.Background(), texts(1))
		var ee *EmbedError
		if !errors.As(err, &ee) || ee.StatusCode != status || ee.Attempts != 1 || !strings.Contains(ee.Message, "not found") {
			t.Errorf("status %d: Embed error %v; want an EmbedError after 1 attempt with the server's message", status, err)
		}
		if s.requests.Load() != 1 {
			t.Errorf("status %d: %d requests; want 1", status, s.requests.Load())
		}
	}
}

// TestEmbedNetworkError: a connection closed without an answer is retried.
func TestEmbedNetworkError(t *testing.T) {
	s := newWireServer(t, "openai")
	s.respond = func(n int, w http.ResponseWriter, _ embedRequest) bool {
		if n > 1 {
			return false
		}
		conn, _, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Error(err)
			return false
		}
		conn.Close()
		return true
	}
	e, _, rec := testClient(t, s)
	in := texts(2)
	got, err := e.Embed(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	checkFake(t, in, got)
	if s.requests.Load() != 2 || len(rec.d) != 1 {
		t.Errorf("%d requests, waits %v; want 2 and one wait", s.requests.Load(), rec.d)
	}
}

// TestEmbedBadAnswers: answers that are not one finite vector per text, of
// one dimension, fail with ErrEmbedResponse and are not retried.
func TestEmbedBadAnswers(t *testing.T) {
	for _, tc := range []struct {
		name string
		wire string
		body func(texts []string) string
	}{
		{"too few", "ollama", func([]string) string { return `{"embeddings":[[1,2],[3,4]]}` }},
		{"too many", "openai", func([]string) string {
			return `{"data":[{"index":0,"embedding":[1]},{"index":1,"embedding":[1]},{"index":2,"embedding":[1]},{"index":3,"embedding":[1]}]}`
		}},
		{"repeated index", "openai", func([]string) string {
			return `{"data":[{"index":0,"embedding":[1]},{"index":0,"embedding":[1]},{"index":2,"embedding":[1]}]}`
		}},
		{"no index", "openai", func([]string) string {
			return `{"data":[{"embedding":[1]},{"index":1,"embedding":[1]},{"index":2,"embedding":[1]}]}`
		}},
		{"dimensions differ", "ollama", func([]string) string { return `{"embeddings":[[1,2],[3,4],[5]]}` }},
		{"empty vector", "ollama", func([]string) string { return `{"embeddings":[[],[],[]]}` }},
		{"overflow", "ollama", func([]string) string { return `{"embeddings":[[1e39],[1],[1]]}` }},
		{"not JSON", "openai", func([]string) string { return `<html>proxy error</html>` }},
	} {
		s := newWireServer(t, tc.wire)
		s.respond = func(_ int, w http.ResponseWriter, req embedRequest) bool {
			io.WriteString(w, tc.body(req.Input))
			return true
		}
		e, _, _ := testClient(t, s)
		_, err := e.Embed(context.Background(), texts(3))
		if !errors.Is(err, ErrEmbedResponse) {
			t.Errorf("%s: Embed error %v; want ErrEmbedResponse", tc.name, err)
		}
		if s.requests.Load() != 1 {
			t.Errorf("%s: %d requests; want 1", tc.name, s.requests.Load())
		}
	}
}

// TestEmbedDimensionAcrossBatches: the second batch's vectors must have
// the first batch's dimension.
func TestEmbedDimensionAcrossBatches(t *testing.T) {
	s := newWireServer(t, "openai")
	s.respond = func(n int, w http.ResponseWriter, req embedRequest) bool {
		if n == 2 {
			writeVectors(w, "openai", req.Input, func(vs [][]float32) [][]float32 {
				for i := range vs {
					vs[i] = append(vs[i], 0)
				}
				return vs
			})
			return true
		}
		return false
	}
	e, _, _ := testClient(t, s, WithBatchSize(2))
	if _, err := e.Embed(context.Background(), texts(4)); !errors.Is(err, ErrEmbedResponse) {
		t.Errorf("Embed error %v; want ErrEmbedResponse", err)
	}
}

func TestEmbedTooLarge(t *testing.T) {
	s := newWireServer(t, "openai")
	e, _, _ := testClient(t, s, WithMaxResponseBytes(64))
	_, err := e.Embed(context.Background(), texts(10))
	if !errors.Is(err, ErrEmbedTooLarge) || s.requests.Load() != 1 {
		t.Errorf("Embed error %v after %d requests; want ErrEmbedTooLarge after 1", err, s.requests.Load())
	}
}

// TestEmbedCancelWhileWaiting: a context cancelled during the wait before
// a retry ends Embed with the context's error.
func TestEmbedCancelWhileWaiting(t *testing.T) {
	s := newWireServer(t, "openai")
	s.respond = func(_ int, w http.ResponseWriter, _ embedRequest) bool {
		w.Header().Set("Retry-After", "3600")
		w.WriteHeader(http.StatusTooManyRequests)
		return true
	}
	e, c, _ := testClient(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	waiting := make(chan struct{})
	c.sleep = func(ctx context.Context, d time.Duration) error {
		close(waiting)
		<-ctx.Done()
		return ctx.Err()
	}
	errc := make(chan error, 1)
	go func() {
		_, err := e.Embed(ctx, texts(1))
		errc <- err
	}()
	select {
	case <-waiting:
	case err := <-errc:
		t.Fatalf("Embed returned %v before waiting", err)
	}
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("Embed error %v; want context.Canceled", err)
	}
	if s.requests.Load() != 1 {
		t.Errorf("%d requests; want 1", s.requests.Load())
	}
}

// TestEmbedCancelInFlight: a context cancelled while the server has not
// answered ends Embed with the context's error, without a retry.
func TestEmbedCancelInFlight(t *testing.T) {
	arrived := make(chan struct{})
	release := make(chan struct{})
	s := newWireServer(t, "ollama")
	s.respond = func(_ int, w http.ResponseWriter, _ embedRequest) bool {
		close(arrived)
		<-release
		return true
	}
	defer close(release)
	e, _, rec := testClient(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := e.Embed(ctx, texts(1))
		errc <- err
	}()
	<-arrived
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("Embed error %v; want context.Canceled", err)
	}
	if len(rec.d) != 0 {
		t.Errorf("waits %v after cancellation; want none", rec.d)
	}
}

// TestEmbedEndpoint: the base URL may end in "/", or name the endpoint.
func TestEmbedEndpoint(t *testing.T) {
	for _, base := range []string{"/v1", "/v1/", "/v1/embeddings"} {
		s := newWireServer(t, "openai")
		e, err := NewOpenAIEmbedder(s.URL+base, "m", "")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Embed(context.Background(), texts(1)); err != nil {
			t.Errorf("base %q: %v", base, err)
		}
		if auth := s.headers[0].Get("Authorization"); auth != "" {
			t.Errorf("base %q: Authorization %q without a key", base, auth)
		}
	}
}

func TestEmbedderConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    func() error
	}{
		{"no model", func() error { _, err := NewOpenAIEmbedder("http://h/v1", " ", ""); return err }},
		{"not http", func() error { _, err := NewOpenAIEmbedder("ftp://h/v1", "m", ""); return err }},
		{"no host", func() error { _, err := NewOllamaEmbedder("http://", "m"); return err }},
		{"batch 0", func() error { _, err := NewOllamaEmbedder("http://h", "m", WithBatchSize(0)); return err }},
		{"attempts 0", func() error { _, err := NewOllamaEmbedder("http://h", "m", WithMaxAttempts(0)); return err }},
		{"delays", func() error {
			_, err := NewOllamaEmbedder("http://h", "m", WithRetryDelay(time.Second, time.Millisecond))
			return err
		}},
		{"limit", func() error { _, err := NewOllamaEmbedder("http://h", "m", WithMaxResponseBytes(0)); return err }},
		{"key", func() error { _, err := NewOpenAIEmbedder("http://h/v1", "m", "a\nb"); return err }},
	} {
		if err := tc.f(); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

func TestParseEmbedderConfig(t *testing.T) {
	for _, tc := range []struct {
		url, model, key string
		want            string // the embedder's type and model, "" for nil
		wantErr         string
	}{
		{"", "", "", "", ""},
		{"", "nomic-embed-text", "k", "", ""},
		{"http://localhost:8080/v1", "bge-small", "", "*search.OpenAIEmbedder bge-small", ""},
		{" https://api.openai.com/v1 ", "text-embedding-3-small", "sk", "*search.OpenAIEmbedder text-embedding-3-small", ""},
		{"ollama:http://localhost:11434", "nomic-embed-text", "", "*search.OllamaEmbedder nomic-embed-text", ""},
		{"hash:256", "", "", "search.HashEmbedder hash-256", ""},
		{"hash:256", "hash-256", "", "search.HashEmbedder hash-256", ""},
		{"http://localhost:8080/v1", "", "", "", "EDGAR13F_EMBED_MODEL"},
		{"ollama:http://localhost:11434", "", "", "", "EDGAR13F_EMBED_MODEL"},
		{"localhost:8080/v1", "m", "", "", "want an OpenAI-compatible base URL"},
		{"ollama:localhost", "m", "", "", "not an http or https base URL"},
		{"hash:0", "", "", "", "hash:DIM"},
		{"hash:x", "", "", "", "hash:DIM"},
		{"hash:8", "bge", "", "", "leave the model"},
	} {
		e, err := ParseEmbedderConfig(tc.url, tc.model, tc.key)
		got := ""
		if e != nil {
			got = fmt.Sprintf("%T %s", e, e.Model())
		}
		if got != tc.want || (err == nil) != (tc.wantErr == "") || err != nil && !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("ParseEmbedderConfig(%q, %q) = %s, %v; want %q, error with %q", tc.url, tc.model, got, err, tc.want, tc.wantErr)
		}
	}
}

// TestParseEmbedderConfigKey: the key reaches both servers as a bearer
// token.
func TestParseEmbedderConfigKey(t *testing.T) {
	for _, wire := range []string{"openai", "ollama"} {
		s := newWireServer(t, wire)
		url := s.URL + "/v1"
		if wire == "ollama" {
			url = "ollama:" + s.URL
		}
		e, err := ParseEmbedderConfig(url, "m", "secret")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Embed(context.Background(), texts(1)); err != nil {
			t.Fatal(err)
		}
		if auth := s.headers[0].Get("Authorization"); auth != "Bearer secret" {
			t.Errorf("%s: Authorization %q", wire, auth)
		}
	}
}

func cosine(a, b []float32) float64 {
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	return dot / math.Sqrt(na*nb)
}

func TestHashEmbedder(t *testing.T) {
	h := HashEmbedder{Dim: 256}
	in := []string{
		"Export controls restrict sales to China.",
		"export controls on sales to China",
		"The Company leases its headquarters in Cupertino.",
		"",
	}
	vs, err := h.Embed(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := h.Embed(context.Background(), in)
	if !slices.EqualFunc(vs, again, slices.Equal[[]float32]) {
		t.Error("HashEmbedder is not deterministic")
	}
	if err := checkVectors(vs, len(in)); err != nil {
		t.Error(err)
	}
	for i, v := range vs {
		var n float64
		for _, x := range v {
			n += float64(x) * float64(x)
		}
		if math.Abs(n-1) > 1e-6 {
			t.Errorf("vector %d has squared length %v; want 1", i, n)
		}
	}
	if none, _ := h.Embed(context.Background(), []string{"--- | ---"}); !slices.Equal(none[0], vs[3]) {
		t.Error("two texts without words have different vectors")
	}
	if near, far := cosine(vs[0], vs[1]), cosine(vs[0], vs[2]); near <= far {
		t.Errorf("texts sharing words: cosine %v; unrelated: %v", near, far)
	}
	if h.Model() != "hash-256" {
		t.Errorf("Model() = %q", h.Model())
	}
	if _, err := (HashEmbedder{}).Embed(context.Background(), in); err == nil {
		t.Error("HashEmbedder{Dim: 0} embeds")
	}
}

func ExampleHashEmbedder() {
	h := HashEmbedder{Dim: 64}
	vs, _ := h.Embed(context.Background(), []string{
		"export controls on China",
		"Export controls restrict our sales to China.",
		"We lease our headquarters.",
	})
	fmt.Println(h.Model(), len(vs[0]))
	fmt.Printf("shared words: %.2f\n", cosine(vs[0], vs[1]))
	fmt.Printf("none shared: %.2f\n", cosine(vs[0], vs[2]))
	// Output:
	// hash-64 64
	// shared words: 0.46
	// none shared: 0.00
}

func ExampleParseEmbedderConfig() {
	// The example commands pass os.Getenv("EDGAR13F_EMBED_URL"),
	// os.Getenv("EDGAR13F_EMBED_MODEL") and os.Getenv("EDGAR13F_EMBED_API_KEY").
	for _, cfg := range [][2]string{
		{"", ""},
		{"http://localhost:8080/v1", "bge-small-en-v1.5"},
		{"ollama:http://localhost:11434", "nomic-embed-text"},
		{"http://localhost:8080/v1", ""},
	} {
		e, err := ParseEmbedderConfig(cfg[0], cfg[1], "")
		switch {
		case err != nil:
			fmt.Println("error:", err)
		case e == nil:
			fmt.Println("no embedder: BM25 only")
		default:
			fmt.Printf("%T %s\n", e, e.Model())
		}
	}
	// Output:
	// no embedder: BM25 only
	// *search.OpenAIEmbedder bge-small-en-v1.5
	// *search.OllamaEmbedder nomic-embed-text
	// error: edgar13f/search: embedder URL "http://localhost:8080/v1" given without a model: set EDGAR13F_EMBED_MODEL (for example nomic-embed-text or text-embedding-3-small)
}

func ExampleNewOllamaEmbedder() {
	// A stand-in for an Ollama server: two-dimensional vectors.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Input []string }
		json.NewDecoder(r.Body).Decode(&req)
		var vs [][]float32
		for _, s := range req.Input {
			vs = append(vs, []float32{float32(len(s)), 1})
		}
		json.NewEncoder(w).Encode(map[string]any{"embeddings": vs})
	}))
	defer srv.Close()

	e, err := NewOllamaEmbedder(srv.URL, "nomic-embed-text", WithBatchSize(2))
	if err != nil {
		fmt.Println(err)
		return
	}
	vs, err := e.Embed(context.Background(), []string{"a", "bb", "ccc"})
	fmt.Println(e.Model(), vs, err)
	// Output:
	// nomic-embed-text [[1 1] [2 1] [3 1]] <nil>
}

// TestCheckVectors: JSON cannot carry NaN or infinities, but a decoder
// other than encoding/json could; checkVectors refuses them.
func TestCheckVectors(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(-1))
	for _, vs := range [][][]float32{{{1, nan}}, {{inf, 0}}, {{1}, {1, 2}}, {{}}, {{1}, nil}} {
		if err := checkVectors(vs, len(vs)); !errors.Is(err, ErrEmbedResponse) {
			t.Errorf("checkVectors(%v) = %v; want ErrEmbedResponse", vs, err)
		}
	}
	if err := checkVectors([][]float32{{1, 2}, {3, 4}}, 3); !errors.Is(err, ErrEmbedResponse) {
		t.Errorf("checkVectors of 2 vectors for 3 texts = %v; want ErrEmbedResponse", err)
	}
	if err := checkVectors([][]float32{{1, 2}, {3, 4}}, 2); err != nil {
		t.Errorf("checkVectors of good vectors = %v", err)
	}
}

// zeroEmbedder gives the all-zero vector to texts holding "zero", and a
// unit vector to others.
type zeroEmbedder struct{}

func (zeroEmbedder) Model() string { return "zero-test" }

func (zeroEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = []float32{1, 0}
		if strings.Contains(t, "zero") {
			out[i] = []float32{0, 0}
		}
	}
	return out, nil
}

// TestZeroVectorRefused: an all-zero vector has no direction (cosine
// similarity is undefined), so the Engine refuses one from any embedder,
// naming the embedder and the text: a query's, and a chunk's while
// indexing (by its place among the filing's chunks); nothing is stored.
func TestZeroVectorRefused(t *testing.T) {
	ctx := context.Background()
	st := newMemStore()
	e := newTestEngine(t, st, WithEmbedder(zeroEmbedder{}))
	putSynth(t, st, zeroEmbedder{}, threeFilings()[0])
	_, err := e.Search(ctx, "a zero query", day("2025-03-01"), KNN)
	if err == nil || !strings.Contains(err.Error(), "zero-test") || !strings.Contains(err.Error(), "all-zero vector for text 0") {
		t.Errorf("KNN search with a zero query vector: %v; want an error naming the embedder and text 0", err)
	}

	ix, _, _ := fakeEngine(t, newMemStore(), WithEmbedder(zeroEmbedder{}))
	its := fakeItemTexts("320193", "0000320193-24-000123")
	its[1].text += "\n\nA last paragraph that the embedder maps to zero."
	ix.items = func(ctx context.Context, cik, accession string, asOf edgar13f.Date) ([]itemText, error) {
		return its, nil
	}
	chunks, n := -1, 0 // the place of the chunk holding "zero" among the filing's
	for _, it := range its {
		for _, p := range chunk.Split(it.text, chunk.MaxTokens, chunk.Overlap) {
			if chunks < 0 && strings.Contains(p.Text, "zero") {
				chunks = n
			}
			n++
		}
	}
	_, err = ix.Index(ctx, []string{"AAPL"}, day("2025-03-01"), FormType("10-K"))
	var ie *IndexError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "zero-test") || !strings.Contains(err.Error(), fmt.Sprintf("all-zero vector for text %d", chunks)) {
		t.Errorf("Index with a zero chunk vector: %v; want an IndexError naming the embedder and text %d", err, chunks)
	}
	if fs, _ := ix.store.Filings(ctx, day("2025-03-01")); len(fs) != 0 {
		t.Errorf("stored %v", fs)
	}
}

// TestHTTPEmbedderZeroVector: an embedding server answering an all-zero
// vector fails the call with ErrEmbedResponse naming the model and the
// text's place among all the texts given (across batches), in both wire
// formats.
func TestHTTPEmbedderZeroVector(t *testing.T) {
	for _, wire := range []string{"openai", "ollama"} {
		t.Run(wire, func(t *testing.T) {
			s := newWireServer(t, wire)
			s.respond = func(n int, w http.ResponseWriter, req embedRequest) bool {
				writeVectors(w, wire, req.Input, func(vs [][]float32) [][]float32 {
					for i, text := range req.Input {
						if text == "zero" {
							vs[i] = make([]float32, len(vs[i]))
						}
					}
					return vs
				})
				return true
			}
			var e Embedder
			var err error
			if wire == "ollama" {
				e, err = NewOllamaEmbedder(s.URL, "m-zero", WithBatchSize(2))
			} else {
				e, err = NewOpenAIEmbedder(s.URL+"/v1", "m-zero", "", WithBatchSize(2))
			}
			if err != nil {
				t.Fatal(err)
			}
			_, err = e.Embed(context.Background(), []string{"a", "bb", "ccc", "zero"})
			if !errors.Is(err, ErrEmbedResponse) || !strings.Contains(err.Error(), `"m-zero"`) || !strings.Contains(err.Error(), "text 3") {
				t.Errorf("Embed = %v; want ErrEmbedResponse naming model m-zero and text 3", err)
			}
		})
	}
}
