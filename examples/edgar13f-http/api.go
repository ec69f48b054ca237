package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/agent/model"
	"github.com/edgar13f/edgar13f/examples/internal/wire"
	"github.com/edgar13f/edgar13f/search"
)

// A param is one query parameter of an endpoint: the tool argument it
// becomes, and whether it is an integer.
type param struct {
	name, arg string
	integer   bool
	required  bool
}

// Query parameters of the GET endpoints, in the order messages list them.
var (
	companiesParams = []param{{name: "q", arg: "name", required: true}, {name: "limit", arg: "limit", integer: true}}
	searchParams    = []param{{name: "q", arg: "query", required: true}, {name: "as_of", arg: "as_of", required: true},
		{name: "ticker", arg: "ticker"}, {name: "cik", arg: "cik"}, {name: "form", arg: "form"}, {name: "item", arg: "item"},
		{name: "fiscal_year", arg: "fiscal_year", integer: true}, {name: "mode", arg: "mode"}, {name: "k", arg: "k", integer: true}}
	chunkParams = []param{{name: "as_of", arg: "as_of", required: true}, {name: "span", arg: "span", integer: true}}
)

// ServeHTTP routes a request to its endpoint.
func (a *api) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.inFlight.Add(1)
	defer a.inFlight.Add(-1)
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	r = r.WithContext(wire.Watch(r.Context()))
	path := r.URL.Path
	switch {
	case path == "/healthz":
		if a.method(w, r, http.MethodGet) {
			writeJSON(w, http.StatusOK, struct {
				Status  string `json:"status"`
				Version string `json:"version"`
				Model   bool   `json:"model"`
			}{"ok", wire.Version, a.model != nil})
		}
	case path == "/companies":
		if a.method(w, r, http.MethodGet) {
			raw, err := toolArgs(r.URL.Query(), path, companiesParams, nil)
			a.answer(w, r, "", func() (wire.Answer, error) {
				if err != nil {
					return nil, err
				}
				return wire.SearchCompany(r.Context(), a.companies, raw)
			})
		}
	case path == "/search":
		if a.method(w, r, http.MethodGet) {
			raw, err := toolArgs(r.URL.Query(), path, searchParams, nil)
			a.answer(w, r, wire.SearchDisclaimer, func() (wire.Answer, error) {
				if err != nil {
					return nil, err
				}
				return wire.SearchFilings(r.Context(), a.engine, raw)
			})
		}
	case strings.HasPrefix(path, "/chunk/") && path != "/chunk/" && !strings.Contains(path[len("/chunk/"):], "/"):
		if a.method(w, r, http.MethodGet) {
			id := path[len("/chunk/"):]
			raw, err := toolArgs(r.URL.Query(), "/chunk/{chunk_id}", chunkParams, map[string]any{"chunk_id": id})
			a.answer(w, r, wire.SearchDisclaimer, func() (wire.Answer, error) {
				if err != nil {
					return nil, err
				}
				return wire.GetChunk(r.Context(), a.engine, raw)
			})
		}
	case path == "/ask":
		if a.method(w, r, http.MethodPost) {
			a.ask(w, r)
		}
	default:
		writeError(w, http.StatusNotFound, fmt.Sprintf("no endpoint %s: the endpoints are GET /healthz, GET /companies, GET /search, GET /chunk/{chunk_id} and POST /ask", path))
	}
}

// method reports whether r uses want, answering 405 when it does not.
func (a *api) method(w http.ResponseWriter, r *http.Request, want string) bool {
	if r.Method == want {
		return true
	}
	w.Header().Set("Allow", want)
	writeError(w, http.StatusMethodNotAllowed, fmt.Sprintf("%s %s: method not allowed, use %s", r.Method, r.URL.Path, want))
	return false
}

