// Command edgar13f answers point-in-time questions about SEC EDGAR filings
// from the command line: which 13F filings a manager had made by a date,
// what it held for a quarter as known on a date, how two quarters compare,
// and which CIK a name belongs to; for any company, its filings of any
// form, its annual financial facts as known on a date, and the Item
// sections of its 10-K and 10-Q reports; a search over the text of
// those reports, point in time; and questions about them answered by a
// language model, every figure checked against the text it cites.
//
//	edgar13f find berkshire hathaway
//	edgar13f holdings 1067983 --period 2023-09-30 --as-of 2024-05-15 --top 10
//	edgar13f facts 320193 revenue --as-of 2010-01-25
//	edgar13f index AAPL NVDA --as-of 2025-03-01
//	edgar13f search export controls China --as-of 2025-03-01
//	edgar13f ask "What was NVIDIA's revenue for fiscal 2025?" --as-of 2025-03-01 --ticker NVDA
//	edgar13f ask-eval agent/testdata/questions.json --dry-run
//
// Exit codes: 0 answer, 1 failure (EDGAR unreachable, no User-Agent, ...),
// 2 usage error, 3 declined (the answer is a decline; its reason is
// printed), or for ask a question not answered with every figure grounded,
// 130 interrupted (SIGINT, Ctrl-C), 143 terminated (SIGTERM).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/companies"
	"github.com/edgar13f/edgar13f/datasets"
	"github.com/edgar13f/edgar13f/examples/internal/wire"
	"github.com/edgar13f/edgar13f/search"
)

// Exit codes.
const (
	exitOK       = 0
	exitFailure  = 1
	exitUsage    = 2
	exitDeclined = 3
)

func main() {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	var got atomic.Value // the signal received
	go func() {
		sig := <-sigs
		got.Store(sig)
		cancel(interrupted{sig})
		// A second signal ends at once what the first could not (a
		// question waiting on standard input, say).
		os.Exit(exitSignal(<-sigs))
	}()
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Getenv)
	signal.Stop(sigs)
	if sig, ok := got.Load().(os.Signal); ok {
		code = exitSignal(sig)
	}
	os.Exit(code)
}

// interrupted is the cause of a command stopped by a signal.
type interrupted struct{ sig os.Signal }

func (i interrupted) Error() string { return "interrupted (" + i.sig.String() + ")" }

// exitSignal is the exit code of a command stopped by sig: 128 plus the
// signal's number, as a shell reports it (130 for SIGINT, 143 for SIGTERM).
func exitSignal(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return exitFailure
}

var usage = `edgar13f answers questions about SEC EDGAR filings as EDGAR knew them on a date.

Usage:
  edgar13f find NAME...        find a 13F manager's CIK by name
  edgar13f 13f-filings CIK     list the 13F filings made by --as-of
  edgar13f holdings CIK        13F holdings for --period as known on --as-of
  edgar13f diff CIK            compare --period-a with --period-b as known on --as-of
  edgar13f holders CUSIP       every manager holding a security for --period (Form 13F Data Sets)
  edgar13f panel               every manager's holdings for --period (table, json, csv, parquet)
  edgar13f datasets sync       import Form 13F Data Sets windows from --from
  edgar13f frame CONCEPT PERIOD
                               one XBRL fact for every company at once, as known on --as-of
  edgar13f frames sync         import XBRL company facts (companyfacts.zip, or --companies)

  edgar13f company NAME...     find a company's CIK by name or ticker
  edgar13f filings CIK         list filings of any form made by --as-of
  edgar13f facts CIK CONCEPT   annual financial facts as known on --as-of
  edgar13f section CIK ACCESSION ITEM
                               one Item of a 10-K or 10-Q filed by --as-of

  edgar13f index TICKER|CIK... index companies' 10-K (and 10-Q) text for search, as of --as-of
  edgar13f search QUERY...     search the indexed filings made by --as-of
  edgar13f chunk CHUNK_ID      one chunk of an indexed filing, with its neighbours
  edgar13f eval QUERY_FILE     hit@1, hit@5 and MRR@10 of the search on a labelled query file

  edgar13f ask QUESTION...     a language model answers from the indexed filings as of --as-of,
                               every figure checked against what it cites
  edgar13f ask-eval QUESTIONS.json
                               the agent's grounding evaluation; --dry-run: its plans, no model

Run "edgar13f COMMAND --help" for a command's flags and examples,
"edgar13f --version" for the version.
Exit codes: 0 answer, 1 failure, 2 usage error, 3 declined,
130 interrupted (SIGINT, Ctrl-C), 143 terminated (SIGTERM).

The filing search keeps its index under the cache directory. Its embedder
(for the knn and hybrid modes) and the agent's language model (ask,
ask-eval) come from the environment.

` + wire.SettingsHelp(wire.CLI)

