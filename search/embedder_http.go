package search

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/edgar13f/edgar13f/internal/retryafter"
	"github.com/edgar13f/edgar13f/internal/sleep"
)

// Defaults of the HTTP embedders.
const (
	DefaultEmbedBatch       = 64       // texts per request
	DefaultEmbedAttempts    = 5        // attempts per request
	DefaultEmbedMaxBytes    = 64 << 20 // the largest response body read
	defaultEmbedBaseDelay   = 500 * time.Millisecond
	defaultEmbedMaxDelay    = time.Minute
	defaultEmbedHTTPTimeout = 2 * time.Minute
	errorBodyLimit          = 64 << 10 // bytes of an error response read for its message
)

// An EmbedderOption configures an HTTP embedder ([NewOpenAIEmbedder],
// [NewOllamaEmbedder]).
type EmbedderOption func(*embedConfig)

type embedConfig struct {
	batch     int
	attempts  int
	baseDelay time.Duration
	maxDelay  time.Duration
	maxBytes  int64
	hc        *http.Client
	apiKey    string
}

// WithBatchSize sets how many texts one request carries (default
// [DefaultEmbedBatch]; at least 1).
func WithBatchSize(n int) EmbedderOption { return func(c *embedConfig) { c.batch = n } }

// WithMaxAttempts sets the attempts of one request, the first included
// (default [DefaultEmbedAttempts]; at least 1).
func WithMaxAttempts(n int) EmbedderOption { return func(c *embedConfig) { c.attempts = n } }

// WithRetryDelay sets the wait before the first retry, which doubles with
// each retry (±20% jitter), and the longest wait, which also caps an
// honoured Retry-After (defaults 500 ms and 1 min).
func WithRetryDelay(first, longest time.Duration) EmbedderOption {
	return func(c *embedConfig) { c.baseDelay, c.maxDelay = first, longest }
}

// WithMaxResponseBytes sets the largest response body read (default
// [DefaultEmbedMaxBytes]); a larger one fails without retry.
func WithMaxResponseBytes(n int64) EmbedderOption { return func(c *embedConfig) { c.maxBytes = n } }

// WithEmbedHTTPClient sets the HTTP client (default: one with a 2 min
// timeout).
func WithEmbedHTTPClient(hc *http.Client) EmbedderOption { return func(c *embedConfig) { c.hc = hc } }

// WithAPIKey sends key as a bearer token. [NewOpenAIEmbedder] takes its key
// as an argument; this option gives one to an Ollama server behind a proxy
// that asks for it.
func WithAPIKey(key string) EmbedderOption { return func(c *embedConfig) { c.apiKey = key } }

// An EmbedError reports a request to an embedding server that failed, or
// whose answer was unusable. It never holds the API key.
type EmbedError struct {
	URL        string // the endpoint, without user information
	StatusCode int    // the last HTTP status; 0 when no response came
	Attempts   int    // attempts made
	Message    string // the server's own error message, when it gave one
	Err        error  // the cause (for an unsuccessful status, a value that says only that)
}

// Error names the URL, the status and the server's message.
func (e *EmbedError) Error() string {
	var b strings.Builder
	b.WriteString("edgar13f/search: embeddings from ")
	b.WriteString(e.URL)
	if e.StatusCode != 0 {
		fmt.Fprintf(&b, ": HTTP %d %s", e.StatusCode, http.StatusText(e.StatusCode))
	}
	if e.Message != "" {
		fmt.Fprintf(&b, ": %q", e.Message)
	}
	if e.Err != nil && e.Err != errStatus {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " (after %d attempts)", e.Attempts)
	}
	return b.String()
}

// Unwrap returns the cause.
func (e *EmbedError) Unwrap() error { return e.Err }

// ErrEmbedResponse is wrapped by the [*EmbedError] for an answer that is
// not one usable vector per text: a count, index or dimension that does not
// match, a non-finite number, an all-zero vector, or a body that is not the
// wire format.
var ErrEmbedResponse = errors.New("unusable embeddings response")

// ErrEmbedTooLarge is wrapped by the [*EmbedError] for a response body over
// the size limit.
var ErrEmbedTooLarge = errors.New("response body over the size limit")

