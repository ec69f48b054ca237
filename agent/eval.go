package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/agent/model"
)

// This file is the grounding evaluation: a file of analyst questions run
// through an Agent, reported as the reference system reports its own.

// A Question is one question of an evaluation file.
type Question struct {
	ID       string        `json:"id"`
	Question string        `json:"question"`
	AsOf     edgar13f.Date `json:"as_of"`
	Tickers  []string      `json:"tickers,omitempty"`
	// Expected are figures a good answer holds, verified in the filings.
	Expected []Figure `json:"expected"`
	// Absent are figures of filings made after AsOf: an answer holding
	// one has leaked the future.
	Absent []Figure `json:"absent,omitempty"`
	// Plan is the oracle plan: the tool calls an analyst would make to
	// answer, replayed by [DryRun] without a model.
	Plan []PlanStep `json:"plan,omitempty"`
	// Reference is an answer written from what Plan's calls return,
	// citing it as a model must ([c:chunk_id], [f:accession]); [DryRun]
	// checks it as [Agent.Ask] checks a model's answer.
	Reference string `json:"reference,omitempty"`
}

// A Figure is a number as a filing writes it, and where.
type Figure struct {
	Figure string `json:"figure"` // e.g. "$391,035 million" (a table cell under "dollars in millions")
	Where  string `json:"where"`  // the filing, Item and words it appears in
}

// LoadQuestions reads a JSON array of [Question] values and checks them:
// ids unique and not empty, a question and an as_of date for each, and
// every figure exactly one number.
func LoadQuestions(r io.Reader) ([]Question, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var qs []Question
	if err := dec.Decode(&qs); err != nil {
		return nil, fmt.Errorf("agent: reading questions: %w", err)
	}
	ids := map[string]bool{}
	for i, q := range qs {
		switch {
		case q.ID == "" || ids[q.ID]:
			return nil, fmt.Errorf("agent: question %d: the id %q is empty or repeated", i+1, q.ID)
		case strings.TrimSpace(q.Question) == "":
			return nil, fmt.Errorf("agent: question %s has no question", q.ID)
		case q.AsOf.IsZero():
			return nil, fmt.Errorf("agent: question %s has no as_of date", q.ID)
		}
		ids[q.ID] = true
		for _, f := range append(append([]Figure(nil), q.Expected...), q.Absent...) {
			if n := len(scan(f.Figure)); n != 1 {
				return nil, fmt.Errorf("agent: question %s: the figure %q is %d numbers, not one", q.ID, f.Figure, n)
			}
		}
	}
	return qs, nil
}

// A Run is one question of an [Evaluation] and how it went.
type Run struct {
	Question Question
	Result   *Result // nil when Err is set
	Err      error   // the question failed (model API, context)
	Latency  time.Duration
	Found    []string // the Expected figures the answer holds
	Leaked   []string // the Absent figures the answer holds
}

// An Evaluation is the report of [Agent.Evaluate].
type Evaluation struct {
	Runs      []Run
	Questions int
	// Answered, Ungrounded and Failed count the runs by outcome; Other
	// counts the other statuses (turn limit, refusal, truncation, no answer).
	Answered, Ungrounded, Failed, Other int
	// GroundedRate is Answered / Questions: the share of questions
	// answered with every figure grounded and every citation valid.
	GroundedRate float64
	// CitationsPerAnswer and ToolCallsPerAnswer are means over the runs
	// that returned a Result.
	CitationsPerAnswer, ToolCallsPerAnswer float64
	// ExpectedFound of ExpectedTotal figures appear in answered answers.
	ExpectedFound, ExpectedTotal int
	Leaks                        int // Absent figures found in answers of any status
	MeanLatency                  time.Duration
	Usage                        model.Usage // summed over the runs
}

