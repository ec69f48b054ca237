package agent_test

import (
	"context"
	"sync"
	"testing"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/agent"
	"github.com/edgar13f/edgar13f/agent/model"
	"github.com/edgar13f/edgar13f/companies"
	"github.com/edgar13f/edgar13f/internal/edgartest"
	"github.com/edgar13f/edgar13f/mirror"
)

// countingFetcher reads the recorded mirror and counts the reads of each
// URL.
type countingFetcher struct {
	next  *mirror.Fetcher
	mu    sync.Mutex
	reads map[string]int
}

func (f *countingFetcher) Fetch(ctx context.Context, url string) ([]byte, error) {
	f.mu.Lock()
	f.reads[url]++
	f.mu.Unlock()
	return f.next.Fetch(ctx, url)
}

func (f *countingFetcher) Reads(url string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.reads[url]
}

// resolvingModel calls resolve_company for Apple, then answers.
type resolvingModel struct{}

func (resolvingModel) Chat(_ context.Context, req *model.Request) (*model.Response, error) {
	if len(req.Messages) == 1 {
		return &model.Response{Stop: model.StopToolUse, ToolCalls: []model.ToolCall{{ID: "c1", Name: "resolve_company", Arguments: []byte(`{"name":"Apple"}`)}}}, nil
	}
	return &model.Response{Stop: model.StopEndTurn, Text: "Apple is CIK 320193."}, nil
}

// TestCompaniesShared: Agents given one companies.Companies (as a server
// holding one for its Client gives it) read EDGAR's ticker list once for
// all their questions, even with no cache at all; Agents without it read
// it once each. The tool results are the same either way.
func TestCompaniesShared(t *testing.T) {
	const tickersURL = "https://www.sec.gov/files/company_tickers.json"
	run := func(opts func(c *edgar13f.Client) []agent.Option) (int, []string) {
		f := &countingFetcher{next: mirror.NewFetcher(edgartest.MirrorFS(t)), reads: map[string]int{}}
		c, err := edgar13f.NewClient(edgar13f.WithFetcher(f), edgar13f.WithCache(nil))
		if err != nil {
			t.Fatal(err)
		}
		o := opts(c)
		var results []string
		for range 2 {
			a, err := agent.New(c, nil, resolvingModel{}, o...)
			if err != nil {
				t.Fatal(err)
			}
			for range 2 {
				res, err := a.Ask(context.Background(), "Which CIK is Apple?", askDate, agent.ReportProgress(func(st agent.ToolStep) {
					if st.Error {
						t.Errorf("%s failed: %s", st.Name, st.Summary)
					}
					results = append(results, st.Summary)
				}))
				if err != nil || res == nil {
					t.Fatalf("Ask = %v, %v", res, err)
				}
			}
		}
		return f.Reads(tickersURL), results
	}
	shared, withShared := run(func(c *edgar13f.Client) []agent.Option {
		return []agent.Option{agent.Companies(companies.New(c))}
	})
	if shared != 1 {
		t.Errorf("two Agents sharing a companies.Companies read %s %d times over four questions; want once", tickersURL, shared)
	}
	own, withOwn := run(func(*edgar13f.Client) []agent.Option { return nil })
	if own != 2 {
		t.Errorf("two Agents of their own read %s %d times; want twice (once each)", tickersURL, own)
	}
	if len(withShared) != 4 || len(withOwn) != 4 || withShared[0] != withOwn[0] || withShared[3] != withOwn[0] {
		t.Errorf("tool results differ: shared %q, own %q", withShared, withOwn)
	}
}
