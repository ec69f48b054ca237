package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/agent/model"
	"github.com/edgar13f/edgar13f/companies"
)

// This file is the dry run of an evaluation file: each question's oracle
// plan (the tool calls an analyst would make) replayed through the tools
// the agent offers a model, bound to the question's asOf, and its
// reference answer checked as an answer of the model would be. It needs
// no model: it shows that the tools can answer the questions.

// A PlanStep is one tool call of a question's oracle plan: a tool the
// agent offers ([ToolResolveCompany], [ToolSearchFilings], [ToolGetChunk],
// [ToolFinancialFacts]) and its arguments, as a model would write them
// (no date: every tool is bound to the question's as_of).
type PlanStep struct {
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
	// Decline, when set, is the reason the call must be declined with
	// (such as "not_yet_filed" for a chunk of a later filing); the step
	// fails when the call answers, or declines for another reason.
	Decline edgar13f.Reason `json:"decline,omitempty"`
}

// A FigureCheck says where a plan's tools returned an expected figure.
type FigureCheck struct {
	Figure Figure
	// Step is the first plan step (from 1) whose output holds the figure,
	// in the text of a chunk or the value of a fact; 0 when none does.
	Step int
	// InReference reports whether the reference answer writes the figure.
	InReference bool
}

// A Replay is the dry run of one question: its plan as run, the expected
// figures the tools returned, the check of its reference answer and any
// figure of a later filing that reached a tool output or the reference.
type Replay struct {
	Question Question
	// Steps are the plan's calls in order, with what each returned; a
	// step's Turn is its number in the plan, from 1.
	Steps []ToolStep
	// StepErrors say, for each step that did not go as planned, why: a
	// call that failed or was declined (or was not declined as planned).
	// Indexed as Steps; "" for a step that went as planned.
	StepErrors []string
	Figures    []FigureCheck
	// Citations, InvalidCitations and Grounding are those of the
	// reference answer, as [Agent.Ask] sets them for a model's answer.
	Citations        []Citation
	InvalidCitations []string
	Grounding        Grounding
	// Leaked are the Absent figures found in a tool output or in the
	// reference answer.
	Leaked []string
}

// OK reports whether the question passes its dry run: every step went as
// planned, every expected figure is in a tool output and in the reference
// answer, the reference answer cites only what the tools returned and
// every number of it is grounded in what it cites, and nothing of a later
// filing leaked.
func (r *Replay) OK() bool { return len(r.Problems()) == 0 }

// Problems lists, in words, why the question fails its dry run; none when
// it passes.
func (r *Replay) Problems() []string {
	var p []string
	for i, e := range r.StepErrors {
		if e != "" {
			p = append(p, fmt.Sprintf("step %d (%s): %s", i+1, r.Steps[i].Name, e))
		}
	}
	if strings.TrimSpace(r.Question.Reference) == "" {
		p = append(p, "no reference answer")
	}
	for _, f := range r.Figures {
		if f.Step == 0 {
			p = append(p, fmt.Sprintf("expected figure %q is in no tool output", f.Figure.Figure))
		}
		if !f.InReference {
			p = append(p, fmt.Sprintf("expected figure %q is not in the reference answer", f.Figure.Figure))
		}
	}
	for _, c := range r.InvalidCitations {
		p = append(p, fmt.Sprintf("the reference answer cites [%s], which no step returned", c))
	}
	for _, n := range r.Grounding.Ungrounded {
		p = append(p, fmt.Sprintf("the reference answer's %q is in no source it cites", n.Text))
	}
	for _, f := range r.Leaked {
		p = append(p, fmt.Sprintf("absent figure %q (filed after %s) leaked", f, r.Question.AsOf))
	}
	return p
}

