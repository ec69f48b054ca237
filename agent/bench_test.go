package agent_test

import (
	"context"
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f/agent"
	"github.com/edgar13f/edgar13f/companies"
)

// BenchmarkGround checks a five-sentence answer with ten figures against
// Items 7 and 8 of Apple's 10-K for fiscal 2024 (about 40 KB of text with
// its tables), as if the answer cited both whole Items.
func BenchmarkGround(b *testing.B) {
	c := mirrorClient(b)
	var sources []agent.Source
	size := 0
	for _, item := range []string{"7", "8"} {
		s, err := companies.New(c).Section(context.Background(), "320193", appleAccession, item, askDate, companies.MaxChars(companies.MaxSectionChars))
		if err != nil {
			b.Fatal(err)
		}
		sources = append(sources, agent.Source{ID: "c:item" + item, Text: s.Text})
		size += len(s.Text)
	}
	answer := "Apple's total net sales for fiscal 2024 were $391,035 million [c:item7], up 2% from $383,285 million. " +
		"Services net sales were $96,169 million, up 13% [c:item7]. Greater China net sales changed (8)% [c:item7]. " +
		"The effective tax rate was 24.1% [c:item7], and net income was $93,736 million [c:item8]. " +
		"Cash and marketable securities totaled $140.8 billion as of September 28, 2024 [c:item7]; about $400 billion in sales."
	g := agent.Ground(answer, sources)
	if len(g.Numbers) != 11 || len(g.Ungrounded) != 1 {
		b.Fatalf("grounding %+v", g)
	}
	b.SetBytes(int64(size + len(answer)))
	b.ReportAllocs()
	for b.Loop() {
		agent.Ground(answer, sources)
	}
}

// BenchmarkGroundAnswerOnly is the part of the check that depends on the
// answer alone: a 4 KB answer without sources.
func BenchmarkGroundAnswerOnly(b *testing.B) {
	answer := strings.Repeat("Services net sales were $96,169 million, up 13% [c:0123456789abcdef], as of September 28, 2024. ", 40)
	b.SetBytes(int64(len(answer)))
	b.ReportAllocs()
	for b.Loop() {
		agent.Ground(answer, nil)
	}
}
