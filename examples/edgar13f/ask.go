package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/agent"
	"github.com/edgar13f/edgar13f/agent/model"
	"github.com/edgar13f/edgar13f/examples/internal/wire"
)

// This file holds the agent commands: ask, a question answered by a
// language model over the filing search and the company data with every
// figure checked against what it cites, and ask-eval, the grounding
// evaluation of a question file, or its dry run without a model.

// askOpts are the flags and settings of ask and ask-eval.
type askOpts struct {
	tickers cusipList // ask --ticker
	dryRun  bool      // ask-eval --dry-run
}

var askDisclaimer = wire.AskDisclaimer

func init() { commands = append(commands, askCommands...) }

var askCommands = []command{
	{
		name: "ask", args: "QUESTION...", positional: -1, required: []string{"as-of"}, disclaimer: &askDisclaimer, search: true,
		about: "Answer a question about companies' 10-K and 10-Q reports as it could have been answered on\n" +
			"--as-of (required): a language model searches the indexed filings, reads chunks and XBRL\n" +
			"facts, every tool bound to --as-of, and answers citing them. The companies of --ticker have\n" +
			"their newest 10-K filed by --as-of indexed first, and the search is limited to them. Each\n" +
			"tool call is shown on stderr (tool, company, query) as it runs. Every figure of the answer\n" +
			"is checked against the sources it cites: exit 0 when it is answered with all of them\n" +
			"grounded, 3 when it is not (ungrounded, turn limit, refusal) or declined; the answer,\n" +
			"its citations (chunk id, accession, Item, URL) and the grounding verdict are printed as\n" +
			"a table, or with --format json as the MCP tool ask_filings answers. The model comes from\n" +
			"the environment:\n" + wire.ModelHelp(),
		examples: "  edgar13f ask \"What was NVIDIA's revenue for fiscal 2025?\" --as-of 2025-03-01 --ticker NVDA\n" +
			"  edgar13f ask How much did Tesla earn from regulatory credits in 2024 --as-of 2025-02-15 --ticker TSLA --format json\n" +
			"  EDGAR13F_CHAT_URL=http://localhost:11434/v1 EDGAR13F_AGENT_MODEL=qwen3 edgar13f ask ... --as-of 2025-03-01\n",
		flags: func(fs *flag.FlagSet, o *opts) {
			fs.Var(listFlag{&o.ask.tickers, "ticker"}, "ticker", "a company the question is about, by ticker or CIK (repeat, or separate with commas)")
			fs.BoolVar(&o.showProgress, "progress", true, "show each tool call on stderr")
		},
		run: runAsk,
	},
	{
		name: "ask-eval", args: "QUESTIONS.json", positional: 1, disclaimer: &askDisclaimer, search: true, tableDefault: true,
		about: "Evaluate the agent on a question file (a JSON array of questions, each with its as_of,\n" +
			"tickers, the figures a good answer holds and the figures of later filings it must not;\n" +
			"agent/testdata/questions.json holds ten). With a model: each question is asked and the\n" +
			"report gives the grounded rate, the expected figures found, citations and tool calls per\n" +
			"answer, latency and tokens. With --dry-run no model is needed: each question's oracle\n" +
			"plan (its tool calls) is replayed through the same tools, bound to its as_of, and the\n" +
			"report says per question whether each expected figure is in a tool output, whether the\n" +
			"reference answer passes the grounding check and whether a later figure leaked; exit 3\n" +
			"when a question fails. Both read the filing search's store: index the questions'\n" +
			"reports first.",
		examples: "  edgar13f index AAPL NVDA TSLA JNJ WMT --form 10-K,10-Q --as-of 2025-09-01 --fixture-dir testdata/mirror\n" +
			"  edgar13f ask-eval agent/testdata/questions.json --dry-run --fixture-dir testdata/mirror\n" +
			"  ANTHROPIC_API_KEY=... edgar13f ask-eval agent/testdata/questions.json --fixture-dir testdata/mirror\n",
		flags: func(fs *flag.FlagSet, o *opts) {
			fs.BoolVar(&o.ask.dryRun, "dry-run", false, "replay each question's plan through the tools, with no model")
			fs.BoolVar(&o.showProgress, "progress", false, "show each tool call of the model on stderr even when it is not a terminal")
		},
		run: runAskEval,
	},
}

// model returns the model the environment names. None is a usage error
// saying what to set.
func (o *opts) model() (model.Model, error) {
	m, err := model.New(o.cfg.Model)
	if errors.Is(err, model.ErrNoModel) {
		return nil, usagef("%s", strings.TrimPrefix(err.Error(), "agent: "))
	}
	if err != nil {
		return nil, usagef("the agent's model: %s", strings.TrimPrefix(err.Error(), "agent: "))
	}
	return m, nil
}