// errStatus is the cause of an EmbedError for an answer with a status
// other than 200 OK; the status and the server's message say the rest.
var errStatus = errors.New("unsuccessful HTTP status")

// embedClient posts batches of texts to one endpoint with retries. A wire
// format turns a batch into a request body and a response body into
// vectors.
type embedClient struct {
	endpoint *url.URL
	model    string
	cfg      embedConfig
	encode   func(model string, texts []string) ([]byte, error)
	decode   func(body []byte, n int) ([][]float32, error)

	// Seams for tests.
	sleep  func(ctx context.Context, d time.Duration) error
	now    func() time.Time
	jitter func() float64 // uniform in [0, 1)
}

func newEmbedClient(what, rawURL, path, model string, opts []EmbedderOption) (*embedClient, error) {
	if strings.TrimSpace(model) == "" {
		return nil, fmt.Errorf("edgar13f/search: %s embedder at %s: no model given", what, rawURL)
	}
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("edgar13f/search: %s embedder: %q is not an http or https base URL", what, rawURL)
	}
	// A base that already names the endpoint is taken as it is.
	u.Path = strings.TrimSuffix(strings.TrimRight(u.Path, "/"), path) + path
	u.RawPath = ""
	cfg := embedConfig{
		batch:     DefaultEmbedBatch,
		attempts:  DefaultEmbedAttempts,
		baseDelay: defaultEmbedBaseDelay,
		maxDelay:  defaultEmbedMaxDelay,
		maxBytes:  DefaultEmbedMaxBytes,
	}
	for _, o := range opts {
		o(&cfg)
	}
	switch {
	case cfg.batch < 1:
		return nil, fmt.Errorf("edgar13f/search: batch size %d: want at least 1", cfg.batch)
	case cfg.attempts < 1:
		return nil, fmt.Errorf("edgar13f/search: %d attempts: want at least 1", cfg.attempts)
	case cfg.baseDelay < 0 || cfg.maxDelay < cfg.baseDelay:
		return nil, fmt.Errorf("edgar13f/search: retry delays %v, %v: want 0 <= first <= longest", cfg.baseDelay, cfg.maxDelay)
	case cfg.maxBytes < 1:
		return nil, fmt.Errorf("edgar13f/search: response limit %d bytes: want at least 1", cfg.maxBytes)
	case strings.ContainsAny(cfg.apiKey, "\r\n"):
		return nil, errors.New("edgar13f/search: the API key holds a line break")
	}
	if cfg.hc == nil {
		cfg.hc = &http.Client{Timeout: defaultEmbedHTTPTimeout}
	}
	return &embedClient{
		endpoint: u,
		model:    strings.TrimSpace(model),
		cfg:      cfg,
		sleep:    sleep.For,
		now:      time.Now,
		jitter:   rand.Float64,
	}, nil
}

// embed returns one vector per text, all of one dimension, batch by batch.
func (c *embedClient) embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for batch := range slices.Chunk(texts, c.cfg.batch) {
		vs, err := c.post(ctx, batch)
		if err != nil {
			return nil, err
		}
		if len(out) > 0 && len(vs[0]) != len(out[0]) {
			return nil, c.fail(0, 1, "", fmt.Errorf("%w: vectors of dimension %d, then %d", ErrEmbedResponse, len(out[0]), len(vs[0])))
		}
		for i, v := range vs {
			if !slices.ContainsFunc(v, func(x float32) bool { return x != 0 }) {
				return nil, c.fail(0, 1, "", fmt.Errorf("%w: model %q returned an all-zero vector for text %d: it has no direction, so its cosine similarity to anything is undefined", ErrEmbedResponse, c.model, len(out)+i))
			}
		}
		out = append(out, vs...)
	}
	return out, nil
}

