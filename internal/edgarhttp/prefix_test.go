package edgarhttp

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestGetPrefix(t *testing.T) {
	// 40 KiB of lines with a marker line at about 10 KiB.
	var b strings.Builder
	for i := 0; b.Len() < 40<<10; i++ {
		if i == 100 {
			b.WriteString("STOP\n")
		}
		b.WriteString(strings.Repeat("x", 99) + "\n")
	}
	body := []byte(b.String())
	marker := bytes.Index(body, []byte("STOP\n")) + len("STOP\n")
	enough := func(p []byte) bool { return bytes.Contains(p, []byte("STOP\n")) }
	never := func([]byte) bool { return false }

	type result struct {
		Hits    int
		Whole   bool
		HasStop bool
		Failure *failure
	}
	tests := []struct {
		name   string
		steps  []step
		enough func([]byte) bool
		want   result
	}{
		{"stops after the marker", []step{ok(body, "text/plain")}, enough, result{Hits: 1, HasStop: true}},
		{"stops in a gzip stream", []step{gzipped(gzipBytes(t, body))}, enough, result{Hits: 1, HasStop: true}},
		{"never enough reads all", []step{ok(body, "text/plain")}, never, result{Hits: 1, Whole: true, HasStop: true}},
		{"cut before enough is retried", []step{cut(body[:marker-200]), ok(body, "text/plain")}, enough, result{Hits: 2, HasStop: true}},
		{"html page is retried", []step{ok([]byte(rateLimitPage), "text/html"), ok(body, "text/plain")}, enough, result{Hits: 2, HasStop: true}},
		{"404 fails at once", []step{status(404, nil, "")}, enough, result{Hits: 1, Failure: &failure{StatusCode: 404, Attempts: 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newServer(t, tt.steps...)
			c, _ := testClient(t, Config{MaxAttempts: 3})
			got, err := c.GetPrefix(context.Background(), s.URL+"/Archives/edgar/full-index/2020/QTR1/form.idx", tt.enough)
			r := result{Hits: len(s.Hits())}
			var e *Error
			switch {
			case errors.As(err, &e):
				r.Failure = &failure{StatusCode: e.StatusCode, Attempts: e.Attempts}
			case err != nil:
				t.Fatal(err)
			default:
				if !bytes.HasPrefix(body, got) {
					t.Fatalf("got %d bytes that are not a prefix of the body", len(got))
				}
				r.Whole = len(got) == len(body)
				r.HasStop = enough(got)
				if !r.Whole && len(got) > marker+prefixChunk {
					t.Errorf("read %d bytes, want at most %d", len(got), marker+prefixChunk)
				}
			}
			if diff := cmp.Diff(tt.want, r); diff != "" {
				t.Errorf("GetPrefix (-want +got):\n%s", diff)
			}
		})
	}
}

func TestGetPrefixNilEnough(t *testing.T) {
	c, _ := testClient(t, Config{})
	_, err := c.GetPrefix(context.Background(), "http://127.0.0.1:1/x", nil)
	if err == nil || err.Error() != "edgarhttp: GetPrefix http://127.0.0.1:1/x: nil enough" {
		t.Fatalf("err = %v", err)
	}
}
