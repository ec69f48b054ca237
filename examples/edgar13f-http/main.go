// Command edgar13f-http is a small HTTP JSON API over the edgar13f
// library's company search, filing search and question answering, point in
// time. It answers the same JSON objects as the MCP server's tools
// search_company, search_filings, get_chunk and ask_filings:
//
//	GET  /healthz
//	GET  /companies?q=NAME[&limit=N]
//	GET  /search?q=QUERY&as_of=YYYY-MM-DD[&ticker=&cik=&form=&item=&fiscal_year=&mode=&k=]
//	GET  /chunk/{chunk_id}?as_of=YYYY-MM-DD[&span=N]
//	POST /ask   {"question": "...", "as_of": "YYYY-MM-DD", "tickers": ["NVDA"]}
//
// It listens on 127.0.0.1:8801 unless --addr (EDGAR13F_HTTP_ADDR) says
// otherwise, and is configured like the CLI, by the example programs' one
// settings table (wire.Settings): cache, mirror, embedder, model. It
// searches the filings indexed beforehand, e.g. by "edgar13f index".
// SIGINT or SIGTERM stops it: it accepts no new connection, lets the
// requests in flight finish (for at most 30 seconds) and exits 0.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/agent/model"
	"github.com/edgar13f/edgar13f/companies"
	"github.com/edgar13f/edgar13f/examples/internal/wire"
	"github.com/edgar13f/edgar13f/search"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}

var usage = `edgar13f-http is an HTTP JSON API answering questions about companies' 10-K and
10-Q filings as EDGAR knew them on a date: company search, filing search,
chunks, and questions answered by a language model with grounded citations.
Its answers are the JSON objects of the MCP server's tools search_company,
search_filings, get_chunk and ask_filings.

Usage:
  edgar13f-http [flags]      serve HTTP on --addr (default ` + wire.DefaultAddr + `)
  edgar13f-http --help       show this help
  edgar13f-http --version    print the version

Endpoints:
  GET  /healthz
  GET  /companies?q=NAME[&limit=N]
  GET  /search?q=QUERY&as_of=YYYY-MM-DD[&ticker=&cik=&form=&item=&fiscal_year=&mode=bm25|knn|hybrid&k=N]
  GET  /chunk/{chunk_id}?as_of=YYYY-MM-DD[&span=N]
  POST /ask  {"question": "...", "as_of": "YYYY-MM-DD", "tickers": ["NVDA"]}   (needs a model)

  200 answer; 400 declined invalid_argument (a bad or unknown parameter);
  404 declined for another reason (e.g. not_yet_filed, unknown_chunk) or no such path;
  405 wrong method; 413 body over 64 KB; 503 /ask without a model;
  500 or 502 (EDGAR, the embedder or the model failed) {"status":"error","message":...}.

Examples (offline, over the repository's EDGAR mirror):
  D=$(mktemp -d)
  edgar13f index AAPL NVDA --form 10-K --as-of 2025-03-01 --fixture-dir testdata/mirror --cache-dir $D
  edgar13f-http --fixture-dir testdata/mirror --cache-dir $D &
  curl 'http://127.0.0.1:8801/companies?q=nvidia&limit=2'
  curl 'http://127.0.0.1:8801/search?q=export+controls+China&as_of=2025-03-01&ticker=NVDA&k=3'
  curl 'http://127.0.0.1:8801/chunk/CHUNK_ID?as_of=2025-03-01&span=1'
  curl -X POST http://127.0.0.1:8801/ask -d '{"question":"What was NVIDIA revenue in fiscal 2025?","as_of":"2025-03-01","tickers":["NVDA"]}'

SIGINT or SIGTERM: stop accepting connections, finish the requests in flight
(at most ` + shutdownGrace.String() + `), exit 0. Exit codes: 0, 1 failure (e.g. the address is in use),
2 usage error or refused setting.

` + wire.SettingsHelp(wire.HTTP)

// shutdownGrace bounds how long the requests in flight may run on after
// a signal.
const shutdownGrace = 30 * time.Second

// maxBody is the largest request body accepted (413 beyond).
const maxBody = 64 << 10

// run serves the API until ctx ends, or answers --help and --version. It
// returns the exit code: 0, 1 for a failure, 2 for bad arguments or a
// refused setting.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	a, code := start(args, stdout, stderr, getenv)
	if a == nil {
		return code
	}
	defer a.close()
	ln, err := net.Listen("tcp", a.cfg.Addr)
	if err != nil {
		fmt.Fprintf(stderr, "edgar13f-http: %s: %v\n", wire.LabelOf("EDGAR13F_HTTP_ADDR"), err)
		return 1
	}
	return a.serve(ctx, ln, stderr)
}