// A DryRunReport is the outcome of [DryRun].
type DryRunReport struct {
	Replays []Replay
	// Passed counts the questions whose Replay is OK.
	Passed int
	// FiguresFound of FiguresTotal expected figures are in a tool output.
	FiguresFound, FiguresTotal int
	// Grounded counts the reference answers that cite only what the tools
	// returned and have every number grounded.
	Grounded int
	Leaks    int // Absent figures leaked, over all questions
}

// OK reports whether every question passes.
func (d *DryRunReport) OK() bool { return d.Passed == len(d.Replays) }

// DryRun replays the oracle plan of every question ([Question.Plan])
// through the tools an [Agent] offers a model, reading company data
// through c and searching filings with s (nil: the search tools are
// absent and their steps fail), each question's tools bound to its AsOf
// and limited to its Tickers as [Agent.Ask] limits them. It then checks the
// question's reference answer ([Question.Reference]) as Ask checks a
// model's answer: its citations must be of chunks and facts the plan's
// steps returned, and every number must be grounded ([Ground]) in what it
// cites. It reports per question which expected figures a tool output
// holds and whether any absent figure (one of a filing made after AsOf)
// reached a tool output or the reference answer.
//
// No model is asked. A question that fails is reported, not an error;
// DryRun returns an error only when ctx ends (with the questions done so
// far), or declines with [edgar13f.InvalidArgument] a question without a
// plan or with an invalid as_of or tickers.
func DryRun(ctx context.Context, c *edgar13f.Client, s Searcher, qs []Question) (*DryRunReport, error) {
	if c == nil {
		return nil, errors.New("agent: DryRun needs a Client")
	}
	rep := &DryRunReport{}
	cs := companies.New(c) // one for every question: the ticker list and facts decoded once
	for _, q := range qs {
		if len(q.Plan) == 0 {
			return nil, invalid("question %s has no plan", q.ID)
		}
		if !q.AsOf.IsValid() {
			return nil, invalid("question %s: as_of %q is not a valid date", q.ID, q.AsOf.String())
		}
		tickers, err := checkTickers(q.Tickers)
		if err != nil {
			return nil, invalid("question %s: %v", q.ID, err)
		}
		r, err := replay(ctx, cs, s, q, tickers)
		if err != nil {
			return rep, err
		}
		rep.Replays = append(rep.Replays, *r)
		if r.OK() {
			rep.Passed++
		}
		rep.FiguresTotal += len(r.Figures)
		for _, f := range r.Figures {
			if f.Step > 0 {
				rep.FiguresFound++
			}
		}
		if r.Grounding.OK() && len(r.InvalidCitations) == 0 {
			rep.Grounded++
		}
		rep.Leaks += len(r.Leaked)
	}
	return rep, nil
}

// replay runs one question's plan and checks its reference answer.
func replay(ctx context.Context, cs *companies.Companies, s Searcher, q Question, tickers []string) (*Replay, error) {
	tb := newToolbox(cs, s, q.AsOf, tickers)
	r := &Replay{Question: q}
	var outputs []string // the text each step returned
	for i, st := range q.Plan {
		call := model.ToolCall{ID: fmt.Sprintf("plan_%d", i+1), Name: st.Tool, Arguments: st.Arguments}
		res, summary, err := tb.run(ctx, call)
		if err != nil {
			return nil, err
		}
		args := st.Arguments
		if !json.Valid(args) {
			args, _ = json.Marshal(string(st.Arguments))
		}
		r.Steps = append(r.Steps, ToolStep{Turn: i + 1, Name: st.Tool, Arguments: args, Summary: summary, Error: res.IsError})
		var problem string
		switch {
		case st.Decline != "" && !strings.HasPrefix(summary, "declined: "+string(st.Decline)):
			problem = fmt.Sprintf("planned to decline %s, got %s", st.Decline, summary)
		case st.Decline == "" && res.IsError:
			problem = res.Content
		}
		r.StepErrors = append(r.StepErrors, problem)
		out := ""
		if !res.IsError {
			out = outputText(tb, res.Content)
		}
		outputs = append(outputs, out)
	}
	for _, f := range q.Expected {
		fc := FigureCheck{Figure: f, InReference: len(figuresIn(q.Reference, []Figure{f})) == 1}
		for i, out := range outputs {
			if len(figuresIn(out, []Figure{f})) == 1 {
				fc.Step = i + 1
				break
			}
		}
		r.Figures = append(r.Figures, fc)
	}
	all := strings.Join(append(outputs, q.Reference), "\n")
	r.Leaked = figuresIn(all, q.Absent)
	sess := &session{tb: tb, res: &Result{Answer: strings.TrimSpace(q.Reference)}}
	sess.check()
	r.Citations, r.InvalidCitations, r.Grounding = sess.res.Citations, sess.res.InvalidCitations, sess.res.Grounding
	return r, nil
}