// command is one subcommand's flags and work.
type command struct {
	name, args, about, examples string
	positional                  int      // required positional arguments; -1 for one or more
	required                    []string // required flags
	disclaimer                  *string  // carried by a JSON decline; nil means the 13F one
	search                      bool     // uses the filing search (its store and embedder)
	offline                     bool     // reads only the filing search's store: needs no User-Agent
	tableDefault                bool     // prints a table also when standard output is not a terminal
	flags                       func(*flag.FlagSet, *opts)
	run                         func(ctx context.Context, c *edgar13f.Client, o *opts, args []string) (result, error)
}

// opts are the flags of every subcommand.
type opts struct {
	asOf, period, periodA, periodB string
	issuer, format                 string
	settings                       *wire.Flags // the settings flags of wire.Settings
	cfg                            wire.Config // the settings resolved from flags and environment
	fixture                        string      // cfg.FixtureDir
	cusips                         cusipList
	top, limit, years, maxChars    int
	form                           string
	showProgress                   bool
	yes                            bool              // holders, panel, datasets sync: import windows without asking
	from, to                       string            // datasets sync
	unit, order                    string            // frame
	companies                      cusipList         // frames sync --companies
	forms                          cusipList         // index --form
	filingsN, k, span, fiscalYear  int               // index, search, chunk
	ticker, cik, item, mode, modes string            // search, eval
	reindex                        bool              // index
	ask                            askOpts           // ask, ask-eval (ask.go)
	set                            map[string]bool   // the flags given
	progress                       *progress         // on stderr: on a terminal, or with --progress; else nil
	watch                          *wire.MirrorWatch // the --fixture-dir tree's reader, noting the files it lacks; nil for none

	// The date flags, parsed by checkUsage; asOfDate is today without --as-of.
	asOfDate, periodDate, periodADate, periodBDate edgar13f.Date
}

// names are the CLI's words for the User-Agent in messages.
var names = wire.Names{UserAgent: "--user-agent or SEC_USER_AGENT"}

// config returns the settings of o, resolved by resolveSettings.
func (o *opts) config() wire.Config { return o.cfg }

// resolveSettings reads the settings of wire.Settings from the flags given
// and the environment (a flag overrides its variable) and checks them.
func (o *opts) resolveSettings(getenv func(string) string) error {
	cfg, err := o.settings.Config(getenv)
	cfg.Names = names
	o.cfg, o.fixture = cfg, cfg.FixtureDir
	if err == nil && configured != nil {
		configured(cfg)
	}
	return err
}

// configured, when not nil, is told the settings of a command that passed
// their checks (for the tests of the settings table).
var configured func(wire.Config)

// cusipList collects the values of a list flag (--cusip, --form).
type cusipList []string

// listFlag is a list flag: each one value or a comma-separated list; what
// names a value in messages ("CUSIP", "form").
type listFlag struct {
	list *cusipList
	what string
}

func (l listFlag) String() string {
	if l.list == nil {
		return ""
	}
	return strings.Join(*l.list, ",")
}

func (l listFlag) Set(s string) error {
	for _, c := range strings.Split(s, ",") {
		c = strings.TrimSpace(c)
		if c == "" {
			return fmt.Errorf("empty %s: give one or more, separated by commas", l.what)
		}
		*l.list = append(*l.list, c)
	}
	return nil
}

// commonFlags registers the flags cmd has of those every command may
// have: --as-of, --format and the CLI's settings of wire.Settings, but
// those of notUsed.
func commonFlags(fs *flag.FlagSet, o *opts, cmd *command) {
	skip := slices.Collect(maps.Keys(notUsed[cmd.name]))
	if !slices.Contains(skip, "as-of") {
		asOf := "knowledge date YYYY-MM-DD: only filings made on or before it count (default today)"
		if slices.Contains(cmd.required, "as-of") {
			asOf = "knowledge date YYYY-MM-DD: only filings made on or before it count (required)"
		}
		fs.StringVar(&o.asOf, "as-of", "", asOf)
	}
	if !slices.Contains(skip, "format") {
		fs.StringVar(&o.format, "format", "", formatUsage(cmd))
	}
	o.settings = wire.RegisterFlags(fs, wire.CLI, skip...)
}

