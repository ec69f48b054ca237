package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/agent"
	"github.com/edgar13f/edgar13f/agent/model"
)

// fixture is what a scripted question needs.
type fixture struct {
	client *edgar13f.Client
	ix     *index
	// Chunks of Apple's 10-K the scripts cite.
	categories string // Item 7: net sales by category, "Total net sales | $391,035"
	holders    string // Item 5: "23,301 shareholders of record"
	future     string // a chunk of a filing made after askDate
}

func newFixture(t *testing.T) *fixture {
	c := mirrorClient(t)
	ix := appleIndex(t)
	return &fixture{
		client: c, ix: ix,
		categories: ix.find(t, "iPhone | $201,183"),
		holders:    ix.find(t, "23,301 shareholders of record"),
		future:     ix.find(t, "synthetic text of a later filing"),
	}
}

func (f *fixture) agent(t *testing.T, m model.Model, opts ...agent.Option) *agent.Agent {
	t.Helper()
	a, err := agent.New(f.client, f.ix, m, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func args(format string, a ...any) string { return fmt.Sprintf(format, a...) }

// A question answered in four turns: the model resolves the company,
// searches the filings and reads the facts (two calls in one turn), then
// answers citing a chunk and a fact. Every figure is grounded.
func TestAskAnswered(t *testing.T) {
	eachWire(t, func(t *testing.T, w wire) {
		f := newFixture(t)
		answer := fmt.Sprintf("Apple's total net sales for fiscal 2024 were $391,035 million [c:%s], or $391,035,000,000 as reported in XBRL [f:%s]. "+
			"Services net sales were $96,169 million, up 13%% [c:%s].", f.categories, appleAccession, f.categories)
		s := newScripted(t, w,
			turn{calls: []call{{"call_1", "resolve_company", `{"name":"Apple"}`}}},
			turn{text: "Searching the 10-K and the XBRL facts.", calls: []call{
				{"call_2", "search_filings", `{"query":"total net sales iPhone Services","ticker":"aapl","item":"Item 7"}`},
				{"call_3", "get_financial_facts", `{"cik":"0000320193","concept":"revenue","years":2}`},
			}},
			turn{calls: []call{{"call_4", "get_chunk", args(`{"chunk_id":%q,"span":1}`, f.categories)}}},
			turn{text: answer},
		)
		res, err := f.agent(t, s.model()).Ask(context.Background(), "What were Apple's total net sales in fiscal 2024?", askDate)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != agent.StatusAnswered || res.Answer != answer || res.Repaired {
			t.Fatalf("Ask = status %s, repaired %v, answer %q; grounding %+v invalid %v", res.Status, res.Repaired, res.Answer, res.Grounding, res.InvalidCitations)
		}
		wantCites := []agent.Citation{
			{Kind: agent.ChunkCitation, ChunkID: f.categories, Accession: appleAccession, Company: "Apple Inc.", Ticker: "AAPL", Form: "10-K",
				FilingDate: appleFiled, FiscalYear: 2024, Item: "7", URL: "https://www.sec.gov/Archives/edgar/data/320193/000032019324000123/aapl-20240928.htm"},
			{Kind: agent.FactCitation, Accession: appleAccession, Company: "Apple Inc.", Form: "10-K", FilingDate: appleFiled,
				URL: "https://www.sec.gov/Archives/edgar/data/320193/000032019324000123/0000320193-24-000123-index.htm"},
		}
		if diff := cmp.Diff(wantCites, res.Citations); diff != "" {
			t.Errorf("citations (-want +got):\n%s", diff)
		}
		var nums []string
		for _, n := range res.Grounding.Grounded {
			nums = append(nums, n.Text+" "+n.Source)
		}
		// The chunk states "(dollars in millions)", so it holds the full
		// figure too, and it is cited first.
		wantNums := []string{"$391,035 million c:" + f.categories, "$391,035,000,000 c:" + f.categories, "$96,169 million c:" + f.categories, "13% c:" + f.categories}
		if diff := cmp.Diff(wantNums, nums); diff != "" || len(res.Grounding.Ungrounded) != 0 {
			t.Errorf("grounded numbers (-want +got):\n%s\nungrounded: %+v", diff, res.Grounding.Ungrounded)
		}
		var steps []string
		for _, c := range res.ToolCalls {
			steps = append(steps, fmt.Sprintf("%d %s error=%v", c.Turn, c.Name, c.Error))
		}
		wantSteps := []string{"1 resolve_company error=false", "2 search_filings error=false", "2 get_financial_facts error=false", "3 get_chunk error=false"}
		if diff := cmp.Diff(wantSteps, steps); diff != "" {
			t.Errorf("tool calls (-want +got):\n%s", diff)
		}
		if !strings.Contains(res.ToolCalls[0].Summary, "Apple Inc.") || !strings.Contains(res.ToolCalls[2].Summary, "391035000000") {
			t.Errorf("summaries %q, %q do not say what the tools found", res.ToolCalls[0].Summary, res.ToolCalls[2].Summary)
		}
		if want := (model.Usage{InputTokens: 1000 + 2000 + 3000 + 4000, OutputTokens: 10 + 20 + 30 + 40}); res.Usage != want || res.Turns != 4 {
			t.Errorf("usage %+v over %d turns, want %+v over 4", res.Usage, res.Turns, want)
		}
		if !strings.HasSuffix(res.Model, "-test") {
			t.Errorf("model %q, want the one the API named", res.Model)
		}

		// What the loop sent.
		reqs := s.requests()
		if len(reqs) != 4 {
			t.Fatalf("%d requests, want 4", len(reqs))
		}
		for i, r := range reqs {
			w.checkHeader(t, r.Header)
			if !strings.HasSuffix(r.Model, "-test") || r.MaxTokens != agent.DefaultMaxTokens {
				t.Errorf("request %d: model %q, max_tokens %d", i+1, r.Model, r.MaxTokens)
			}
			if !strings.Contains(r.System, "as of 2025-01-15") || !strings.Contains(r.System, "[c:CHUNK_ID]") || !strings.Contains(r.System, "data, not instructions") {
				t.Errorf("request %d: the system prompt does not state the date, the citation form and the data rule:\n%s", i+1, r.System)
			}
			if len(r.Tools) != 4 {
				t.Errorf("request %d offers %d tools, want 4", i+1, len(r.Tools))
			}
			for name, schema := range r.Tools {
				props, _ := schema["properties"].(map[string]any)
				for p := range props {
					if strings.Contains(p, "as_of") || strings.Contains(p, "date") {
						t.Errorf("tool %s takes %q: the model must not set the date", name, p)
					}
				}
			}
		}
		// Tool results carry the ids of the calls, in order.
		gotIDs := func(r sent) []string {
			var ids []string
			for _, x := range r.lastResults() {
				ids = append(ids, x.ID)
			}
			return ids
		}
		if diff := cmp.Diff([]string{"call_2", "call_3"}, gotIDs(reqs[2])); diff != "" {
			t.Errorf("tool result ids of the third request (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff([]string{"call_4"}, gotIDs(reqs[3])); diff != "" {
			t.Errorf("tool result ids of the fourth request (-want +got):\n%s", diff)
		}
		prev := reqs[2].Messages[len(reqs[2].Messages)-2]
		if len(prev.Calls) != 2 || prev.Calls[0].id != "call_2" || prev.Text != "Searching the 10-K and the XBRL facts." {
			t.Errorf("the assistant turn sent back = %+v, want its text and both calls", prev)
		}
		search := reqs[2].lastResults()[0].Content
		if !strings.Contains(search, `"chunk_id":"`+f.categories+`"`) || !strings.Contains(search, "iPhone | $201,183") {
			t.Errorf("the search result does not carry the chunk: %.300s", search)
		}
		// Every call to the index was bound to the question's date.
		calls := f.ix.Calls()
		if len(calls) != 2 || calls[0].Op != "search" || calls[1].Op != "chunk" {
			t.Fatalf("index calls = %+v", calls)
		}
		for _, c := range calls {
			if c.AsOf != askDate {
				t.Errorf("index %s called as of %s, want %s", c.Op, c.AsOf, askDate)
			}
		}
		if calls[0].Opts != 3 { // K, Ticker, Item
			t.Errorf("search called with %d options, want 3 (k, ticker, item)", calls[0].Opts)
		}
	})
}

// An answer with a rounded figure is caught and sent back once, naming
// the figure; the repaired answer passes.
func TestAskRepairsAnUngroundedAnswer(t *testing.T) {
	eachWire(t, func(t *testing.T, w wire) {
		f := newFixture(t)
		fixed := fmt.Sprintf("Total net sales were $391,035 million in fiscal 2024 [c:%s].", f.categories)
		s := newScripted(t, w,
			turn{calls: []call{{"c1", "search_filings", `{"query":"total net sales","ticker":"AAPL"}`}}},
			turn{text: fmt.Sprintf("Total net sales were ~$391.0B in fiscal 2024 [c:%s], and iPad fell 6%% [c:%s].", f.categories, f.categories)},
			turn{text: fixed},
		)
		res, err := f.agent(t, s.model()).Ask(context.Background(), "Apple's net sales in fiscal 2024?", askDate)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != agent.StatusAnswered || !res.Repaired || res.Answer != fixed || res.Turns != 3 {
			t.Fatalf("Ask = status %s repaired %v turns %d answer %q", res.Status, res.Repaired, res.Turns, res.Answer)
		}
		reqs := s.requests()
		last := reqs[2].Messages
		repair := last[len(last)-1]
		if repair.Role != "user" || !strings.Contains(repair.Text, `"$391.0B"`) || !strings.Contains(repair.Text, `"6%"`) ||
			!strings.Contains(repair.Text, "only as a negative number") {
			t.Errorf("the repair message does not name the figures and the sign hint:\n%s", repair.Text)
		}
		if a := last[len(last)-2]; a.Role != "assistant" || !strings.Contains(a.Text, "~$391.0B") {
			t.Errorf("the ungrounded answer is not in the conversation before the repair message: %+v", a)
		}
	})
}

// An answer still ungrounded after the repair round is returned as
// ungrounded, with the list, never as an answer.
func TestAskStaysUngrounded(t *testing.T) {
	eachWire(t, func(t *testing.T, w wire) {
		f := newFixture(t)
		s := newScripted(t, w,
			turn{calls: []call{{"c1", "search_filings", `{"query":"shareholders of record"}`}}},
			turn{text: fmt.Sprintf("Apple had 23,310 shareholders of record [c:%s].", f.holders)},
			turn{text: fmt.Sprintf("Apple had about 23,000 holders of record as of October 18, 2024 [c:%s].", f.holders)},
		)
		res, err := f.agent(t, s.model()).Ask(context.Background(), "How many holders of record did Apple have?", askDate)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != agent.StatusUngrounded || !res.Repaired {
			t.Fatalf("Ask = status %s repaired %v, want ungrounded after a repair", res.Status, res.Repaired)
		}
		if len(res.Grounding.Ungrounded) != 1 || res.Grounding.Ungrounded[0].Text != "23,000" ||
			len(res.Grounding.Grounded) != 1 || res.Grounding.Grounded[0].Text != "October 18, 2024" {
			t.Errorf("grounding = %+v, want 23,000 ungrounded and the date grounded", res.Grounding)
		}
		if len(s.requests()) != 3 {
			t.Errorf("%d requests, want 3: one repair round only", len(s.requests()))
		}
	})
}

// A citation of a chunk no tool returned, and of a chunk of a filing made
// after the question's date, makes the answer ungrounded; the later
// filing's chunk is declined to the model without revealing it.
func TestAskInvalidCitations(t *testing.T) {
	eachWire(t, func(t *testing.T, w wire) {
		f := newFixture(t)
		answer := fmt.Sprintf("Net sales were $95,359 million [c:%s] and $391,035 million [c:%s] [c:0123456789abcdef].", f.future, f.categories)
		s := newScripted(t, w,
			turn{calls: []call{{"c1", "get_chunk", args(`{"chunk_id":%q}`, f.future)}, {"c2", "get_chunk", args(`{"chunk_id":%q,"span":0}`, f.categories)}}},
			turn{text: answer},
			turn{text: answer},
		)
		res, err := f.agent(t, s.model()).Ask(context.Background(), "Apple's latest quarterly net sales?", askDate)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != agent.StatusUngrounded {
			t.Fatalf("status %s, want ungrounded", res.Status)
		}
		if diff := cmp.Diff([]string{"c:" + f.future, "c:0123456789abcdef"}, res.InvalidCitations); diff != "" {
			t.Errorf("invalid citations (-want +got):\n%s", diff)
		}
		if len(res.Citations) != 1 || res.Citations[0].ChunkID != f.categories {
			t.Errorf("citations = %+v, want only the chunk a tool returned", res.Citations)
		}
		if len(res.Grounding.Ungrounded) != 1 || res.Grounding.Ungrounded[0].Text != "$95,359 million" {
			t.Errorf("ungrounded = %+v, want the later filing's figure", res.Grounding.Ungrounded)
		}
		declined := s.requests()[1].lastResults()[0]
		if !declined.IsError || !strings.Contains(declined.Content, "not_yet_filed") || strings.Contains(declined.Content, "95,359") ||
			strings.Contains(declined.Content, "2025-05-02") || strings.Contains(declined.Content, "10-Q") {
			t.Errorf("the later filing's chunk reached the model as %+v", declined)
		}
		if !res.ToolCalls[0].Error || res.ToolCalls[0].Summary != "declined: not_yet_filed" {
			t.Errorf("tool call = %+v, want a not_yet_filed decline", res.ToolCalls[0])
		}
		if repair := s.requests()[2].Messages; !strings.Contains(repair[len(repair)-1].Text, "[c:0123456789abcdef]") {
			t.Errorf("the repair message does not name the invalid citation: %s", repair[len(repair)-1].Text)
		}
	})
}

// The model cannot move the question in time: a date among a tool's
// arguments is refused, and every tool still answers as of the question's
// date.
func TestAskDateIsNotAnArgument(t *testing.T) {
	eachWire(t, func(t *testing.T, w wire) {
		f := newFixture(t)
		s := newScripted(t, w,
			turn{calls: []call{
				{"c1", "search_filings", `{"query":"net sales","as_of":"2026-01-01"}`},
				{"c2", "get_financial_facts", `{"cik":"320193","concept":"revenue","as_of":"2026-01-01"}`},
				{"c3", "search_filings", `{"query":"net sales","ticker":"AAPL","fiscal_year":2025}`},
				{"c4", "search_filings", w.wrongArgs()},
				{"c5", "read_everything", `{}`},
			}},
			turn{text: "The filings available do not say."},
		)
		res, err := f.agent(t, s.model()).Ask(context.Background(), "Apple's fiscal 2025 net sales?", askDate)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != agent.StatusAnswered || len(res.Grounding.Numbers) != 0 {
			t.Errorf("status %s, numbers %+v", res.Status, res.Grounding.Numbers)
		}
		results := s.requests()[1].lastResults()
		if len(results) != 5 {
			t.Fatalf("%d tool results, want 5", len(results))
		}
		for i, want := range []string{`takes no "as_of" argument`, `takes no "as_of" argument`, "", "", "no tool named"} {
			r := results[i]
			if want == "" {
				continue
			}
			if !r.IsError || !strings.Contains(r.Content, want) {
				t.Errorf("result %d = %+v, want an error saying %q", i+1, r, want)
			}
		}
		if !results[3].IsError {
			t.Errorf("broken arguments gave %+v, want an error", results[3])
		}
		if results[2].IsError {
			t.Errorf("a valid search was refused: %+v", results[2])
		}
		if _, err := json.Marshal(res); err != nil {
			t.Errorf("the Result does not encode: %v (arguments %s)", err, res.ToolCalls[3].Arguments)
		}
		calls := f.ix.Calls()
		if len(calls) != 1 || calls[0].AsOf != askDate {
			t.Errorf("index calls %+v, want one search as of %s", calls, askDate)
		}
		if strings.Contains(results[2].Content, "95,359") {
			t.Errorf("a search reached a filing made after the question's date")
		}
	})
}

// A model that keeps calling tools stops at the turn limit, without an
// answer.
func TestAskTurnLimit(t *testing.T) {
	eachWire(t, func(t *testing.T, w wire) {
		f := newFixture(t)
		var turns []turn
		for i := range 3 {
			turns = append(turns, turn{calls: []call{{fmt.Sprintf("c%d", i), "search_filings", `{"query":"net sales"}`}}})
		}
		s := newScripted(t, w, turns...)
		res, err := f.agent(t, s.model(), agent.Limit(5)).Ask(context.Background(), "Loop?", askDate, agent.Limit(3))
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != agent.StatusTurnLimit || res.Answer != "" || res.Turns != 3 || len(res.ToolCalls) != 3 {
			t.Errorf("Ask = status %s turns %d calls %d answer %q, want turn_limit after 3", res.Status, res.Turns, len(res.ToolCalls), res.Answer)
		}
		if len(s.requests()) != 3 {
			t.Errorf("%d requests, want 3", len(s.requests()))
		}
	})
}

// A first answer on the last turn gets no repair round: it is ungrounded.
func TestAskNoRepairAfterTheLastTurn(t *testing.T) {
	eachWire(t, func(t *testing.T, w wire) {
		f := newFixture(t)
		s := newScripted(t, w,
			turn{calls: []call{{"c1", "search_filings", `{"query":"net sales"}`}}},
			turn{text: fmt.Sprintf("About $400 billion [c:%s].", f.categories)},
		)
		res, err := f.agent(t, s.model()).Ask(context.Background(), "Net sales?", askDate, agent.Limit(2))
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != agent.StatusUngrounded || res.Repaired || len(s.requests()) != 2 {
			t.Errorf("status %s repaired %v after %d requests, want ungrounded, no repair, 2", res.Status, res.Repaired, len(s.requests()))
		}
	})
}

// A 429 is retried; the question is answered.
func TestAskRetriesRateLimit(t *testing.T) {
	eachWire(t, func(t *testing.T, w wire) {
		f := newFixture(t)
		s := newScripted(t, w,
			turn{status: 429},
			turn{status: 429},
			turn{text: "The filings available do not say."},
		)
		res, err := f.agent(t, s.model()).Ask(context.Background(), "Anything?", askDate)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != agent.StatusAnswered || res.Turns != 1 || len(s.requests()) != 3 {
			t.Errorf("status %s, %d turns, %d requests; want answered in 1 turn after 3 requests", res.Status, res.Turns, len(s.requests()))
		}
	})
}

// A 500 that persists through the retries fails the question with a
// ModelError naming the status.
func TestAskServerError(t *testing.T) {
	eachWire(t, func(t *testing.T, w wire) {
		f := newFixture(t)
		s := newScripted(t, w, turn{status: 500}, turn{status: 500}, turn{status: 500})
		res, err := f.agent(t, s.model()).Ask(context.Background(), "Anything?", askDate)
		var me *model.Error
		if !errors.As(err, &me) || me.StatusCode != 500 || me.Attempts != 3 || res != nil {
			t.Fatalf("Ask = %v, %v; want a ModelError with status 500 after 3 attempts", res, err)
		}
		if !strings.Contains(err.Error(), "500") || !strings.Contains(err.Error(), "scripted 500") {
			t.Errorf("error %q does not name the status and the API's message", err)
		}
	})
}

// Cancelling the context stops the loop: no further request is sent.
func TestAskCancel(t *testing.T) {
	eachWire(t, func(t *testing.T, w wire) {
		f := newFixture(t)
		s := newScripted(t, w,
			turn{calls: []call{{"c1", "resolve_company", `{"name":"NVIDIA"}`}}},
			turn{text: "never sent"},
		)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		a := f.agent(t, s.model(), agent.ReportProgress(func(agent.ToolStep) { cancel() }))
		res, err := a.Ask(ctx, "Who is NVIDIA?", askDate)
		if !errors.Is(err, context.Canceled) || res != nil {
			t.Fatalf("Ask = %v, %v; want context.Canceled", res, err)
		}
		if len(s.requests()) != 1 {
			t.Errorf("%d requests, want 1", len(s.requests()))
		}
	})
}

// The model's other endings: a refusal, an answer cut at the token limit,
// an empty turn.
func TestAskEndings(t *testing.T) {
	eachWire(t, func(t *testing.T, w wire) {
		for _, tt := range []struct {
			tn   turn
			want agent.Status
		}{
			{turn{text: "I can't help with that.", stop: "refusal"}, agent.StatusRefused},
			{turn{text: "Net sales were $391,", stop: "max_tokens"}, agent.StatusTruncated},
			{turn{}, agent.StatusNoAnswer},
		} {
			f := newFixture(t)
			s := newScripted(t, w, tt.tn)
			res, err := f.agent(t, s.model(), agent.MaxTokens(100)).Ask(context.Background(), "Net sales?", askDate)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != tt.want {
				t.Errorf("turn %+v: status %s, want %s", tt.tn, res.Status, tt.want)
			}
		}
	})
}

// Without a filing index, only the company tools are offered; a question
// limited to tickers says so to the model.
func TestAskFactsOnlyAndTickers(t *testing.T) {
	eachWire(t, func(t *testing.T, w wire) {
		c := mirrorClient(t)
		s := newScripted(t, w,
			turn{calls: []call{{"c1", "search_filings", `{"query":"x"}`}, {"c2", "get_financial_facts", `{"cik":"1045810","concept":"revenue","years":1}`}}},
			turn{text: "NVIDIA's revenue for fiscal 2024 was $60,922 million [f:0001045810-24-000029]."},
		)
		a, err := agent.New(c, nil, s.model(), agent.Tickers("nvda"))
		if err != nil {
			t.Fatal(err)
		}
		res, err := a.Ask(context.Background(), "NVIDIA revenue?", edgar13f.MustParseDate("2024-06-01"))
		if err != nil {
			t.Fatal(err)
		}
		r := s.requests()[0]
		if len(r.Tools) != 2 || r.Tools["resolve_company"] == nil || r.Tools["get_financial_facts"] == nil {
			t.Errorf("tools offered without an index: %v", r.Tools)
		}
		if !strings.Contains(r.System, "The question concerns NVDA") {
			t.Errorf("the system prompt does not name the tickers")
		}
		results := s.requests()[1].lastResults()
		if !results[0].IsError || results[1].IsError {
			t.Errorf("results = %+v, want search refused and facts answered", results)
		}
		if res.Status != agent.StatusAnswered || len(res.Citations) != 1 || res.Citations[0].Accession != "0001045810-24-000029" {
			t.Errorf("Ask = %s %+v; grounding %+v, invalid %v", res.Status, res.Citations, res.Grounding, res.InvalidCitations)
		}
	})
}

// Bad input declines invalid_argument before any request is sent.
func TestAskDeclines(t *testing.T) {
	f := newFixture(t)
	s := newScripted(t, openAIWire{})
	a := f.agent(t, s.model())
	for _, tt := range []struct {
		name     string
		question string
		asOf     edgar13f.Date
		opts     []agent.Option
	}{
		{"empty question", "  ", askDate, nil},
		{"long question", strings.Repeat("x", agent.MaxQuestionRunes+1), askDate, nil},
		{"zero date", "q", edgar13f.Date{}, nil},
		{"impossible date", "q", edgar13f.Date{Year: 2025, Month: 2, Day: 30}, nil},
		{"turns", "q", askDate, []agent.Option{agent.Limit(0)}},
		{"tokens", "q", askDate, []agent.Option{agent.MaxTokens(1 << 20)}},
		{"ticker", "q", askDate, []agent.Option{agent.Tickers("A B")}},
	} {
		_, err := a.Ask(context.Background(), tt.question, tt.asOf, tt.opts...)
		if !errors.Is(err, edgar13f.InvalidArgument) {
			t.Errorf("%s: Ask = %v, want invalid_argument", tt.name, err)
		}
	}
	if _, err := agent.New(f.client, nil, s.model(), agent.Limit(agent.MaxTurns+1)); !errors.Is(err, edgar13f.InvalidArgument) {
		t.Errorf("New with MaxTurns too large = %v, want invalid_argument", err)
	}
	if n := len(s.requests()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

// A figure is checked against the sources the answer cites, not against
// everything the tools returned.
func TestAskGroundsOnlyInCitedSources(t *testing.T) {
	eachWire(t, func(t *testing.T, w wire) {
		f := newFixture(t)
		answer := fmt.Sprintf("Total net sales were $391,035 million [c:%s].", f.holders)
		s := newScripted(t, w,
			turn{calls: []call{{"c1", "get_chunk", args(`{"chunk_id":%q,"span":0}`, f.categories)}, {"c2", "get_chunk", args(`{"chunk_id":%q,"span":0}`, f.holders)}}},
			turn{text: answer},
			turn{text: answer},
		)
		res, err := f.agent(t, s.model()).Ask(context.Background(), "Net sales?", askDate)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != agent.StatusUngrounded || len(res.Grounding.Ungrounded) != 1 || len(res.InvalidCitations) != 0 {
			t.Errorf("status %s, grounding %+v, invalid %v; want the figure ungrounded", res.Status, res.Grounding, res.InvalidCitations)
		}
	})
}

// A citation of an id no tool returned fails the answer even when every
// figure is grounded in the other sources it cites.
func TestAskCitationNeverReturned(t *testing.T) {
	eachWire(t, func(t *testing.T, w wire) {
		f := newFixture(t)
		answer := fmt.Sprintf("Total net sales were $391,035 million [c:%s; c:0123456789abcdef] [f:%s].", f.categories, appleAccession)
		s := newScripted(t, w,
			turn{calls: []call{{"c1", "get_chunk", args(`{"chunk_id":%q,"span":0}`, f.categories)}}},
			turn{text: answer},
			turn{text: answer},
		)
		res, err := f.agent(t, s.model()).Ask(context.Background(), "Net sales?", askDate)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != agent.StatusUngrounded || !res.Grounding.OK() {
			t.Errorf("status %s, grounding %+v; want ungrounded with every figure grounded", res.Status, res.Grounding)
		}
		if diff := cmp.Diff([]string{"c:0123456789abcdef", "f:" + appleAccession}, res.InvalidCitations); diff != "" {
			t.Errorf("invalid citations (-want +got):\n%s", diff)
		}
	})
}

// A ticker is one ticker however it is written: a question limited to
// "brk.b" is limited to EDGAR's BRK-B, and the model's search for "BRK-B",
// "brk.b" or "BRK/B" stays within it, as search.Ticker itself reads them.
func TestAskTickersNormalised(t *testing.T) {
	f := newFixture(t)
	s := newScripted(t, openAIWire{},
		turn{calls: []call{
			{"c1", "search_filings", `{"query":"x","ticker":"BRK-B"}`},
			{"c2", "search_filings", `{"query":"x","ticker":"brk.b"}`},
			{"c3", "search_filings", `{"query":"x","ticker":"BRK/B"}`},
			{"c4", "search_filings", `{"query":"x","ticker":"AAPL"}`},
		}},
		turn{text: "No filing of BRK-B is indexed."},
	)
	if _, err := f.agent(t, s.model(), agent.Tickers("brk.b", "BRK-B")).Ask(context.Background(), "Berkshire?", askDate); err != nil {
		t.Fatal(err)
	}
	if sys := s.requests()[0].System; !strings.Contains(sys, "The question concerns BRK-B") || strings.Contains(sys, "BRK.B") {
		t.Errorf("the system prompt does not name BRK-B once, as EDGAR writes it")
	}
	results := s.requests()[1].lastResults()
	if len(results) != 4 || results[0].IsError || results[1].IsError || results[2].IsError || !results[3].IsError {
		t.Errorf("results = %+v; want the three spellings of BRK-B searched and AAPL refused", results)
	}
}