// Evaluate asks every question in order (with its Tickers and as_of, and
// opts) and reports the grounded rate, citations and tool calls per
// answer, latency, tokens, the expected figures the answered answers hold
// and any figure of a later filing an answer holds. A question that fails
// is counted, not fatal; Evaluate stops early only when ctx ends, and
// returns what it has with ctx.Err().
func (a *Agent) Evaluate(ctx context.Context, qs []Question, opts ...Option) (*Evaluation, error) {
	ev := &Evaluation{Questions: len(qs)}
	var withResult int
	var latency time.Duration
	for _, q := range qs {
		if err := ctx.Err(); err != nil {
			ev.finish(withResult, latency)
			return ev, err
		}
		o := append([]Option{Tickers(q.Tickers...)}, opts...)
		start := time.Now()
		res, err := a.Ask(ctx, q.Question, q.AsOf, o...)
		run := Run{Question: q, Result: res, Err: err, Latency: time.Since(start)}
		latency += run.Latency
		ev.ExpectedTotal += len(q.Expected)
		if err != nil {
			ev.Failed++
			ev.Runs = append(ev.Runs, run)
			if ctx.Err() != nil {
				ev.finish(withResult, latency)
				return ev, ctx.Err()
			}
			continue
		}
		withResult++
		ev.Usage = ev.Usage.Add(res.Usage)
		ev.CitationsPerAnswer += float64(len(res.Citations))
		ev.ToolCallsPerAnswer += float64(len(res.ToolCalls))
		switch res.Status {
		case StatusAnswered:
			ev.Answered++
			run.Found = figuresIn(res.Answer, q.Expected)
			ev.ExpectedFound += len(run.Found)
		case StatusUngrounded:
			ev.Ungrounded++
		default:
			ev.Other++
		}
		run.Leaked = figuresIn(res.Answer, q.Absent)
		ev.Leaks += len(run.Leaked)
		ev.Runs = append(ev.Runs, run)
	}
	ev.finish(withResult, latency)
	return ev, nil
}

func (ev *Evaluation) finish(withResult int, latency time.Duration) {
	if ev.Questions > 0 {
		ev.GroundedRate = float64(ev.Answered) / float64(ev.Questions)
	}
	if withResult > 0 {
		ev.CitationsPerAnswer /= float64(withResult)
		ev.ToolCallsPerAnswer /= float64(withResult)
	}
	if n := len(ev.Runs); n > 0 {
		ev.MeanLatency = latency / time.Duration(n)
	}
}

// figuresIn returns the figures whose number the answer writes: the same
// value, or the same digits at another stated scale ("$391,035" for
// "$391,035 million", as a table under "dollars in millions" writes it).
func figuresIn(answer string, figs []Figure) []string {
	nums := scan(answer)
	var out []string
	for _, f := range figs {
		want := scan(f.Figure)
		if len(want) != 1 {
			continue
		}
		for _, n := range nums {
			if n.kind == want[0].kind && (n.value == want[0].value || n.mantissa == want[0].mantissa) {
				out = append(out, f.Figure)
				break
			}
		}
	}
	return out
}

// WriteReport writes ev as a table of runs followed by the totals.
func (ev *Evaluation) WriteReport(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "id\tstatus\tcitations\ttool calls\tfigures\tleaks\tlatency\ttokens in/out")
	for _, r := range ev.Runs {
		if r.Err != nil {
			fmt.Fprintf(tw, "%s\terror: %v\t\t\t\t\t%s\t\n", r.Question.ID, r.Err, r.Latency.Round(time.Millisecond))
			continue
		}
		res := r.Result
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d/%d\t%d\t%s\t%d/%d\n", r.Question.ID, res.Status, len(res.Citations), len(res.ToolCalls),
			len(r.Found), len(r.Question.Expected), len(r.Leaked), r.Latency.Round(time.Millisecond), res.Usage.InputTokens, res.Usage.OutputTokens)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\n%d questions: %d answered (grounded rate %.3f), %d ungrounded, %d other, %d failed\n"+
		"citations per answer %.2f, tool calls per answer %.2f, expected figures found %d/%d, leaks %d\n"+
		"mean latency %s, tokens %d in, %d out\n",
		ev.Questions, ev.Answered, ev.GroundedRate, ev.Ungrounded, ev.Other, ev.Failed,
		ev.CitationsPerAnswer, ev.ToolCallsPerAnswer, ev.ExpectedFound, ev.ExpectedTotal, ev.Leaks,
		ev.MeanLatency.Round(time.Millisecond), ev.Usage.InputTokens, ev.Usage.OutputTokens)
	return err
}