// formatsOf returns the output formats cmd writes: its help lists them
// and checkUsage refuses the others.
func formatsOf(cmd *command) []string {
	switch cmd.name {
	case "panel", "frame":
		return []string{"table", "json", "csv", "parquet"}
	case "ask", "ask-eval":
		return []string{"table", "json"}
	}
	return []string{"table", "json", "csv"}
}

// formatUsage is the help of cmd's --format: the formats it writes and
// its default.
func formatUsage(cmd *command) string {
	all := formatsOf(cmd)
	formats := strings.Join(all[:len(all)-1], ", ") + " or " + all[len(all)-1]
	if cmd.tableDefault {
		return "output: " + formats + " (default table)"
	}
	return "output: " + formats + " (default table on a terminal, else json)"
}

func filterFlags(fs *flag.FlagSet, o *opts) {
	fs.Var(listFlag{&o.cusips, "CUSIP"}, "cusip", "keep only this CUSIP (repeat, or separate with commas)")
	fs.StringVar(&o.issuer, "issuer", "", "keep rows whose issuer name contains this text")
	fs.IntVar(&o.top, "top", 0, "keep the N largest positions (1-200)")
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		w := stderr
		if len(args) > 0 {
			w = stdout
		}
		fmt.Fprint(w, usage)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	if args[0] == "--version" || args[0] == "-version" {
		fmt.Fprintf(stdout, "edgar13f %s\n", wire.Version)
		return exitOK
	}
	var cmd *command
	for i := range commands {
		if commands[i].name == args[0] {
			cmd = &commands[i]
		}
	}
	if cmd == nil {
		fmt.Fprintf(stderr, "edgar13f: unknown command %q\n\n%s", args[0], usage)
		return exitUsage
	}
	var o opts
	fs := flagSet(cmd, &o)
	var parseOut strings.Builder
	fs.SetOutput(&parseOut)
	fs.Usage = func() {
		line := strings.Join(strings.Fields("edgar13f "+cmd.name+" "+cmd.args+" [flags]"), " ")
		fmt.Fprintf(fs.Output(), "Usage: %s\n\n%s\n\nExamples:\n%s\nFlags:\n", line, cmd.about, cmd.examples)
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args[1:])
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, parseOut.String())
		return exitOK
	}
	if err != nil {
		err = notUsedError(cmd, err)
	}
	if err == nil {
		o.set = map[string]bool{}
		fs.Visit(func(f *flag.Flag) { o.set[f.Name] = true })
		err = checkFlags(cmd, fs)
	}
	if err == nil {
		err = o.resolveSettings(getenv)
	}
	if err == nil {
		err = checkUsage(cmd, &o, pos)
	}
	usageError := func(err error) int {
		fmt.Fprintf(stderr, "edgar13f %s: %v\nRun \"edgar13f %s --help\" for usage.\n", cmd.name, err, cmd.name)
		return exitUsage
	}
	if err != nil {
		return usageError(err)
	}
	table := o.format == "table" || o.format == "" && (isTerminal(stdout) || cmd.tableDefault)
	if isTerminal(stderr) || o.showProgress {
		o.progress = newProgress(stderr, isTerminal(stderr))
	}
	if o.format == "parquet" && isTerminal(stdout) {
		return usageError(errors.New("--format parquet writes a binary file: redirect standard output to a file"))
	}
	if o.fixture != "" && !streamsDatasets[cmd.name] {
		if o.watch, err = wire.NewMirrorWatch(o.config()); err != nil {
			return usageError(err)
		}
	}
	c, err := newClient(&o, cmd.offline)
	if err != nil {
		fmt.Fprintf(stderr, "edgar13f: %s\n", o.config().Explain(err))
		return exitFailure
	}
	ctx = wire.Watch(ctx)
	res, err := cmd.run(ctx, c, &o, pos)
	if d, ok := wire.AsDecline(err); ok {
		if lacks := o.watch.Lacks(ctx, d); lacks != nil {
			err = lacks // a failure of the mirror, not EDGAR's answer
		}
	}
	if d, ok := wire.AsDecline(err); ok && d.Reason == edgar13f.InvalidArgument {
		// A malformed CIK, CUSIP or filter value: what the user typed.
		return usageError(errors.New(d.Message))
	} else if ok {
		if o.format == "json" || !table && o.format == "" {
			disclaimer := wire.Disclaimer
			if cmd.disclaimer != nil {
				disclaimer = *cmd.disclaimer
			}
			_ = wire.WriteDeclineWith(stdout, d, disclaimer)
		}
		fmt.Fprintf(stderr, "edgar13f: declined (%s): %s\n", d.Reason, d.Message)
		return exitDeclined
	}
	if err == nil {
		switch pq, ok := res.(interface{ parquet(io.Writer) error }); {
		case o.format == "parquet" && ok:
			err = pq.parquet(stdout)
		case table:
			err = res.table(stdout)
		case o.format == "csv":
			err = res.csv(stdout)
		default:
			err = res.json(stdout)
		}
	}
	if err != nil {
		if cause := context.Cause(ctx); cause != nil && ctx.Err() != nil {
			err = cause // the signal, not the "context canceled" it became
		}
		fmt.Fprintf(stderr, "edgar13f: %s\n", o.config().Explain(err))
		return exitFailure
	}
	if x, ok := res.(interface{ exitCode() int }); ok {
		return x.exitCode() // ask: 3 for a question not answered
	}
	return exitOK
}

