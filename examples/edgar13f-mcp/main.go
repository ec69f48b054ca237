// Command edgar13f-mcp is a Model Context Protocol server, over stdio, that
// answers point-in-time questions about SEC EDGAR with the edgar13f
// library: which 13F filings a manager had made by a date, what it held for
// a quarter as known on a date, how two quarters compare and who held a
// security; and for any company, its filings, annual financial facts and
// the Item sections of its 10-K and 10-Q reports. "edgar13f-mcp --help"
// lists the tools.
//
// It also indexes and searches the text of companies' 10-K and 10-Q
// reports, point in time (index_filings, search_filings, get_chunk).
//
// It is configured by the environment (SEC_USER_AGENT, EDGAR13F_CACHE_DIR,
// EDGAR13F_REDACT, EDGAR13F_AGENT_MODE, EDGAR13F_FIXTURE_DIR,
// EDGAR13F_BASE_URL, and for the filing search's embedder
// EDGAR13F_EMBED_URL, EDGAR13F_EMBED_MODEL, EDGAR13F_EMBED_API_KEY, and for
// ask_filings' language model ANTHROPIC_API_KEY, EDGAR13F_AGENT_MODEL,
// EDGAR13F_CHAT_URL, EDGAR13F_CHAT_API_KEY), and by the flags of the
// example programs' one settings table (--user-agent, --cache-dir,
// --no-redact, --fixture-dir, --base-url), which override their variables;
// see examples/README.md.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/agent/model"
	"github.com/edgar13f/edgar13f/examples/internal/wire"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr, os.Getenv)) }

// usage is the help text; the tools are listed from the server's own
// definitions, so that the help names every tool the server offers.
var usage = `edgar13f-mcp is a Model Context Protocol server answering questions about
SEC Form 13F holdings, and any company's filings, financial facts and report
sections, as EDGAR knew them on a date. An MCP client starts it and speaks
MCP over its standard input and output.

Usage:
  edgar13f-mcp [flags]      serve MCP over stdio
  edgar13f-mcp --help       show this help
  edgar13f-mcp --version    print the version

Tools:
` + toolList() + `
` + wire.SettingsHelp(wire.MCP)

// toolList returns one line per tool: its name and title.
func toolList() string {
	var b strings.Builder
	for _, t := range (&server{}).tools() {
		fmt.Fprintf(&b, "  %-21s %s\n", t.tool.Name, t.tool.Title)
	}
	fmt.Fprintf(&b, "  %-21s %s\n  %-21s (listed only when a model is configured: see below)\n", "ask_filings", askTitle, "")
	return b.String()
}

// run serves MCP over standard input and output with the settings of
// its flags and getenv, or answers --help and --version. It returns the
// exit code: 0, 1 for a broken session, 2 for bad arguments or settings.
func run(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	st, code := startServer(args, stdout, stderr, getenv)
	if st == nil {
		return code
	}
	defer st.close()
	return serve(st.srv, &transport{in: io.NopCloser(os.Stdin), out: stdout, log: stderr, answers: st.answers})
}

// A started server is ready to serve MCP.
type started struct {
	srv     *mcp.Server
	cfg     wire.Config
	answers *answers
	close   func() // releases what its tools opened
}

// startServer reads the arguments and settings and builds the server. It
// returns nil and the exit code when there is nothing to serve: 0 after
// --help and --version, 2 for bad arguments or a refused setting (the
// message on stderr, worded as by every example program).
func startServer(args []string, stdout, stderr io.Writer, getenv func(string) string) (*started, int) {
	fs := flag.NewFlagSet("edgar13f-mcp", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	showVersion := fs.Bool("version", false, "")
	settings := wire.RegisterFlags(fs, wire.MCP)
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(stdout, usage)
		return nil, 0
	case err == nil && fs.NArg() > 0:
		err = fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if err != nil {
		fmt.Fprintf(stderr, "edgar13f-mcp: %v\n\n%s", err, usage)
		return nil, 2
	}
	if *showVersion {
		fmt.Fprintf(stdout, "edgar13f-mcp %s\n", wire.Version)
		return nil, 0
	}
	// A refused setting (an embedder setting naming no embedder, a base
	// URL that is not one, ...) stops the server at once rather than
	// failing every call later.
	cfg, err := settings.Config(getenv)
	if err != nil {
		fmt.Fprintf(stderr, "edgar13f-mcp: %s\n", err)
		return nil, 2
	}
	// So does a model setting that names no usable model; none at all (or
	// a chat URL without a model name) only leaves ask_filings out.
	if _, err := model.New(cfg.Model); err != nil && !errors.Is(err, model.ErrNoModel) {
		fmt.Fprintf(stderr, "edgar13f-mcp: %v\n", err)
		return nil, 2
	}
	// Without a User-Agent the library accepts, the server starts anyway,
	// so that a client sees why every call that needs EDGAR fails.
	watch, err := wire.NewMirrorWatch(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "edgar13f-mcp: %s\n", cfg.Explain(err))
		return nil, 2
	}
	var extra []edgar13f.ClientOption
	if watch != nil {
		extra = append(extra, edgar13f.WithFetcher(watch))
	}
	c, uaErr, err := cfg.NewClient(extra...)
	if err != nil {
		fmt.Fprintf(stderr, "edgar13f-mcp: %s\n", cfg.Explain(err))
		return nil, 2
	}
	if uaErr != nil {
		fmt.Fprintf(stderr, "edgar13f-mcp: warning: %s; until then every tool call that needs EDGAR fails\n", cfg.Explain(uaErr))
	}
	ans := newAnswers()
	srv, closeServer := newServer(c, cfg, ans, watch, stderr)
	return &started{srv: srv, cfg: cfg, answers: ans, close: closeServer}, 0
}

// serve runs srv over t (standard input and output) until the input ends
// or a signal arrives.
func serve(srv *mcp.Server, t mcp.Transport) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, t) }()
	select {
	case err := <-done:
		if err != nil && ctx.Err() == nil && err != io.EOF {
			fmt.Fprintf(os.Stderr, "edgar13f-mcp: %v\n", err)
			return 1
		}
	case <-ctx.Done():
		// A signal: give a call in flight a moment to see its context end.
		select {
		case <-done:
		case <-time.After(2 * time.Second):
		}
	}
	return 0
}