// ask answers POST /ask: a body over maxBody is 413, no model 503, and
// the body is ask_filings' arguments.
func (a *api) ask(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if mbe := (*http.MaxBytesError)(nil); errors.As(err, &mbe) {
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the request body is over %d bytes", maxBody))
		return
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, "reading the request body: "+err.Error())
		return
	}
	if a.model == nil {
		writeError(w, http.StatusServiceUnavailable, a.noModel)
		return
	}
	a.answer(w, r, wire.AskDisclaimer, func() (wire.Answer, error) {
		return wire.AskFilings(r.Context(), a.c, a.companies, a.engine, a.model, body, nil)
	})
}

// toolArgs turns the query parameters q of endpoint into the arguments of
// its tool, a JSON object, with fixed (e.g. the chunk id of the path)
// added. An unknown, repeated, missing or non-integer parameter is an
// invalid_argument decline naming the parameter.
func toolArgs(q url.Values, endpoint string, params []param, fixed map[string]any) (json.RawMessage, error) {
	args := map[string]any{}
	for k, v := range fixed {
		args[k] = v
	}
	var names []string
	for _, p := range params {
		names = append(names, p.name)
	}
	for name, vs := range q {
		i := -1
		for j, p := range params {
			if p.name == name {
				i = j
			}
		}
		if i < 0 {
			return nil, invalid("unknown query parameter %q; %s takes %s", name, endpoint, strings.Join(names, ", "))
		}
		if len(vs) > 1 {
			return nil, invalid("query parameter %q is given %d times", name, len(vs))
		}
		p := params[i]
		if !p.integer {
			args[p.arg] = vs[0]
			continue
		}
		n, err := strconv.ParseInt(vs[0], 10, 64)
		if err != nil {
			return nil, invalid("query parameter %q must be an integer, not %q", name, vs[0])
		}
		args[p.arg] = n
	}
	for _, p := range params {
		if p.required && !q.Has(p.name) {
			return nil, invalid("query parameter %q is required; %s takes %s", p.name, endpoint, strings.Join(names, ", "))
		}
	}
	return json.Marshal(args)
}

func invalid(format string, args ...any) error {
	return edgar13f.Decline(edgar13f.InvalidArgument, format, args...)
}

// answer writes the answer of fn: 200 with the answer object, its decline
// object with 400 (invalid_argument) or 404 (any other reason), carrying
// disclaimer as the MCP tool's decline does, or a failure with 502 (EDGAR,
// the embedder or the model failed) or 500.
func (a *api) answer(w http.ResponseWriter, r *http.Request, disclaimer string, fn func() (wire.Answer, error)) {
	write, err := fn()
	var buf bytes.Buffer
	if err == nil {
		if err = write(&buf); err != nil {
			buf.Reset()
		}
	}
	if err == nil {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(buf.Bytes())
		return
	}
	if r.Context().Err() != nil {
		return // the client is gone
	}
	if d, ok := wire.AsDecline(err); ok {
		if lacks := a.watch.Lacks(r.Context(), d); lacks != nil && a.log != nil {
			// The MCP tool's decline goes to the client as it is; why it
			// was given goes to the log.
			fmt.Fprintf(a.log, "edgar13f-http: %s declined %s: %v\n", r.URL.Path, d.Reason, lacks)
		}
		status := http.StatusNotFound
		if d.Reason == edgar13f.InvalidArgument {
			status = http.StatusBadRequest
		}
		_ = wire.WriteDeclineWith(&buf, d, disclaimer)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write(buf.Bytes())
		return
	}
	writeError(w, failureStatus(err), a.cfg.Explain(err))
}

// failureStatus is 502 for a failure of a server behind the API (EDGAR,
// the embedder, the model), else 500.
func failureStatus(err error) int {
	var fe *edgar13f.FetchError
	var me *model.Error
	var ee *search.EmbedError
	if errors.As(err, &fe) || errors.As(err, &me) || errors.As(err, &ee) {
		return http.StatusBadGateway
	}
	return http.StatusInternalServerError
}

// writeError answers {"status":"error","message":message} with status.
func writeError(w http.ResponseWriter, status int, message string) {
	writeJSON(w, status, struct {
		Status  string `json:"status"`
		Message string `json:"message"`
	}{"error", message})
}

// writeJSON answers v as JSON with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"status":"error","message":"encoding the answer failed"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}