// notUsed are the common flags a command does not read, each with why:
// they are not its flags, its help does not list them, and giving one is
// a usage error saying why. --no-redact is for the commands whose answers
// are 13F information-table rows (holdings, diff, holders, panel,
// datasets sync), the only rows redaction removes.
var notUsed = map[string]map[string]string{
	"company":     {"as-of": "names and tickers are EDGAR's current ones, not as of any date", "no-redact": noRows},
	"datasets":    {"as-of": "--from and --to say what to import"},
	"frame":       {"no-redact": noRows},
	"frames":      {"as-of": "an import holds every filing date", "no-redact": noRows},
	"find":        {"no-redact": noRows},
	"13f-filings": {"no-redact": noRows},
	"filings":     {"no-redact": noRows},
	"facts":       {"no-redact": noRows},
	"section":     {"no-redact": noRows},
	"index":       {"no-redact": noRows},
	"search":      {"no-redact": noRows},
	"chunk":       {"no-redact": noRows},
	"eval":        {"no-redact": noRows},
	"ask":         {"no-redact": noRows},
	"ask-eval":    {"as-of": "each question is asked as of its own as_of", "no-redact": noRows},
}

// noRows is why --no-redact does not apply to a command.
const noRows = "redaction removes only 13F information-table rows, and this command answers with none"

// notUsedError explains the error of a flag that cmd does not take, if it
// is one of notUsed; otherwise it returns err.
func notUsedError(cmd *command, err error) error {
	name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -")
	if !ok {
		return err
	}
	if why, ok := notUsed[cmd.name][strings.TrimPrefix(name, "-")]; ok {
		return fmt.Errorf("--%s does not apply: %s", strings.TrimPrefix(name, "-"), why)
	}
	return err
}

// flagSet returns the flags of cmd, writing into o: the common flags it
// reads, then its own.
func flagSet(cmd *command, o *opts) *flag.FlagSet {
	fs := flag.NewFlagSet("edgar13f "+cmd.name, flag.ContinueOnError)
	commonFlags(fs, o, cmd)
	if cmd.flags != nil {
		cmd.flags(fs, o)
	}
	return fs
}

// parseInterspersed parses flags that may come before, between or after
// positional arguments, and returns the positional ones.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos, args = append(pos, args[0]), args[1:]
	}
}

// flagRanges are the limits of each command's number flags: the library's
// limits, checked here so that a message names the flag, not the Go option
// it becomes.
var flagRanges = map[string]map[string][2]int{
	"find":     {"limit": {1, edgar13f.MaxManagers}},
	"holdings": {"top": {1, edgar13f.MaxPositions}},
	"diff":     {"top": {1, edgar13f.MaxPositions}},
	"holders":  {"max": {1, datasets.MaxHolders}},
	"company":  {"limit": {1, companies.MaxMatches}},
	"filings":  {"limit": {1, companies.MaxFilings}},
	"facts":    {"years": {1, companies.MaxFactYears}},
	"section":  {"max-chars": {1, companies.MaxSectionChars}},
	"index":    {"filings": {1, search.MaxFilings}},
	"search":   {"k": {1, search.MaxHits}},
	"chunk":    {"span": {0, search.MaxSpan}},
}

// checkFlags refuses a flag given an empty value (as the MCP server
// refuses an empty string: --as-of "" is not "today") and a number flag
// outside its limits.
func checkFlags(cmd *command, fs *flag.FlagSet) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		if err != nil {
			return
		}
		v := f.Value.String()
		if strings.TrimSpace(v) == "" {
			err = fmt.Errorf("--%s is empty: give a value or leave the flag out", f.Name)
			return
		}
		if r, ok := flagRanges[cmd.name][f.Name]; ok {
			if n, _ := strconv.Atoi(v); n < r[0] || n > r[1] {
				err = fmt.Errorf("--%s must be %d to %d, not %s", f.Name, r[0], r[1], v)
			}
		}
	})
	return err
}

