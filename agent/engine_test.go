package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/agent"
	"github.com/edgar13f/edgar13f/internal/edgartest"
	"github.com/edgar13f/edgar13f/mirror"
	"github.com/edgar13f/edgar13f/search"
	"github.com/edgar13f/edgar13f/search/store/embedded"
)

// nvidiaFiled is the day NVIDIA filed its 10-K for fiscal 2025.
var nvidiaFiled = edgar13f.MustParseDate("2025-02-26")

// newEngine indexes the 10-Ks of Apple and NVIDIA in the mirror into an
// embedded store (BM25 only).
func newEngine(t *testing.T) (*edgar13f.Client, *search.Engine) {
	t.Helper()
	c, e := mirrorEngine(t)
	if _, err := e.Index(context.Background(), []string{"AAPL", "NVDA"}, nvidiaFiled, search.FormType("10-K")); err != nil {
		t.Fatal(err)
	}
	return c, e
}

// hitsOf decodes the hits of a search_filings or get_chunk result.
func hitsOf(t *testing.T, content string) []map[string]any {
	var r struct {
		Hits      []map[string]any `json:"hits"`
		Chunk     map[string]any   `json:"chunk"`
		Neighbors []map[string]any `json:"neighbors"`
	}
	if err := json.Unmarshal([]byte(content), &r); err != nil {
		return nil
	}
	if r.Chunk != nil {
		return append([]map[string]any{r.Chunk}, r.Neighbors...)
	}
	return r.Hits
}

// The tool loop over the real filing search: the model's filters reach
// the Engine, the answer cites the chunk the search returned, and on the
// day before NVIDIA filed its 10-K neither the search nor get_chunk lets
// any of it through.
func TestAskWithEngine(t *testing.T) {
	c, e := newEngine(t)
	const phrase = "Revenue for fiscal year 2025 was $130.5 billion"
	var cited string // the chunk the model cited on the filing date
	eachWire(t, func(t *testing.T, w wire) {
		// A model that cites the hit holding the phrase, if there is one.
		answer := func(r sent) turn {
			for _, res := range r.lastResults() {
				for _, h := range hitsOf(t, res.Content) {
					if strings.Contains(h["text"].(string), phrase) {
						cited = h["chunk_id"].(string)
						return turn{text: fmt.Sprintf("NVIDIA's revenue for fiscal year 2025 was $130.5 billion, up 114%% [c:%s].", cited)}
					}
				}
			}
			return turn{text: fmt.Sprintf("NVIDIA's revenue for fiscal year 2025 was $130.5 billion [c:%s].", cited)}
		}
		s := newScripted(t, w,
			turn{calls: []call{{"c1", "search_filings", `{"query":"revenue for fiscal year 2025 was","ticker":"NVDA","item":"Item 7","form":"10-K","fiscal_year":2025,"k":5}`}}},
			turn{fn: answer},
		)
		a, err := agent.New(c, e, s.model())
		if err != nil {
			t.Fatal(err)
		}
		res, err := a.Ask(context.Background(), "What was NVIDIA's revenue for fiscal 2025?", nvidiaFiled)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != agent.StatusAnswered || len(res.Citations) != 1 {
			t.Fatalf("Ask = %s %q; citations %+v, grounding %+v, invalid %v", res.Status, res.Answer, res.Citations, res.Grounding, res.InvalidCitations)
		}
		cit := res.Citations[0]
		if cit.Accession != "0001045810-25-000023" || cit.Item != "7" || cit.Ticker != "NVDA" || cit.FiscalYear != 2025 || !strings.HasSuffix(cit.URL, ".htm") {
			t.Errorf("citation %+v", cit)
		}
		for _, h := range hitsOf(t, s.requests()[1].lastResults()[0].Content) {
			if h["ticker"] != "NVDA" || h["item"] != "7" || h["form"] != "10-K" || h["fiscal_year"] != 2025.0 {
				t.Errorf("a hit passed the filters it should not: %v %v %v %v", h["ticker"], h["item"], h["form"], h["fiscal_year"])
			}
		}

		// The day before the filing: nothing of it, even by its chunk id.
		s = newScripted(t, w,
			turn{calls: []call{
				{"c1", "search_filings", `{"query":"revenue for fiscal year 2025 was","ticker":"NVDA"}`},
				{"c2", "get_chunk", args(`{"chunk_id":%q}`, cited)},
			}},
			turn{fn: answer},
			turn{fn: answer},
		)
		a, err = agent.New(c, e, s.model())
		if err != nil {
			t.Fatal(err)
		}
		res, err = a.Ask(context.Background(), "What was NVIDIA's revenue for fiscal 2025?", nvidiaFiled.AddDays(-1))
		if err != nil {
			t.Fatal(err)
		}
		results := s.requests()[1].lastResults()
		if n := len(hitsOf(t, results[0].Content)); n != 0 || strings.Contains(results[0].Content, "0001045810-25-000023") {
			t.Errorf("the search the day before returned %d hits: %.300s", n, results[0].Content)
		}
		if !results[1].IsError || !strings.Contains(results[1].Content, "not_yet_filed") || strings.Contains(results[1].Content, "130.5") {
			t.Errorf("get_chunk the day before = %+v", results[1])
		}
		if res.Status != agent.StatusUngrounded || len(res.InvalidCitations) != 1 || res.InvalidCitations[0] != "c:"+cited {
			t.Errorf("Ask the day before = %s, invalid %v; want ungrounded citing %s", res.Status, res.InvalidCitations, cited)
		}
	})
}

// mirrorEngine returns a Client over the recorded mirror and a filing
// search over an empty embedded store (BM25 only) in a temporary directory.
func mirrorEngine(t *testing.T) (*edgar13f.Client, *search.Engine) {
	t.Helper()
	dir := t.TempDir()
	c, err := edgar13f.NewClient(edgar13f.WithFetcher(mirror.NewFetcher(edgartest.MirrorFS(t))), edgar13f.WithCacheDir(filepath.Join(dir, "cache")))
	if err != nil {
		t.Fatal(err)
	}
	st, err := embedded.Open(filepath.Join(dir, "search"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	e, err := search.New(c, st)
	if err != nil {
		t.Fatal(err)
	}
	return c, e
}