// post sends one batch, retrying a network error, 408, 429 and 5xx (not
// 501) with exponential backoff, or after the server's Retry-After when
// that is longer.
func (c *embedClient) post(ctx context.Context, batch []string) ([][]float32, error) {
	body, err := c.encode(c.model, batch)
	if err != nil {
		return nil, c.fail(0, 0, "", err)
	}
	for attempt := 1; ; attempt++ {
		vs, o := c.attempt(ctx, body, len(batch))
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if o.err == nil {
			return vs, nil
		}
		if !o.retry || attempt >= c.cfg.attempts {
			return nil, c.fail(o.status, attempt, o.message, o.err)
		}
		if err := c.sleep(ctx, c.delay(attempt, o.retryAfter)); err != nil {
			return nil, err
		}
	}
}

// delay is the wait after the given failed attempt (from 1): the backoff
// or the server's Retry-After, whichever is longer, at most maxDelay.
func (c *embedClient) delay(attempt int, retryAfter time.Duration) time.Duration {
	d := c.cfg.baseDelay
	for i := 1; i < attempt && d < c.cfg.maxDelay; i++ {
		d *= 2
	}
	d = time.Duration(float64(min(d, c.cfg.maxDelay)) * (0.8 + 0.4*c.jitter()))
	return min(max(d, retryAfter), c.cfg.maxDelay)
}

type embedOutcome struct {
	status     int
	message    string
	retry      bool
	retryAfter time.Duration
	err        error
}

func (c *embedClient) attempt(ctx context.Context, body []byte, n int) ([][]float32, embedOutcome) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint.String(), bytes.NewReader(body))
	if err != nil {
		return nil, embedOutcome{err: err}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if c.cfg.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.cfg.apiKey)
	}
	resp, err := c.cfg.hc.Do(req)
	if err != nil {
		// The url.Error names the URL, which the EmbedError also does.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, embedOutcome{retry: true, err: err}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, errorBodyLimit))
		o := embedOutcome{status: resp.StatusCode, message: serverMessage(b), err: errStatus}
		switch resp.StatusCode {
		case http.StatusRequestTimeout, http.StatusTooManyRequests,
			http.StatusInternalServerError, http.StatusBadGateway,
			http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			o.retry = true
			o.retryAfter = retryafter.Parse(resp.Header.Get("Retry-After"), c.now())
		}
		return nil, o
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, c.cfg.maxBytes+1))
	if err != nil {
		return nil, embedOutcome{status: resp.StatusCode, retry: true, err: err}
	}
	if int64(len(b)) > c.cfg.maxBytes {
		return nil, embedOutcome{status: resp.StatusCode, err: fmt.Errorf("%w (%d bytes)", ErrEmbedTooLarge, c.cfg.maxBytes)}
	}
	vs, err := c.decode(b, n)
	if err == nil {
		err = checkVectors(vs, n)
	}
	if err != nil {
		return nil, embedOutcome{status: resp.StatusCode, message: serverMessage(b), err: err}
	}
	return vs, embedOutcome{}
}

func (c *embedClient) fail(status, attempts int, message string, err error) error {
	return &EmbedError{URL: c.endpoint.Redacted(), StatusCode: status, Attempts: attempts, Message: message, Err: err}
}

// checkVectors checks that vs is n vectors of one positive dimension with
// finite components.
func checkVectors(vs [][]float32, n int) error {
	if len(vs) != n {
		return fmt.Errorf("%w: %d vectors for %d texts", ErrEmbedResponse, len(vs), n)
	}
	for i, v := range vs {
		if len(v) == 0 || len(v) != len(vs[0]) {
			return fmt.Errorf("%w: vector %d has dimension %d, vector 0 %d", ErrEmbedResponse, i, len(v), len(vs[0]))
		}
		for j, x := range v {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return fmt.Errorf("%w: vector %d holds %v at %d", ErrEmbedResponse, i, x, j)
			}
		}
	}
	return nil
}

// serverMessage returns the error message in an error body: OpenAI's
// {"error":{"message":...}}, Ollama's and TEI's {"error":"..."}, vLLM's
// {"message":...}; else the start of the body as text.
func serverMessage(body []byte) string {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(body, &v) == nil {
		var s string
		var obj struct {
			Message string `json:"message"`
		}
		switch {
		case json.Unmarshal(v.Error, &s) == nil && s != "":
			return clip(s)
		case json.Unmarshal(v.Error, &obj) == nil && obj.Message != "":
			return clip(obj.Message)
		case v.Message != "":
			return clip(v.Message)
		}
	}
	if !json.Valid(body) {
		return clip(strings.TrimSpace(string(body)))
	}
	return ""
}