func runAsk(ctx context.Context, c *edgar13f.Client, o *opts, args []string) (result, error) {
	model, err := o.model()
	if err != nil {
		return nil, err
	}
	s, err := openSearch(c, o)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	var progress func(int, string)
	if o.progress != nil {
		progress = func(step int, line string) { o.progress.println(fmt.Sprintf("[%d] %s", step, line)) }
	}
	res, err := wire.Ask(ctx, c, nil, s.Engine, model, strings.Join(args, " "), o.asOfDate, o.ask.tickers, progress)
	if err != nil {
		return nil, err
	}
	return askResult{res}, nil
}

// askResult is the answer of ask.
type askResult struct{ r *agent.Result }

func (r askResult) json(w io.Writer) error { return wire.WriteAsk(w, r.r) }

func (r askResult) csv(io.Writer) error { return errors.New("ask writes no csv") }

// exitCode is 0 for an answer, 3 for any other status: there is no answer.
func (r askResult) exitCode() int {
	if r.r.Status == agent.StatusAnswered {
		return exitOK
	}
	return exitDeclined
}

func (r askResult) table(w io.Writer) error {
	res := r.r
	fmt.Fprintf(w, "Question: %s\nAs of %s, model %s: %s\n%s\n", res.Question, res.AsOf, res.Model, res.Status, wire.AskDisclaimer)
	if res.Status == agent.StatusAnswered {
		fmt.Fprintf(w, "\nAnswer:\n%s\n", res.Answer)
	} else {
		fmt.Fprintf(w, "\nNo answer (%s). ", res.Status)
		if res.Answer != "" {
			fmt.Fprintf(w, "The model's draft, not to be taken as an answer:\n%s\n", res.Answer)
		} else {
			fmt.Fprintln(w)
		}
	}
	if len(res.Citations) > 0 {
		fmt.Fprintln(w, "\nCitations:")
		g := &grid{head: []string{"CITE", "CHUNK ID", "ACCESSION", "FORM", "ITEM", "COMPANY", "URL"}, right: make([]bool, 7)}
		for _, c := range res.Citations {
			cite := "[c:" + c.ChunkID + "]"
			if c.Kind == agent.FactCitation {
				cite = "[f:" + c.Accession + "]"
			}
			g.add(cite, c.ChunkID, c.Accession, c.Form, c.Item, c.Company, c.URL)
		}
		if err := g.write(w); err != nil {
			return err
		}
	}
	gr := res.Grounding
	verdict := "every figure is grounded in a source it cites"
	if !gr.OK() || len(res.InvalidCitations) > 0 {
		verdict = "NOT grounded"
	}
	fmt.Fprintf(w, "\nGrounding: %d numbers, %d grounded, %d ungrounded: %s\n", len(gr.Numbers), len(gr.Grounded), len(gr.Ungrounded), verdict)
	for _, n := range gr.Ungrounded {
		fmt.Fprintf(w, "- ungrounded %q", n.Text)
		if n.Hint != "" {
			fmt.Fprintf(w, ": %s", n.Hint)
		}
		fmt.Fprintln(w)
	}
	for _, c := range res.InvalidCitations {
		fmt.Fprintf(w, "- cites [%s], which no tool returned for this question\n", c)
	}
	repaired := ""
	if res.Repaired {
		repaired = ", after a repair round"
	}
	_, err := fmt.Fprintf(w, "\n%d tool calls in %d turns%s; tokens %d in, %d out\n", len(res.ToolCalls), res.Turns, repaired, res.Usage.InputTokens, res.Usage.OutputTokens)
	return err
}

func runAskEval(ctx context.Context, c *edgar13f.Client, o *opts, args []string) (result, error) {
	f, err := os.Open(args[0])
	if err != nil {
		return nil, usagef("%v", err)
	}
	qs, err := agent.LoadQuestions(f)
	f.Close()
	if err != nil {
		return nil, usagef("%s: %s", args[0], strings.TrimPrefix(err.Error(), "agent: "))
	}
	var model model.Model
	if !o.ask.dryRun {
		if model, err = o.model(); err != nil {
			return nil, err
		}
	}
	s, err := openSearch(c, o)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	missing, err := unindexed(ctx, s, qs)
	if err != nil {
		return nil, err
	}
	if o.ask.dryRun {
		d, err := agent.DryRun(ctx, c, s.Engine, qs)
		if err != nil {
			return nil, err
		}
		return dryRunResult{d, missing}, nil
	}
	var aopts []agent.Option
	if o.progress != nil {
		aopts = append(aopts, agent.ReportProgress(func(st agent.ToolStep) { o.progress.println("  " + wire.StepLine(st)) }))
	}
	a, err := agent.New(c, s.Engine, model, aopts...)
	if err != nil {
		return nil, err
	}
	ev, err := a.Evaluate(ctx, qs)
	if err != nil {
		return nil, err
	}
	return evalAskResult{ev, missing}, nil
}

