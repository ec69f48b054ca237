package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/agent"
	"github.com/edgar13f/edgar13f/agent/model"
	"github.com/edgar13f/edgar13f/companies"
	"github.com/edgar13f/edgar13f/search"
)

// AskDisclaimer is carried by every ask_filings answer and decline.
const AskDisclaimer = "Answered by a language model from 10-K and 10-Q text and XBRL facts filed with the SEC on or before as_of; " +
	"every figure of an answered answer is written in a source it cites. Any status other than \"answered\" is not an answer."

// groundNumber writes one figure of a grounding check.
func (w *writer) groundNumber(n agent.Number) {
	w.str("text", n.Text)
	w.str("kind", string(n.Kind))
	w.str("value", n.Value)
	w.strOrNull("source", n.Source)
	w.strOrNull("hint", n.Hint)
}

// raw writes v, a JSON value as a model wrote it, compacted; what is not
// JSON (a model's slip) is written as a string.
func (w *writer) raw(k string, v json.RawMessage) {
	var buf bytes.Buffer
	if len(v) > 0 && json.Compact(&buf, v) == nil {
		w.key(k)
		if w.inText {
			// Inside a JSON string: escaped once more, as string does.
			w.b = appendEscaped(w.b, buf.Bytes(), true)
		} else {
			w.b = append(w.b, buf.Bytes()...)
		}
		return
	}
	w.str(k, string(v))
}

// WriteAsk writes the ask_filings answer. The status is the agent's
// (answered, ungrounded, turn_limit, refused, truncated, no_answer); only
// an answered question has an answer, the model's last text of any other
// is written as draft, for inspection.
func WriteAsk(w io.Writer, r *agent.Result) error {
	o := newWriter(w)
	o.headWith(string(r.Status), AskDisclaimer)
	o.str("question", r.Question)
	o.str("as_of", date(r.AsOf))
	if r.Status == agent.StatusAnswered {
		o.str("answer", r.Answer)
		o.strOrNull("draft", "")
	} else {
		o.strOrNull("answer", "")
		o.strOrNull("draft", r.Answer)
	}
	o.array("citations", len(r.Citations), func(i int) {
		c := r.Citations[i]
		o.str("kind", string(c.Kind))
		o.strOrNull("chunk_id", c.ChunkID)
		o.str("accession_number", c.Accession)
		o.strOrNull("item", c.Item)
		o.str("url", c.URL)
		o.str("company", c.Company)
		o.strOrNull("ticker", c.Ticker)
		o.str("form", c.Form)
		o.strOrNull("filing_date", date(c.FilingDate))
	})
	o.strs("invalid_citations", nonNil(r.InvalidCitations))
	o.key("grounding")
	o.open()
	o.int("numbers", int64(len(r.Grounding.Numbers)))
	g := r.Grounding
	o.array("grounded", len(g.Grounded), func(i int) { o.groundNumber(g.Grounded[i]) })
	o.array("ungrounded", len(g.Ungrounded), func(i int) { o.groundNumber(g.Ungrounded[i]) })
	o.close()
	o.bool("repaired", r.Repaired)
	o.int("turns", int64(r.Turns))
	o.array("tool_calls", len(r.ToolCalls), func(i int) {
		c := r.ToolCalls[i]
		o.int("turn", int64(c.Turn))
		o.str("name", c.Name)
		o.raw("arguments", c.Arguments)
		o.str("summary", c.Summary)
		o.bool("error", c.Error)
	})
	o.key("usage")
	o.open()
	o.int("input_tokens", r.Usage.InputTokens)
	o.int("output_tokens", r.Usage.OutputTokens)
	o.close()
	o.str("model", r.Model)
	o.close()
	return o.done()
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// StepLine says in a line what a tool step of the agent did, for progress
// notes: the tool, the company it concerned when its arguments name one,
// and what it returned. The summary of a tool that answered restates its
// arguments (the query, the name, the chunk id, the CIK and concept), so
// they are written once, by it; a failed step's summary says only how it
// failed, so the arguments come first.
func StepLine(st agent.ToolStep) string {
	var a struct {
		Query   string `json:"query"`
		Ticker  string `json:"ticker"`
		CIK     string `json:"cik"`
		Name    string `json:"name"`
		Concept string `json:"concept"`
		ChunkID string `json:"chunk_id"`
	}
	_ = json.Unmarshal(st.Arguments, &a)
	line := st.Name
	if st.Summary != "" && !st.Error {
		if a.Ticker != "" {
			line += " " + a.Ticker
		}
		return line + " " + st.Summary
	}
	for _, who := range []string{a.Ticker, a.Name, a.CIK} {
		if who != "" {
			line += " " + who
			break
		}
	}
	switch {
	case a.Query != "":
		line += " " + strconvQuote(a.Query)
	case a.Concept != "":
		line += " " + a.Concept
	case a.ChunkID != "":
		line += " " + a.ChunkID
	}
	if st.Summary != "" {
		line += ": " + st.Summary
	}
	if st.Error {
		line += " (failed)"
	}
	return line
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// Ask answers question as of asOf with model over the filing search e and
// the company data of c (read through cs when not nil: a server's
// companies.Companies of c, shared by its answers), as the binaries do: the companies of tickers
// (none: every indexed one) have their newest 10-K filed by asOf indexed
// first, then the agent is asked with the search limited to them.
// progress, when not nil, is called with a step number from 1 and a line
// for each filing indexed and each tool call of the model.
func Ask(ctx context.Context, c *edgar13f.Client, cs *companies.Companies, e *search.Engine, model model.Model, question string, asOf edgar13f.Date, tickers []string, progress func(step int, line string)) (*agent.Result, error) {
	step := 0
	note := func(line string) {
		if progress != nil {
			step++
			progress(step, line)
		}
	}
	if len(tickers) > 0 {
		done := 0
		_, err := e.Index(ctx, tickers, asOf, search.ReportProgress(func(p search.Progress) {
			// Index reports before and after each filing: one line, once
			// it is indexed.
			if p.Accession != "" && p.Filings > done {
				done = p.Filings
				note(fmt.Sprintf("index_filings %s: filing %s", p.Company, p.Accession))
			}
		}))
		if err != nil {
			return nil, err
		}
	}
	a, err := agent.New(c, e, model, agent.Companies(cs), agent.Tickers(tickers...), agent.ReportProgress(func(st agent.ToolStep) { note(StepLine(st)) }))
	if err != nil {
		return nil, err
	}
	return a.Ask(ctx, question, asOf)
}