// An api answers the HTTP requests with one edgar13f Client.
type api struct {
	cfg     wire.Config
	c       *edgar13f.Client
	model   model.Model // nil when none is configured
	noModel string      // then: what to set

	// companies answers /companies through c: one for every request, so
	// that its copy of the ticker list serves them all (see useClient).
	companies *companies.Companies

	once    sync.Once // opens the filing search on first use
	search  *wire.Search
	openErr error

	inFlight atomic.Int64

	// watch reads the fixture directory (nil without one); a decline
	// that is in truth the tree lacking the company is said so on log
	// (standard error), the answer staying the MCP tool's.
	watch *wire.MirrorWatch
	log   io.Writer
}

// start reads the arguments and settings and builds the API. It returns
// nil and the exit code when there is nothing to serve: 0 after --help
// and --version, 2 for bad arguments or a refused setting (the message on
// stderr, worded as by every example program).
func start(args []string, stdout, stderr io.Writer, getenv func(string) string) (*api, int) {
	fs := flag.NewFlagSet("edgar13f-http", flag.ContinueOnError)
	var parseOut strings.Builder
	fs.SetOutput(&parseOut)
	showVersion := fs.Bool("version", false, "print the version")
	settings := wire.RegisterFlags(fs, wire.HTTP)
	fs.Usage = func() { fmt.Fprint(fs.Output(), usage) }
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(stdout, parseOut.String())
		return nil, 0
	case err == nil && fs.NArg() > 0:
		err = fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if err != nil {
		fmt.Fprintf(stderr, "edgar13f-http: %v\nRun \"edgar13f-http --help\" for usage.\n", err)
		return nil, 2
	}
	if *showVersion {
		fmt.Fprintf(stdout, "edgar13f-http %s\n", wire.Version)
		return nil, 0
	}
	cfg, err := settings.Config(getenv)
	if err != nil {
		fmt.Fprintf(stderr, "edgar13f-http: %s\n", err)
		return nil, 2
	}
	cfg.Names = wire.Names{UserAgent: "--user-agent or SEC_USER_AGENT"}
	a := &api{cfg: cfg}
	// No model only makes /ask answer 503 saying what to set; a model
	// setting that is wrong otherwise stops the server, as it stops the
	// MCP server.
	a.model, err = model.New(cfg.Model)
	switch {
	case errors.Is(err, model.ErrNoModel):
		a.noModel = strings.TrimPrefix(err.Error(), "agent: ")
	case err != nil:
		fmt.Fprintf(stderr, "edgar13f-http: %v\n", err)
		return nil, 2
	}
	// Without a User-Agent the library accepts, the server starts anyway:
	// the company and filing searches read the local store and the cache,
	// and what needs EDGAR fails saying what to set.
	if a.watch, err = wire.NewMirrorWatch(cfg); err != nil {
		fmt.Fprintf(stderr, "edgar13f-http: %s\n", cfg.Explain(err))
		return nil, 2
	}
	var extra []edgar13f.ClientOption
	if a.watch != nil {
		extra = append(extra, edgar13f.WithFetcher(a.watch))
	}
	a.log = stderr
	c, uaErr, err := cfg.NewClient(extra...)
	if err != nil {
		fmt.Fprintf(stderr, "edgar13f-http: %s\n", cfg.Explain(err))
		return nil, 2
	}
	if uaErr != nil {
		fmt.Fprintf(stderr, "edgar13f-http: warning: %s; until then every request that needs EDGAR fails\n", cfg.Explain(uaErr))
	}
	a.useClient(c)
	return a, 0
}

// useClient makes c the Client of every request, with the company data
// questions read through it.
func (a *api) useClient(c *edgar13f.Client) {
	a.c = c
	a.companies = companies.New(c)
}

// engine returns the filing search, opening its store on first use.
func (a *api) engine() (*search.Engine, error) {
	a.once.Do(func() { a.search, a.openErr = wire.OpenSearch(a.c, a.cfg) })
	if a.openErr != nil {
		return nil, a.openErr
	}
	return a.search.Engine, nil
}

// close closes the filing search's store, if it was opened.
func (a *api) close() {
	a.once.Do(func() {})
	if a.search != nil {
		_ = a.search.Close()
	}
}

// serve answers the requests of ln until ctx ends, then stops accepting
// connections and lets the requests in flight finish, for at most
// shutdownGrace. It returns the exit code.
func (a *api) serve(ctx context.Context, ln net.Listener, log io.Writer) int {
	srv := &http.Server{Handler: a, ReadHeaderTimeout: 30 * time.Second}
	// Called once the listener is closed.
	srv.RegisterOnShutdown(func() {
		fmt.Fprintf(log, "edgar13f-http: shutting down: accepting no new connections, finishing %d requests in flight\n", a.inFlight.Load())
	})
	fmt.Fprintf(log, "edgar13f-http: listening on http://%s\n", ln.Addr())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		fmt.Fprintf(log, "edgar13f-http: %v\n", err)
		return 1
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		fmt.Fprintf(log, "edgar13f-http: requests still running after %v were cut off\n", shutdownGrace)
		_ = srv.Close()
	}
	<-served
	fmt.Fprintln(log, "edgar13f-http: stopped")
	return 0
}