// unindexed returns the tickers of the questions of which the store holds
// no filing made by the latest as_of of the questions.
func unindexed(ctx context.Context, s *wire.Search, qs []agent.Question) ([]string, error) {
	var latest edgar13f.Date
	for _, q := range qs {
		if latest.IsZero() || latest.Before(q.AsOf) {
			latest = q.AsOf
		}
	}
	if latest.IsZero() {
		return nil, nil
	}
	fs, err := s.Store.Filings(ctx, latest)
	if err != nil {
		return nil, err
	}
	have := map[string]bool{}
	for _, f := range fs {
		have[strings.ToUpper(f.Ticker)] = true
		have[f.CIK] = true
	}
	var missing []string
	for _, q := range qs {
		for _, t := range q.Tickers {
			if t = strings.ToUpper(t); !have[t] && !slices.Contains(missing, t) {
				missing = append(missing, t)
			}
		}
	}
	return missing, nil
}

// missingNote says which companies the store lacks.
func missingNote(w io.Writer, missing []string) {
	if len(missing) > 0 {
		fmt.Fprintf(w, "The filing search's store holds no filing of %s: index their reports first (edgar13f index %s --form 10-K,10-Q --as-of DATE).\n\n",
			strings.Join(missing, ", "), strings.Join(missing, " "))
	}
}

// dryRunResult is the answer of ask-eval --dry-run.
type dryRunResult struct {
	d       *agent.DryRunReport
	missing []string
}

func (r dryRunResult) exitCode() int {
	if r.d.OK() {
		return exitOK
	}
	return exitDeclined
}

func (r dryRunResult) csv(io.Writer) error { return errors.New("ask-eval writes no csv") }

func (r dryRunResult) table(w io.Writer) error {
	fmt.Fprintln(w, "Dry run: each question's plan replayed through the agent's tools as of its date, no model.")
	fmt.Fprintln(w)
	missingNote(w, r.missing)
	return r.d.WriteReport(w)
}

// Shapes of the JSON answer of ask-eval --dry-run.
type (
	dryStepJSON struct {
		Tool      string          `json:"tool"`
		Arguments json.RawMessage `json:"arguments"`
		Summary   string          `json:"summary"`
		Error     bool            `json:"error"`
	}
	dryFigureJSON struct {
		Figure      string `json:"figure"`
		Step        *int   `json:"step"` // the first step whose output holds it; null when none
		InReference bool   `json:"in_reference"`
	}
	citationJSON struct {
		Kind      string  `json:"kind"`
		ChunkID   *string `json:"chunk_id"`
		Accession string  `json:"accession_number"`
		Item      *string `json:"item"`
		URL       string  `json:"url"`
	}
	dryReplayJSON struct {
		ID               string          `json:"id"`
		AsOf             string          `json:"as_of"`
		Pass             bool            `json:"pass"`
		Problems         []string        `json:"problems"`
		Steps            []dryStepJSON   `json:"steps"`
		Figures          []dryFigureJSON `json:"figures"`
		Citations        []citationJSON  `json:"citations"`
		InvalidCitations []string        `json:"invalid_citations"`
		Numbers          int             `json:"numbers"`
		Ungrounded       []string        `json:"ungrounded"`
		Leaked           []string        `json:"leaked"`
	}
)

