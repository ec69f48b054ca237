package agent_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/agent"
	"github.com/edgar13f/edgar13f/agent/model"
	"github.com/edgar13f/edgar13f/internal/edgartest"
	"github.com/edgar13f/edgar13f/mirror"
)

// recordingModel records the token limit of each request and fails it, so
// that an Ask that passed its checks ends at the first model turn.
type recordingModel struct{ maxTokens []int }

var errModelReached = errors.New("the model was asked")

func (m *recordingModel) Chat(_ context.Context, req *model.Request) (*model.Response, error) {
	m.maxTokens = append(m.maxTokens, req.MaxTokens)
	return nil, errModelReached
}

// TestOptionsCheckedByTheMethod: options are values applied in order, the
// last of a kind winning; New and Ask check what they end with, declining
// a value out of range with invalid_argument that names the option and
// its range. Building an option with a bad value is no error by itself.
func TestOptionsCheckedByTheMethod(t *testing.T) {
	c, err := edgar13f.NewClient(edgar13f.WithCache(nil), edgar13f.WithFetcher(mirror.NewFetcher(edgartest.MirrorFS(t))))
	if err != nil {
		t.Fatal(err)
	}
	m := &recordingModel{}
	bad := []agent.Option{agent.Limit(0), agent.Limit(agent.MaxTurns + 1), agent.MaxTokens(0), agent.Tickers("A B")}
	a, err := agent.New(c, nil, m, append(bad, agent.Limit(agent.MaxTurns), agent.MaxTokens(100), agent.Tickers("nvda"))...)
	if err != nil {
		t.Fatalf("New with bad options overridden by good ones = %v; want an Agent", err)
	}
	for _, tc := range []struct {
		opt  agent.Option
		want string
	}{
		{agent.Limit(0), "Limit 0 is outside 1 to 32"},
		{agent.Limit(agent.MaxTurns + 1), "Limit 33 is outside 1 to 32"},
		{agent.MaxTokens(-1), "MaxTokens -1 is outside 1 to 64000"},
		{agent.Tickers("A B"), `ticker "A B"`},
	} {
		if _, err := agent.New(c, nil, m, tc.opt); !errors.Is(err, edgar13f.InvalidArgument) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New: %v; want invalid_argument saying %q", err, tc.want)
		}
		if _, err := a.Ask(context.Background(), "q", edgar13f.MustParseDate("2025-01-15"), tc.opt); !errors.Is(err, edgar13f.InvalidArgument) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Ask: %v; want invalid_argument saying %q", err, tc.want)
		}
	}
	if len(m.maxTokens) != 0 {
		t.Fatalf("the model was asked %d times by declined questions", len(m.maxTokens))
	}
	_, err = a.Ask(context.Background(), "q", edgar13f.MustParseDate("2025-01-15"), agent.MaxTokens(0), agent.MaxTokens(200))
	if !errors.Is(err, errModelReached) || len(m.maxTokens) != 1 || m.maxTokens[0] != 200 {
		t.Errorf("Ask with MaxTokens(0) then MaxTokens(200) = %v, token limits %v; want the model asked with 200", err, m.maxTokens)
	}
}
