package agent_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f/agent"
	"github.com/edgar13f/edgar13f/agent/model"
	"github.com/edgar13f/edgar13f/companies"
)

func loadQuestions(t *testing.T) []agent.Question {
	t.Helper()
	f, err := os.Open("testdata/questions.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	qs, err := agent.LoadQuestions(f)
	if err != nil {
		t.Fatal(err)
	}
	return qs
}

// The shipped question file: ten questions over five companies, each
// figure one number, and the figures of Apple's 10-K found in the Item
// the file names (TestDryRunShippedQuestions finds every figure of every
// report through the agent's tools).
func TestQuestionFile(t *testing.T) {
	qs := loadQuestions(t)
	if len(qs) != 10 {
		t.Fatalf("%d questions, want 10", len(qs))
	}
	known := map[string]bool{}
	for _, q := range qs {
		for _, tk := range q.Tickers {
			known[tk] = true
		}
		if len(q.Expected) == 0 && len(q.Absent) == 0 {
			t.Errorf("question %s expects nothing", q.ID)
		}
	}
	for _, tk := range []string{"AAPL", "NVDA", "TSLA", "JNJ", "WMT"} {
		if !known[tk] {
			t.Errorf("no question about %s", tk)
		}
	}
	c := mirrorClient(t)
	items := map[string]string{}
	for _, item := range []string{"5", "7"} {
		s, err := companies.New(c).Section(context.Background(), "320193", appleAccession, item, askDate, companies.MaxChars(companies.MaxSectionChars))
		if err != nil {
			t.Fatal(err)
		}
		items[item] = s.Text
	}
	checked := 0
	for _, q := range qs {
		if !strings.HasPrefix(q.ID, "aapl-fy2024") {
			continue
		}
		item := "7"
		for _, f := range q.Expected {
			// "Item 5, ..." names the Item; "same table" keeps the last one.
			if strings.HasPrefix(f.Where, "Item 5") {
				item = "5"
			} else if strings.Contains(f.Where, "Item 7") {
				item = "7"
			}
			g := agent.Ground(f.Figure, []agent.Source{{ID: "item " + item, Text: items[item]}})
			if !g.OK() {
				t.Errorf("question %s: %q is not in Item %s of Apple's 10-K", q.ID, f.Figure, item)
			}
			checked++
		}
	}
	if checked != 7 {
		t.Errorf("checked %d figures of Apple's 10-K, want 7", checked)
	}
}

func TestLoadQuestionsRefuses(t *testing.T) {
	for _, bad := range []string{
		`[{"id":"a","question":"q","as_of":"2025-01-01","expected":[]},{"id":"a","question":"q","as_of":"2025-01-01","expected":[]}]`,
		`[{"id":"a","question":"","as_of":"2025-01-01","expected":[]}]`,
		`[{"id":"a","question":"q","expected":[]}]`,
		`[{"id":"a","question":"q","as_of":"2025-13-01","expected":[]}]`,
		`[{"id":"a","question":"q","as_of":"2025-01-01","expected":[{"figure":"$1 and $2","where":"x"}]}]`,
		`[{"id":"a","question":"q","as_of":"2025-01-01","expected":[],"extra":1}]`,
	} {
		if _, err := agent.LoadQuestions(strings.NewReader(bad)); err == nil {
			t.Errorf("LoadQuestions(%s) accepted it", bad)
		}
	}
}

// An evaluation of three questions: one answered with two of its three
// expected figures, one whose answer holds a figure of a later filing
// (and is ungrounded), one whose model requests fail.
func TestEvaluate(t *testing.T) {
	f := newFixture(t)
	qs := []agent.Question{
		{ID: "net-sales", Question: "Apple's net sales in fiscal 2024?", AsOf: askDate, Tickers: []string{"AAPL"},
			Expected: []agent.Figure{{Figure: "$391,035 million"}, {Figure: "13%"}, {Figure: "$96,169 million"}}},
		{ID: "leak", Question: "Apple's net sales in the March 2025 quarter?", AsOf: askDate, Tickers: []string{"AAPL"},
			Absent: []agent.Figure{{Figure: "$95,359 million"}}},
		{ID: "down", Question: "Anything?", AsOf: askDate},
	}
	s := newScripted(t, openAIWire{},
		turn{calls: []call{{"c1", "search_filings", `{"query":"total net sales"}`}}},
		turn{text: fmt.Sprintf("Total net sales were $391,035 (in millions), Services up 13%% [c:%s].", f.categories)},
		turn{text: "They were $95,359 million."},
		turn{text: "They were $95,359 million."},
		turn{status: 500}, turn{status: 500}, turn{status: 500},
	)
	ev, err := f.agent(t, s.model()).Evaluate(context.Background(), qs)
	if err != nil {
		t.Fatal(err)
	}
	if ev.Questions != 3 || ev.Answered != 1 || ev.Ungrounded != 1 || ev.Failed != 1 || ev.Other != 0 {
		t.Errorf("evaluation counts %+v", ev)
	}
	if ev.GroundedRate != 1.0/3 || ev.ExpectedFound != 2 || ev.ExpectedTotal != 3 || ev.Leaks != 1 {
		t.Errorf("rate %.3f, found %d/%d, leaks %d; want 0.333, 2/3, 1", ev.GroundedRate, ev.ExpectedFound, ev.ExpectedTotal, ev.Leaks)
	}
	if ev.CitationsPerAnswer != 0.5 || ev.ToolCallsPerAnswer != 0.5 {
		t.Errorf("citations per answer %.2f, tool calls per answer %.2f, want 0.5 and 0.5", ev.CitationsPerAnswer, ev.ToolCallsPerAnswer)
	}
	if want := (model.Usage{InputTokens: 1000 + 2000 + 3000 + 4000, OutputTokens: 10 + 20 + 30 + 40}); ev.Usage != want {
		t.Errorf("usage %+v, want %+v", ev.Usage, want)
	}
	if ev.Runs[2].Err == nil || ev.Runs[0].Latency <= 0 || ev.MeanLatency <= 0 {
		t.Errorf("runs %+v", ev.Runs)
	}
	var b bytes.Buffer
	if err := ev.WriteReport(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"net-sales", "answered", "2/3", "leak", "ungrounded", "down", "error:", "grounded rate 0.333", "expected figures found 2/3, leaks 1"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
}