func checkUsage(cmd *command, o *opts, pos []string) error {
	switch {
	case cmd.positional < 0 && len(pos) == 0, cmd.positional >= 0 && len(pos) != cmd.positional:
		return arityError(cmd, pos)
	case missingFlag(o, cmd.required) != "":
		return fmt.Errorf("missing --%s", missingFlag(o, cmd.required))
	case o.format == "parquet" && !slices.Contains(formatsOf(cmd), "parquet"):
		return errors.New("--format parquet is for panel and frame only")
	case o.format == "csv" && !slices.Contains(formatsOf(cmd), "csv"):
		return fmt.Errorf("%s writes a table or json, not csv", cmd.name)
	case o.format != "" && o.format != "table" && o.format != "json" && o.format != "csv" && o.format != "parquet":
		return fmt.Errorf("--format must be table, json or csv, not %q", o.format)
	}
	return o.parseDates()
}

// arityError says what cmd takes and what it was given.
func arityError(cmd *command, pos []string) error {
	takes := "no arguments"
	switch {
	case cmd.positional < 0:
		takes = "one or more arguments, " + cmd.args
	case cmd.positional == 1:
		takes = "1 argument, " + cmd.args
	case cmd.positional > 1:
		takes = fmt.Sprintf("%d arguments, %s", cmd.positional, cmd.args)
	}
	if len(pos) == 0 {
		return fmt.Errorf("%s takes %s; got none", cmd.name, takes)
	}
	return fmt.Errorf("%s takes %s; got %d: %s", cmd.name, takes, len(pos), strings.Join(pos, " "))
}

// parseDates parses the date flags given; --as-of defaults to today.
func (o *opts) parseDates() error {
	for _, d := range []struct {
		flag, text string
		date       *edgar13f.Date
	}{{"as-of", o.asOf, &o.asOfDate}, {"period", o.period, &o.periodDate}, {"period-a", o.periodA, &o.periodADate}, {"period-b", o.periodB, &o.periodBDate}} {
		if d.text == "" {
			continue
		}
		v, err := edgar13f.ParseDate(d.text)
		if err != nil {
			return fmt.Errorf("--%s must be a date YYYY-MM-DD, not %q", d.flag, d.text)
		}
		*d.date = v
	}
	if o.asOf == "" {
		o.asOfDate = edgar13f.DateOf(time.Now())
	}
	return nil
}

func missingFlag(o *opts, names []string) string {
	for _, n := range names {
		v := map[string]string{"period": o.period, "period-a": o.periodA, "period-b": o.periodB, "as-of": o.asOf}[n]
		if v == "" {
			return n
		}
	}
	return ""
}

// streamsDatasets are the commands that import the Form 13F Data Sets:
// they read a mirror tree through the library's own fetcher, which
// streams its large files.
var streamsDatasets = map[string]bool{"holders": true, "panel": true, "datasets": true}

// newClient returns the Client of o's settings. Without a User-Agent the
// library accepts it is a Client whose every request fails saying so, so
// that the arguments are checked first (a usage error exits 2, not 1). An
// offline command (one reading only the filing search's store) gets, when
// no User-Agent is set, a Client that sends nothing and would fail any
// request.
func newClient(o *opts, offline bool) (*edgar13f.Client, error) {
	if offline && o.config().NoUserAgent() {
		copts, err := o.config().ClientOptions()
		if err != nil {
			return nil, err
		}
		return edgar13f.NewClient(append(copts, edgar13f.WithFetcher(offlineFetcher{}))...)
	}
	var extra []edgar13f.ClientOption
	if o.watch != nil {
		extra = append(extra, edgar13f.WithFetcher(o.watch))
	}
	if o.progress != nil && o.fixture == "" {
		extra = append(extra, edgar13f.WithHTTPClient(&http.Client{Timeout: 2 * time.Minute, Transport: progressTransport{o.progress}}))
	}
	c, _, err := o.config().NewClient(extra...)
	return c, err
}

// progressTransport notes each EDGAR request (a cache miss) on the
// progress report.
type progressTransport struct{ p *progress }

func (p progressTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	p.p.show("fetch", "fetching "+r.URL.String(), false)
	resp, err := http.DefaultTransport.RoundTrip(r)
	p.p.clear()
	return resp, err
}

// isTerminal reports whether w is a terminal: a file such as /dev/null is
// a character device but no terminal.
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	return ok && terminalFD(f.Fd())
}