// clip keeps the first 300 bytes of a message, on a character boundary,
// valid UTF-8.
func clip(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= 300 {
		return s
	}
	cut := 300
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

// An OpenAIEmbedder embeds texts through an OpenAI-compatible
// POST {base}/embeddings (OpenAI, vLLM, llama.cpp's server, Text Embeddings
// Inference, LM Studio, Ollama's /v1). It is safe for concurrent use.
type OpenAIEmbedder struct{ c *embedClient }

// NewOpenAIEmbedder returns an embedder posting to baseURL + "/embeddings"
// (baseURL usually ends in "/v1"; one that already ends in "/embeddings" is
// used as it is) with the given model, and apiKey, when not empty, as a
// bearer token.
func NewOpenAIEmbedder(baseURL, model, apiKey string, opts ...EmbedderOption) (*OpenAIEmbedder, error) {
	if apiKey != "" {
		opts = append(opts[:len(opts):len(opts)], WithAPIKey(apiKey))
	}
	c, err := newEmbedClient("OpenAI-compatible", baseURL, "/embeddings", model, opts)
	if err != nil {
		return nil, err
	}
	c.encode = func(model string, texts []string) ([]byte, error) {
		return json.Marshal(struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}{model, texts})
	}
	c.decode = decodeOpenAI
	return &OpenAIEmbedder{c}, nil
}

// Model returns the model name.
func (e *OpenAIEmbedder) Model() string { return e.c.model }

// Embed returns one vector per text, in order, requesting them in batches.
// A failed request returns an [*EmbedError], or ctx.Err() when ctx ended.
func (e *OpenAIEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return e.c.embed(ctx, texts)
}

// decodeOpenAI reads {"data":[{"index":i,"embedding":[...]},...]}, in index
// order whatever order the server sent.
func decodeOpenAI(body []byte, n int) ([][]float32, error) {
	var r struct {
		Data []struct {
			Index     *int      `json:"index"`
			Embedding []float32 `json:"embedding"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrEmbedResponse, err)
	}
	if len(r.Data) != n {
		return nil, fmt.Errorf("%w: %d vectors for %d texts", ErrEmbedResponse, len(r.Data), n)
	}
	out := make([][]float32, n)
	for _, d := range r.Data {
		if d.Index == nil || *d.Index < 0 || *d.Index >= n || out[*d.Index] != nil {
			return nil, fmt.Errorf("%w: missing, repeated or out-of-range index among %d", ErrEmbedResponse, n)
		}
		out[*d.Index] = d.Embedding
		if d.Embedding == nil {
			out[*d.Index] = []float32{}
		}
	}
	return out, nil
}

// An OllamaEmbedder embeds texts through Ollama's POST {host}/api/embed. It
// is safe for concurrent use.
type OllamaEmbedder struct{ c *embedClient }

// NewOllamaEmbedder returns an embedder posting to host + "/api/embed"
// (host such as "http://localhost:11434") with the given model.
func NewOllamaEmbedder(host, model string, opts ...EmbedderOption) (*OllamaEmbedder, error) {
	c, err := newEmbedClient("Ollama", host, "/api/embed", model, opts)
	if err != nil {
		return nil, err
	}
	c.encode = func(model string, texts []string) ([]byte, error) {
		return json.Marshal(struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}{model, texts})
	}
	c.decode = func(body []byte, n int) ([][]float32, error) {
		var r struct {
			Embeddings [][]float32 `json:"embeddings"`
		}
		if err := json.Unmarshal(body, &r); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrEmbedResponse, err)
		}
		return r.Embeddings, nil
	}
	return &OllamaEmbedder{c}, nil
}

// Model returns the model name.
func (e *OllamaEmbedder) Model() string { return e.c.model }

// Embed returns one vector per text, in order, requesting them in batches.
// A failed request returns an [*EmbedError], or ctx.Err() when ctx ended.
func (e *OllamaEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return e.c.embed(ctx, texts)
}
