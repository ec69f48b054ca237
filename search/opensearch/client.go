package opensearch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	osgo "github.com/opensearch-project/opensearch-go/v4"
)

// An Error is an error answer of the OpenSearch cluster, with the
// cluster's own type and reason.
type Error struct {
	Op     string // what the store asked: "search", "bulk", "create index", ...
	Status int    // HTTP status of the answer
	Type   string // the cluster's error type, e.g. "resource_already_exists_exception"
	Reason string // the cluster's reason, with its root cause when that says more
}

// Error names the request, the status, the type and the reason.
func (e *Error) Error() string {
	if e.Type == "" {
		return fmt.Sprintf("edgar13f/search/opensearch: %s: status %d: %s", e.Op, e.Status, e.Reason)
	}
	return fmt.Sprintf("edgar13f/search/opensearch: %s: status %d %s: %s", e.Op, e.Status, e.Type, e.Reason)
}

// errorBody is the shape of OpenSearch's error answers:
// {"error": {"type", "reason", "root_cause": [...], "caused_by": {...}}, "status": N}.
type errorBody struct {
	Error json.RawMessage `json:"error"`
}

type errorCause struct {
	Type         string       `json:"type"`
	Reason       string       `json:"reason"`
	RootCause    []errorCause `json:"root_cause"`
	CausedBy     *errorCause  `json:"caused_by"`
	FailedShards []struct {
		Reason *errorCause `json:"reason"`
	} `json:"failed_shards"`
}

// deepest returns the innermost cause that has a reason.
func (c *errorCause) deepest() *errorCause {
	d := c
	for d.CausedBy != nil && d.CausedBy.Reason != "" {
		d = d.CausedBy
	}
	return d
}

// parseError turns an error answer into an *Error. A reason such as
// "all shards failed" says nothing; the root cause (a script error, a
// parsing error) is appended to it.
func parseError(op string, status int, body []byte) *Error {
	e := &Error{Op: op, Status: status}
	var eb errorBody
	if json.Unmarshal(body, &eb) != nil || len(eb.Error) == 0 {
		e.Reason = strings.TrimSpace(truncate(string(body), 500))
		if e.Reason == "" {
			e.Reason = http.StatusText(status)
		}
		return e
	}
	var s string
	if json.Unmarshal(eb.Error, &s) == nil {
		e.Reason = s
		return e
	}
	var c errorCause
	if json.Unmarshal(eb.Error, &c) != nil {
		e.Reason = truncate(string(eb.Error), 500)
		return e
	}
	e.Type, e.Reason = c.Type, c.Reason
	var more *errorCause
	switch {
	case len(c.FailedShards) > 0 && c.FailedShards[0].Reason != nil:
		more = c.FailedShards[0].Reason.deepest()
	case c.CausedBy != nil:
		more = c.deepest()
	case len(c.RootCause) > 0:
		more = &c.RootCause[0]
	}
	if more != nil && more.Reason != "" && more.Reason != c.Reason {
		e.Reason += " (caused by " + more.Type + ": " + more.Reason + ")"
	}
	return e
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// isStatus reports whether err is an *Error of that status and, when typ is
// not empty, that type.
func isStatus(err error, status int, typ string) bool {
	var e *Error
	return errors.As(err, &e) && e.Status == status && (typ == "" || e.Type == typ)
}

// A request is one call to the cluster; it implements osgo.Request.
type request struct {
	path        string
	query       url.Values
	body        []byte
	contentType string
}

// GetRequest builds the HTTP request; the client's transport fills in the
// scheme and host of a node.
func (r *request) GetRequest(method string) (*http.Request, error) {
	u := &url.URL{Path: r.path, RawQuery: r.query.Encode()}
	var body io.Reader
	if r.body != nil {
		body = bytes.NewReader(r.body)
	}
	req, err := http.NewRequest(method, u.String(), body)
	if err != nil {
		return nil, err
	}
	if r.body != nil {
		req.Header.Set("Content-Type", r.contentType)
	}
	return req, nil
}

// A transportError is a call that got no answer from the cluster (the
// connection failed or the context ended): whether the cluster acted on it
// is unknown.
type transportError struct {
	op  string
	err error
}

func (e *transportError) Error() string {
	return fmt.Sprintf("edgar13f/search/opensearch: %s: %v", e.op, e.err)
}

func (e *transportError) Unwrap() error { return e.err }

// maxRejected is how many times a call the cluster rejects with 429 (its
// queues are full) is sent before the rejection is returned.
const maxRejected = 6

// do sends one call and returns the answer's body. An answer of status 400
// or more is an *Error; a status 429 answer is retried after a backoff.
func (s *Store) do(ctx context.Context, op, method, path string, query url.Values, body any) ([]byte, error) {
	r := &request{path: path, query: query, contentType: "application/json"}
	switch b := body.(type) {
	case nil:
	case ndjson:
		r.body, r.contentType = b, "application/x-ndjson"
	default:
		enc, err := json.Marshal(b)
		if err != nil {
			return nil, fmt.Errorf("edgar13f/search/opensearch: %s: %w", op, err)
		}
		r.body = enc
	}
	for attempt := 0; ; attempt++ {
		resp, err := osgo.Do(ctx, s.client, method, r, (*osgo.NoBody)(nil))
		if err != nil {
			if ctxErr := ctx.Err(); ctxErr != nil {
				return nil, &transportError{op, ctxErr}
			}
			return nil, &transportError{op, err}
		}
		data, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return nil, &transportError{op, err}
		}
		if resp.StatusCode < 300 {
			return data, nil
		}
		e := parseError(op, resp.StatusCode, data)
		if resp.StatusCode != http.StatusTooManyRequests || attempt+1 >= maxRejected {
			return data, e
		}
		if err := s.wait(ctx, attempt); err != nil {
			return nil, &transportError{op, err}
		}
	}
}

// wait sleeps the backoff before retry attempt+1, or returns ctx's error.
func (s *Store) wait(ctx context.Context, attempt int) error {
	d := s.opts.backoff(attempt)
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// defaultBackoff doubles from 100 ms to at most 5 s.
func defaultBackoff(attempt int) time.Duration {
	d := 100 * time.Millisecond << min(attempt, 6)
	return min(d, 5*time.Second)
}

// ndjson is a body in the newline-delimited JSON of the _bulk API.
type ndjson []byte
