package agent_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/agent"
	"github.com/edgar13f/edgar13f/search"
)

// questionsAsOf is a day after every report the shipped questions need.
var questionsAsOf = edgar13f.MustParseDate("2025-09-01")

// questionsEngine indexes, from the recorded mirror, the newest 10-K and
// 10-Q reports of the five companies of the shipped questions made by
// questionsAsOf (Tesla's 10-K with its 10-K/A), into an embedded store
// (BM25 only).
func questionsEngine(t *testing.T) (*edgar13f.Client, *search.Engine) {
	t.Helper()
	c, e := mirrorEngine(t)
	res, err := e.Index(context.Background(), []string{"AAPL", "NVDA", "TSLA", "JNJ", "WMT"}, questionsAsOf, search.FormType("10-K"), search.FormType("10-Q"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Indexed {
		if f.Skipped != "" || f.Chunks == 0 {
			t.Fatalf("%s %s %s: skipped %q, %d chunks", f.Ticker, f.Form, f.Accession, f.Skipped, f.Chunks)
		}
	}
	return c, e
}

// report returns d's report as text.
func report(t *testing.T, d *agent.DryRunReport) string {
	t.Helper()
	var b bytes.Buffer
	if err := d.WriteReport(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// The shipped questions can be answered by the agent's tools from the
// mirror: every plan runs as planned, every expected figure is in a tool
// output and in the reference answer, every reference answer is grounded
// in what it cites, and the question asked before Apple's 10-Q reaches
// nothing of it.
func TestDryRunShippedQuestions(t *testing.T) {
	qs := loadQuestions(t)
	c, e := questionsEngine(t)
	d, err := agent.DryRun(context.Background(), c, e, qs)
	if err != nil {
		t.Fatal(err)
	}
	text := report(t, d)
	if !d.OK() || d.Passed != len(qs) || len(d.Replays) != len(qs) || d.Leaks != 0 || d.Grounded != len(qs) || d.FiguresFound != d.FiguresTotal {
		t.Fatalf("dry run of the shipped questions fails:\n%s", text)
	}
	for _, r := range d.Replays {
		if len(r.Steps) != len(r.Question.Plan) || len(r.Citations) == 0 && len(r.Question.Expected) > 0 {
			t.Errorf("%s: %d steps of %d, %d citations", r.Question.ID, len(r.Steps), len(r.Question.Plan), len(r.Citations))
		}
		for _, f := range r.Figures {
			if f.Step < 1 || f.Step > len(r.Steps) {
				t.Errorf("%s: figure %q found at step %d", r.Question.ID, f.Figure.Figure, f.Step)
			}
		}
	}
	if !strings.Contains(text, "10 questions: 10 pass, 0 fail") {
		t.Errorf("report totals:\n%s", text)
	}
}

// leakySearcher is a filing search with a planted fault: it ignores the
// asOf it is given and answers as of a later date.
type leakySearcher struct {
	e    *search.Engine
	asOf edgar13f.Date
}

func (l leakySearcher) Search(ctx context.Context, q string, _ edgar13f.Date, opts ...search.SearchOption) (*search.Result, error) {
	return l.e.Search(ctx, q, l.asOf, opts...)
}

func (l leakySearcher) Chunk(ctx context.Context, id string, _ edgar13f.Date, opts ...search.ChunkOption) (*search.ChunkAnswer, error) {
	return l.e.Chunk(ctx, id, l.asOf, opts...)
}

// question returns the shipped question id.
func question(t *testing.T, qs []agent.Question, id string) agent.Question {
	t.Helper()
	for _, q := range qs {
		if q.ID == id {
			return q
		}
	}
	t.Fatalf("no question %s", id)
	return agent.Question{}
}

// hasProblem reports whether one of r's problems contains every part.
func hasProblem(r agent.Replay, parts ...string) bool {
	for _, p := range r.Problems() {
		ok := true
		for _, part := range parts {
			ok = ok && strings.Contains(p, part)
		}
		if ok {
			return true
		}
	}
	return false
}

// Planted faults: each must make its question fail, saying why, while the
// question it was planted in passes without it.
func TestDryRunPlantedFaults(t *testing.T) {
	qs := loadQuestions(t)
	c, e := questionsEngine(t)
	ctx := context.Background()
	base := question(t, qs, "aapl-fy2024-net-sales")
	before := question(t, qs, "aapl-q3-fy2025-before-filing")

	// A plan whose tool outputs lack a figure: the search step is left
	// out, so neither the table's figures nor the chunk the reference
	// cites come back.
	noSearch := base
	noSearch.Plan = base.Plan[:2]
	// A reference answer with a number no cited source holds (a rounding).
	ungrounded := base
	ungrounded.Reference = strings.Replace(base.Reference, "$391,035 million", "$391.0 billion", 1)
	// A figure the tools never return, expected.
	missing := base
	missing.Expected = append(append([]agent.Figure(nil), base.Expected...), agent.Figure{Figure: "$123,457 million", Where: "planted"})

	d, err := agent.DryRun(ctx, c, e, []agent.Question{base, noSearch, ungrounded, missing})
	if err != nil {
		t.Fatal(err)
	}
	text := report(t, d)
	if d.Passed != 1 || !d.Replays[0].OK() {
		t.Fatalf("want only the unchanged question to pass:\n%s", text)
	}
	if r := d.Replays[1]; r.OK() || !hasProblem(r, "$96,169 million", "in no tool output") || !hasProblem(r, "[c:2d673b8c0a2e3270]", "no step returned") {
		t.Errorf("plan without the search: %q", r.Problems())
	}
	if r := d.Replays[2]; r.OK() || !hasProblem(r, "$391.0 billion", "in no source it cites") || len(r.InvalidCitations) != 0 {
		t.Errorf("ungrounded reference: %q", r.Problems())
	}
	if r := d.Replays[3]; r.OK() || !hasProblem(r, "$123,457 million", "in no tool output") || !hasProblem(r, "$123,457 million", "not in the reference") {
		t.Errorf("missing figure: %q", r.Problems())
	}
	if !strings.Contains(text, "4 questions: 1 pass, 3 fail") || !strings.Contains(text, "FAIL") {
		t.Errorf("report:\n%s", text)
	}

	// A leak: the same question before Apple filed its 10-Q, through a
	// search that answers as of a later date. The 10-Q's figure reaches a
	// tool output, and the chunk planned to decline is returned.
	leaky := leakySearcher{e, questionsAsOf}
	d, err = agent.DryRun(ctx, c, leaky, []agent.Question{before})
	if err != nil {
		t.Fatal(err)
	}
	r := d.Replays[0]
	if r.OK() || d.Leaks != 1 || len(r.Leaked) != 1 || r.Leaked[0] != "$94,036 million" || !hasProblem(r, "leaked") ||
		!hasProblem(r, "step 3", "planned to decline not_yet_filed") {
		t.Errorf("leaky search: %q\n%s", r.Problems(), report(t, d))
	}
	// The leak in the reference answer alone is caught too.
	told := before
	told.Reference = "Apple's total net sales for the quarter were $94,036 million."
	d, err = agent.DryRun(ctx, c, e, []agent.Question{before, told})
	if err != nil {
		t.Fatal(err)
	}
	if !d.Replays[0].OK() || d.Replays[1].OK() || !hasProblem(d.Replays[1], "$94,036 million", "leaked") {
		t.Errorf("leak in the reference: %q, %q", d.Replays[0].Problems(), d.Replays[1].Problems())
	}
}

// A question without a plan, or with a step the agent has no tool for.
func TestDryRunRefusesBadPlans(t *testing.T) {
	c := mirrorClient(t)
	q := agent.Question{ID: "x", Question: "?", AsOf: askDate, Reference: "None."}
	if _, err := agent.DryRun(context.Background(), c, nil, []agent.Question{q}); err == nil || !strings.Contains(err.Error(), "has no plan") {
		t.Errorf("no plan: %v", err)
	}
	q.Plan = []agent.PlanStep{{Tool: "get_weather", Arguments: json.RawMessage(`{}`)}, {Tool: agent.ToolSearchFilings, Arguments: json.RawMessage(`{"query":"x"}`)},
		{Tool: agent.ToolResolveCompany, Arguments: json.RawMessage(`{"name":"Apple","as_of":"2030-01-01"}`)}}
	d, err := agent.DryRun(context.Background(), c, nil, []agent.Question{q})
	if err != nil {
		t.Fatal(err)
	}
	r := d.Replays[0]
	if r.OK() || !hasProblem(r, "step 1 (get_weather)", "no tool") || !hasProblem(r, "step 2 (search_filings)", "no tool") ||
		!hasProblem(r, "step 3 (resolve_company)", "as_of") {
		t.Errorf("bad steps: %q", r.Problems())
	}
}