// outputText returns the text of a tool's answer that an answer could
// cite: the text of each chunk it returned and, for facts, the lines an
// answer citing their filing is checked against.
func outputText(tb *toolbox, content string) string {
	var out struct {
		Hits      []chunkOut `json:"hits"`
		Chunk     *chunkOut  `json:"chunk"`
		Neighbors []chunkOut `json:"neighbors"`
		Values    []factOut  `json:"values"`
		Matches   []struct {
			Name string `json:"name"`
		} `json:"matches"`
	}
	if json.Unmarshal([]byte(content), &out) != nil {
		return ""
	}
	var parts []string
	for _, h := range out.Hits {
		parts = append(parts, h.Text)
	}
	if out.Chunk != nil {
		parts = append(parts, out.Chunk.Text)
	}
	for _, h := range out.Neighbors {
		parts = append(parts, h.Text)
	}
	seen := map[string]bool{}
	for _, v := range out.Values {
		for _, acc := range []string{v.Accession, v.FirstReportedAccession} {
			if fs := tb.facts[acc]; fs != nil && !seen[acc] {
				seen[acc] = true
				parts = append(parts, fs.lines...)
			}
		}
	}
	return strings.Join(parts, "\n")
}

// WriteReport writes d as a table of questions, the problems of each
// failing one, and the totals.
func (d *DryRunReport) WriteReport(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "id\tas of\tsteps\tfigures in tools\tin reference\treference grounded\tcitations\tleaks\tverdict")
	for i := range d.Replays {
		r := &d.Replays[i]
		steps := 0
		for _, e := range r.StepErrors {
			if e == "" {
				steps++
			}
		}
		found, inRef := 0, 0
		for _, f := range r.Figures {
			if f.Step > 0 {
				found++
			}
			if f.InReference {
				inRef++
			}
		}
		g := r.Grounding
		grounded := fmt.Sprintf("%d/%d", len(g.Grounded), len(g.Numbers))
		if len(r.InvalidCitations) > 0 {
			grounded += fmt.Sprintf(", %d invalid citations", len(r.InvalidCitations))
		}
		verdict := "PASS"
		if !r.OK() {
			verdict = "FAIL"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d/%d\t%d/%d\t%d/%d\t%s\t%d\t%d\t%s\n", r.Question.ID, r.Question.AsOf, steps, len(r.Steps),
			found, len(r.Figures), inRef, len(r.Figures), grounded, len(r.Citations), len(r.Leaked), verdict)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for i := range d.Replays {
		r := &d.Replays[i]
		if p := r.Problems(); len(p) > 0 {
			fmt.Fprintf(w, "\n%s fails:\n", r.Question.ID)
			for _, x := range p {
				fmt.Fprintf(w, "- %s\n", x)
			}
		}
	}
	_, err := fmt.Fprintf(w, "\n%d questions: %d pass, %d fail; expected figures in tool outputs %d/%d; reference answers grounded %d/%d; leaks %d\n",
		len(d.Replays), d.Passed, len(d.Replays)-d.Passed, d.FiguresFound, d.FiguresTotal, d.Grounded, len(d.Replays), d.Leaks)
	return err
}
