package opensearch

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f"
)

// TestErrorPainless: a script the cluster cannot compile (OpenSearch
// before 2.10 has no termFreq) fails the query with the root cause, not
// just "all shards failed".
func TestErrorPainless(t *testing.T) {
	s, _ := newReplay(t, "error_painless")
	_, err := s.Lexical(ctx, lexicalQuery, lexicalFilter, 2)
	var e *Error
	if !errors.As(err, &e) || e.Status != http.StatusBadRequest || e.Type != "search_phase_execution_exception" {
		t.Fatalf("Lexical = %v; want the search_phase_execution_exception", err)
	}
	if !strings.Contains(err.Error(), "Unknown call [termFreq] with [2] arguments.") || !strings.Contains(err.Error(), "all shards failed") {
		t.Errorf("error %q does not give the cause", err)
	}
}

// TestErrorRejected: a search the cluster rejects with 429 is sent again;
// after six rejections the rejection is the error.
func TestErrorRejected(t *testing.T) {
	s, _ := newReplay(t, "error_rejected_then_ok")
	if _, _, ok, err := s.Chunk(ctx, "41f0aaa0f9ec2aa2"); ok || err != nil {
		t.Errorf("Chunk = %v, %v; want not found after two rejections", ok, err)
	}
	s, _ = newReplay(t, "error_rejected")
	_, _, _, err := s.Chunk(ctx, "41f0aaa0f9ec2aa2")
	if !isStatus(err, http.StatusTooManyRequests, "es_rejected_execution_exception") || !strings.Contains(err.Error(), "queue capacity = 1000") {
		t.Errorf("Chunk = %v; want the rejection", err)
	}
}

// TestErrorShardFailure: an answer from some shards only is an error, not
// a shorter answer.
func TestErrorShardFailure(t *testing.T) {
	s, _ := newReplay(t, "error_shard")
	_, err := s.Filings(ctx, edgar13f.MustParseDate("2024-12-31"))
	if err == nil || !strings.Contains(err.Error(), "1 of 2 shards answered") || !strings.Contains(err.Error(), "Node not connected") {
		t.Errorf("Filings = %v; want the shard failure", err)
	}
}

// TestErrorForbidden: the security plugin's refusal reaches the caller
// with its reason.
func TestErrorForbidden(t *testing.T) {
	s, _ := newReplay(t, "error_forbidden")
	_, err := s.Meta(ctx)
	if !isStatus(err, http.StatusForbidden, "security_exception") || !strings.Contains(err.Error(), "no permissions for [indices:data/read/get]") {
		t.Errorf("Meta = %v; want the security_exception", err)
	}
}

// TestParseError: the error shapes OpenSearch and proxies answer with.
func TestParseError(t *testing.T) {
	for _, tc := range []struct {
		body string
		want string
	}{
		{`{"error":{"root_cause":[{"type":"index_not_found_exception","reason":"no such index [x]"}],"type":"index_not_found_exception","reason":"no such index [x]"},"status":404}`,
			"edgar13f/search/opensearch: op: status 404 index_not_found_exception: no such index [x]"},
		{`{"error":{"type":"illegal_argument_exception","reason":"failed to parse","caused_by":{"type":"x_content_parse_exception","reason":"[1:12] unknown field [foo]"}},"status":400}`,
			"edgar13f/search/opensearch: op: status 400 illegal_argument_exception: failed to parse (caused by x_content_parse_exception: [1:12] unknown field [foo])"},
		{`{"error":"Incorrect HTTP method for uri [/x] and method [PUT], allowed: [POST]","status":405}`,
			"edgar13f/search/opensearch: op: status 405: Incorrect HTTP method for uri [/x] and method [PUT], allowed: [POST]"},
		{`<html><body>502 Bad Gateway</body></html>`,
			"edgar13f/search/opensearch: op: status 502: <html><body>502 Bad Gateway</body></html>"},
		{``, "edgar13f/search/opensearch: op: status 502: Bad Gateway"},
	} {
		status := 400
		switch {
		case strings.Contains(tc.body, `"status":404`):
			status = 404
		case strings.Contains(tc.body, `"status":405`):
			status = 405
		case !strings.HasPrefix(tc.body, "{"):
			status = 502
		}
		if got := parseError("op", status, []byte(tc.body)).Error(); got != tc.want {
			t.Errorf("parseError(%s) =\n%s\nwant\n%s", tc.body, got, tc.want)
		}
	}
}

// TestCompareCIK: CIKs sort as numbers.
func TestCompareCIK(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{{"320193", "1318605", -1}, {"1318605", "320193", 1}, {"20", "20", 0}, {"9", "x", -1}, {"x", "y", -1}} {
		if got := compareCIK(tc.a, tc.b); got != tc.want {
			t.Errorf("compareCIK(%s, %s) = %d; want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
