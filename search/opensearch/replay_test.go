package opensearch

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	osgo "github.com/opensearch-project/opensearch-go/v4"
)

// update rewrites the expected request bodies of testdata/*.json with the
// ones the store sends (the recorded responses are kept). Review the diff.
var update = flag.Bool("update", false, "rewrite the request bodies in testdata/*.json with the ones the store sends")

// An exchange is one request the store must send and the answer the
// cluster gives, as kept in testdata/NAME.json.
type exchange struct {
	Note   string            `json:"note,omitempty"`   // what the step is for
	Req    string            `json:"req"`              // "METHOD /path?query" (query in any order)
	Body   json.RawMessage   `json:"body,omitempty"`   // the JSON body expected (compared as JSON values)
	NDJSON []json.RawMessage `json:"ndjson,omitempty"` // a _bulk body expected, one JSON value a line
	Status int               `json:"status"`
	Resp   json.RawMessage   `json:"resp"`
}

// A replay is an OpenSearch cluster that answers the requests of one
// recorded conversation, in order, and fails the test on any other.
type replay struct {
	t    *testing.T
	file string
	ex   []exchange

	mu   sync.Mutex
	next int
	dump bool
}

// newReplay loads testdata/name.json and returns a Store named "t" talking
// to a server that replays it. opts are applied after the test defaults
// (nonces "n1", "n2", ..., no backoff).
func newReplay(t *testing.T, name string, opts ...Option) (*Store, *replay) {
	t.Helper()
	file := filepath.Join("testdata", name+".json")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	r := &replay{t: t, file: file}
	if err := json.Unmarshal(data, &r.ex); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	srv := httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(srv.Close)
	c, err := osgo.NewClient(osgo.Config{Addresses: []string{srv.URL}, DisableRetry: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	n := 0
	base := []Option{
		func(o *options) {
			o.nonce = func() string { n++; return "n" + strconv.Itoa(n) }
			o.backoff = func(int) time.Duration { return 0 }
		},
	}
	s, err := Open(c, "t", append(base, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.finish() })
	return s, r
}

// serve answers the next exchange if the request is the one recorded.
func (r *replay) serve(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	body, _ := io.ReadAll(req.Body)
	got := req.Method + " " + req.URL.Path
	if req.URL.RawQuery != "" {
		got += "?" + req.URL.RawQuery
	}
	if r.next >= len(r.ex) {
		r.t.Errorf("%s: request %d not recorded: %s\n%s", r.file, r.next+1, got, body)
		http.Error(w, `{"error":"not recorded"}`, http.StatusInternalServerError)
		return
	}
	ex := &r.ex[r.next]
	r.next++
	if !sameRequestLine(ex.Req, got) {
		r.t.Errorf("%s: request %d = %s; recorded %s", r.file, r.next, got, ex.Req)
		http.Error(w, `{"error":"unexpected request"}`, http.StatusInternalServerError)
		return
	}
	if *update {
		r.record(ex, req, body)
	} else if msg := r.checkBody(ex, req, body); msg != "" {
		r.t.Errorf("%s: request %d (%s): %s", r.file, r.next, ex.Req, msg)
	}
	// A response recorded as a JSON string is a body that is not JSON
	// (a proxy's HTML page).
	var text string
	if json.Unmarshal(ex.Resp, &text) == nil {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(ex.Status)
		io.WriteString(w, text)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(ex.Status)
	w.Write(ex.Resp)
}

// sameRequestLine compares method, path and query (as sets of values).
func sameRequestLine(want, got string) bool {
	wp, wq, _ := strings.Cut(want, "?")
	gp, gq, _ := strings.Cut(got, "?")
	if wp != gp {
		return false
	}
	a, err1 := url.ParseQuery(wq)
	b, err2 := url.ParseQuery(gq)
	return err1 == nil && err2 == nil && reflect.DeepEqual(a, b)
}

func (r *replay) checkBody(ex *exchange, req *http.Request, body []byte) string {
	ct := req.Header.Get("Content-Type")
	switch {
	case ex.NDJSON != nil:
		if ct != "application/x-ndjson" {
			return "Content-Type " + ct + "; want application/x-ndjson"
		}
		if !bytes.HasSuffix(body, []byte("\n")) {
			return "the _bulk body does not end with a newline"
		}
		lines := strings.Split(strings.TrimSuffix(string(body), "\n"), "\n")
		if len(lines) != len(ex.NDJSON) {
			return fmt.Sprintf("%d NDJSON lines; recorded %d", len(lines), len(ex.NDJSON))
		}
		for i, l := range lines {
			if d := jsonDiff(ex.NDJSON[i], []byte(l)); d != "" {
				return fmt.Sprintf("NDJSON line %d (-recorded +sent):\n%s", i+1, d)
			}
		}
	case ex.Body != nil:
		if ct != "application/json" {
			return "Content-Type " + ct + "; want application/json"
		}
		if d := jsonDiff(ex.Body, body); d != "" {
			return "body (-recorded +sent):\n" + d
		}
	case len(body) > 0:
		return "unexpected body " + string(body)
	}
	return ""
}

// jsonDiff compares two JSON texts as values.
func jsonDiff(want, got []byte) string {
	var a, b any
	if err := json.Unmarshal(want, &a); err != nil {
		return "recorded: " + err.Error()
	}
	if err := json.Unmarshal(got, &b); err != nil {
		return "sent: " + err.Error() + ": " + string(got)
	}
	return cmp.Diff(a, b)
}

// record keeps the body sent as the expected one (-update).
func (r *replay) record(ex *exchange, req *http.Request, body []byte) {
	r.dump = true
	ex.Body, ex.NDJSON = nil, nil
	if len(body) == 0 {
		return
	}
	if req.Header.Get("Content-Type") == "application/x-ndjson" {
		for _, l := range strings.Split(strings.TrimSuffix(string(body), "\n"), "\n") {
			ex.NDJSON = append(ex.NDJSON, json.RawMessage(l))
		}
		return
	}
	ex.Body = json.RawMessage(body)
}

// finish fails the test if a recorded exchange was not requested, and
// rewrites the file under -update.
func (r *replay) finish() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.next < len(r.ex) {
		r.t.Errorf("%s: %d recorded requests not sent, the first: %s", r.file, len(r.ex)-r.next, r.ex[r.next].Req)
	}
	if !*update || !r.dump {
		return
	}
	out, err := json.MarshalIndent(r.ex, "", "  ")
	if err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(r.file, append(out, '\n'), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

// sent returns the body the store sent in exchange i (from 1), decoded, as
// recorded in the file (the test checked they are equal).
func (r *replay) sent(i int) map[string]any {
	r.t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.ex[i-1].Body, &m); err != nil {
		r.t.Fatalf("exchange %d: %v", i, err)
	}
	return m
}