func strOrNil(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func (r dryRunResult) json(w io.Writer) error {
	replays := []dryReplayJSON{}
	for i := range r.d.Replays {
		p := &r.d.Replays[i]
		x := dryReplayJSON{ID: p.Question.ID, AsOf: p.Question.AsOf.String(), Pass: p.OK(), Problems: nonNilStrings(p.Problems()),
			Steps: []dryStepJSON{}, Figures: []dryFigureJSON{}, Citations: []citationJSON{}, InvalidCitations: nonNilStrings(p.InvalidCitations),
			Numbers: len(p.Grounding.Numbers), Ungrounded: []string{}, Leaked: nonNilStrings(p.Leaked)}
		for _, st := range p.Steps {
			x.Steps = append(x.Steps, dryStepJSON{st.Name, st.Arguments, st.Summary, st.Error})
		}
		for _, f := range p.Figures {
			fj := dryFigureJSON{Figure: f.Figure.Figure, InReference: f.InReference}
			if f.Step > 0 {
				step := f.Step
				fj.Step = &step
			}
			x.Figures = append(x.Figures, fj)
		}
		for _, c := range p.Citations {
			x.Citations = append(x.Citations, citationJSON{string(c.Kind), strOrNil(c.ChunkID), c.Accession, strOrNil(c.Item), c.URL})
		}
		for _, n := range p.Grounding.Ungrounded {
			x.Ungrounded = append(x.Ungrounded, n.Text)
		}
		replays = append(replays, x)
	}
	status := "pass"
	if !r.d.OK() {
		status = "fail"
	}
	return json.NewEncoder(w).Encode(struct {
		Status       string          `json:"status"`
		Questions    int             `json:"questions"`
		Passed       int             `json:"passed"`
		FiguresFound int             `json:"figures_found"`
		FiguresTotal int             `json:"figures_total"`
		Grounded     int             `json:"references_grounded"`
		Leaks        int             `json:"leaks"`
		Unindexed    []string        `json:"unindexed"`
		Replays      []dryReplayJSON `json:"replays"`
	}{status, len(r.d.Replays), r.d.Passed, r.d.FiguresFound, r.d.FiguresTotal, r.d.Grounded, r.d.Leaks, nonNilStrings(r.missing), replays})
}

// evalAskResult is the answer of ask-eval with a model.
type evalAskResult struct {
	ev      *agent.Evaluation
	missing []string
}

func (r evalAskResult) csv(io.Writer) error { return errors.New("ask-eval writes no csv") }

func (r evalAskResult) table(w io.Writer) error {
	fmt.Fprintln(w, "Grounding evaluation: each question asked of the model as of its date.")
	fmt.Fprintln(w)
	missingNote(w, r.missing)
	return r.ev.WriteReport(w)
}

// evalRunJSON is one question of the JSON answer of ask-eval.
type evalRunJSON struct {
	ID           string   `json:"id"`
	Status       string   `json:"status"`
	Error        *string  `json:"error"`
	Citations    int      `json:"citations"`
	ToolCalls    int      `json:"tool_calls"`
	Found        []string `json:"expected_found"`
	Expected     int      `json:"expected"`
	Leaked       []string `json:"leaked"`
	LatencyMS    int64    `json:"latency_ms"`
	InputTokens  int64    `json:"input_tokens"`
	OutputTokens int64    `json:"output_tokens"`
}

func (r evalAskResult) json(w io.Writer) error {
	ev := r.ev
	runs := []evalRunJSON{}
	for _, run := range ev.Runs {
		x := evalRunJSON{ID: run.Question.ID, Status: "error", Found: nonNilStrings(run.Found), Expected: len(run.Question.Expected),
			Leaked: nonNilStrings(run.Leaked), LatencyMS: run.Latency.Milliseconds()}
		if run.Err != nil {
			msg := run.Err.Error()
			x.Error = &msg
		} else {
			res := run.Result
			x.Status, x.Citations, x.ToolCalls = string(res.Status), len(res.Citations), len(res.ToolCalls)
			x.InputTokens, x.OutputTokens = res.Usage.InputTokens, res.Usage.OutputTokens
		}
		runs = append(runs, x)
	}
	return json.NewEncoder(w).Encode(struct {
		Status             string        `json:"status"`
		Questions          int           `json:"questions"`
		Answered           int           `json:"answered"`
		Ungrounded         int           `json:"ungrounded"`
		Other              int           `json:"other"`
		Failed             int           `json:"failed"`
		GroundedRate       float64       `json:"grounded_rate"`
		CitationsPerAnswer float64       `json:"citations_per_answer"`
		ToolCallsPerAnswer float64       `json:"tool_calls_per_answer"`
		ExpectedFound      int           `json:"expected_found"`
		ExpectedTotal      int           `json:"expected_total"`
		Leaks              int           `json:"leaks"`
		MeanLatencyMS      int64         `json:"mean_latency_ms"`
		InputTokens        int64         `json:"input_tokens"`
		OutputTokens       int64         `json:"output_tokens"`
		Unindexed          []string      `json:"unindexed"`
		Runs               []evalRunJSON `json:"runs"`
	}{"ok", ev.Questions, ev.Answered, ev.Ungrounded, ev.Other, ev.Failed, ev.GroundedRate, ev.CitationsPerAnswer, ev.ToolCallsPerAnswer,
		ev.ExpectedFound, ev.ExpectedTotal, ev.Leaks, ev.MeanLatency.Milliseconds(), ev.Usage.InputTokens, ev.Usage.OutputTokens,
		nonNilStrings(r.missing), runs})
}
