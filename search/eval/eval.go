// Package eval measures the filing search on a labelled query file: hit@1,
// hit@5 and MRR@10 per search mode, over all indexed filings and filtered
// to the labelled company, with the average time per query.
//
// A query file is a JSON array of objects with the fields of the reference
// retrieval system's published query set: "q" (the query), "ticker",
// "item" (an Item name as the filing search reads it, "7" or "II-1A";
// null or absent: any Item) and "must" (a phrase the relevant chunk
// contains, case-insensitive). A hit is relevant when its ticker is the
// label's, its Item is the one the label names in the hit's form (when
// the label names one) and its text contains the phrase.
package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/sections"
	"github.com/edgar13f/edgar13f/internal/tickers"
	"github.com/edgar13f/edgar13f/search"
)

// A Query is one labelled query.
type Query struct {
	Q      string `json:"q"`
	Ticker string `json:"ticker"`
	Item   string `json:"item,omitempty"` // "" for any Item
	Must   string `json:"must"`
}

// Load reads a query file. Every query needs q, ticker and must; an item,
// when given (not null), must be an Item name of the one vocabulary the
// filing search and Companies.Section read ("7", "Item 7", "1A", "I-2",
// "II-1A"): a label naming no Item of a 10-K or a 10-Q ("99") is refused,
// naming the query.
func Load(r io.Reader) ([]Query, error) {
	return load(r, "")
}

// LoadFile reads the query file at path as [Load] does; its errors name
// the file too.
func LoadFile(path string) ([]Query, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	defer f.Close()
	return load(f, path)
}

// load reads a query file; errors name it when name is not "".
func load(r io.Reader, name string) ([]Query, error) {
	file := "the query file"
	where := "eval: "
	if name != "" {
		file, where = name, "eval: "+name+": "
	}
	var raw []struct {
		Q      string  `json:"q"`
		Ticker string  `json:"ticker"`
		Item   *string `json:"item"`
		Must   string  `json:"must"`
	}
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("eval: reading %s: %w", file, err)
	}
	qs := make([]Query, 0, len(raw))
	for i, q := range raw {
		if strings.TrimSpace(q.Q) == "" || strings.TrimSpace(q.Ticker) == "" || q.Must == "" {
			return nil, fmt.Errorf("%squery %d needs q, ticker and must", where, i+1)
		}
		item := ""
		if q.Item != nil {
			item = *q.Item
			if _, _, _, _, err := sections.ItemsNamed(item); err != nil {
				return nil, fmt.Errorf("%squery %d (%q): %s; write null for any Item", where, i+1, q.Q, sections.NoItemMessage(item))
			}
		}
		qs = append(qs, Query{Q: q.Q, Ticker: tickers.Norm(q.Ticker), Item: item, Must: q.Must})
	}
	if len(qs) == 0 {
		return nil, fmt.Errorf("%s%s holds no query", where, file)
	}
	return qs, nil
}

// Relevant reports whether h answers q by the labels' rule. The label's
// item is read in the one vocabulary of Item names, for the hit's form: a
// label "1A" names Item 1A of a 10-K and Item II-1A of a 10-Q.
func Relevant(q Query, h search.Hit) bool {
	if tickers.Norm(h.Ticker) != tickers.Norm(q.Ticker) {
		return false
	}
	if q.Item != "" && !itemMatches(q.Item, h.Form, h.Item) {
		return false
	}
	return strings.Contains(strings.ToLower(h.Text), strings.ToLower(q.Must))
}

// itemMatches reports whether the label names item in a report of form
// (of either form when form is none with Items, as for a hit without one).
func itemMatches(label, form, item string) bool {
	if sections.FormKind(form) != sections.Unsupported {
		it, err := sections.ParseItem(form, label)
		return err == nil && it.String() == item
	}
	a, aOK, q, qOK, err := sections.ItemsNamed(label)
	return err == nil && (aOK && a.String() == item || qOK && q.String() == item)
}

// A Row is the figures of one mode and setting.
type Row struct {
	Mode     search.Mode
	Filtered bool    // queries filtered to the label's ticker
	Queries  int     // queries run
	Hit1     float64 // share of queries with a relevant hit at rank 1
	Hit5     float64 // ... within the first 5 hits
	MRR10    float64 // mean of 1/rank of the first relevant hit within 10, 0 without
	AvgMS    float64 // mean time per query in milliseconds
	Misses   []int   // indexes of the queries with no relevant hit within 10
}

// A Report is the answer of [Run].
type Report struct {
	AsOf edgar13f.Date
	Rows []Row
}

// Run searches every query with every mode, unfiltered and filtered to the
// query's ticker, as of asOf, and scores the hits. A query that fails
// fails the run: a figure is never computed from fewer queries than the
// file holds.
func Run(ctx context.Context, e *search.Engine, qs []Query, asOf edgar13f.Date, modes []search.Mode) (*Report, error) {
	return run(ctx, e, qs, asOf, modes)
}

// searcher is what run needs of an Engine.
type searcher interface {
	Search(ctx context.Context, query string, asOf edgar13f.Date, opts ...search.SearchOption) (*search.Result, error)
}

func run(ctx context.Context, e searcher, qs []Query, asOf edgar13f.Date, modes []search.Mode) (*Report, error) {
	rep := &Report{AsOf: asOf}
	for _, filtered := range []bool{false, true} {
		for _, m := range modes {
			row := Row{Mode: m, Filtered: filtered, Queries: len(qs)}
			var spent time.Duration
			for i, q := range qs {
				opts := []search.SearchOption{m, search.Limit(10)}
				if filtered {
					opts = append(opts, search.Ticker(q.Ticker))
				}
				start := time.Now()
				res, err := e.Search(ctx, q.Q, asOf, opts...)
				spent += time.Since(start)
				if err != nil {
					return nil, fmt.Errorf("eval: query %d (%q), mode %s: %w", i+1, q.Q, m, err)
				}
				rank := firstRelevant(q, res.Hits)
				switch {
				case rank == 0:
					row.Misses = append(row.Misses, i)
				default:
					row.MRR10 += 1 / float64(rank)
					if rank <= 5 {
						row.Hit5++
					}
					if rank == 1 {
						row.Hit1++
					}
				}
			}
			n := float64(len(qs))
			row.Hit1 /= n
			row.Hit5 /= n
			row.MRR10 /= n
			row.AvgMS = float64(spent.Microseconds()) / 1000 / n
			rep.Rows = append(rep.Rows, row)
		}
	}
	return rep, nil
}

// firstRelevant returns the rank (from 1) of the first relevant hit within
// the first 10, or 0.
func firstRelevant(q Query, hits []search.Hit) int {
	for i, h := range hits {
		if i == 10 {
			break
		}
		if Relevant(q, h) {
			return i + 1
		}
	}
	return 0
}

// Reference holds the reference retrieval system's published figures on
// its own 8 filings (about 2.1k chunks), for comparison: by setting
// ("unfiltered", "ticker filtered") and mode, hit@1, hit@5, MRR@10.
var Reference = map[string]map[search.Mode][3]float64{
	"unfiltered": {
		search.BM25:   {0.571, 0.857, 0.686},
		search.KNN:    {0.679, 0.857, 0.759},
		search.Hybrid: {0.679, 0.857, 0.759},
	},
	"ticker filtered": {
		search.BM25:   {0.679, 0.929, 0.772},
		search.KNN:    {0.679, 0.893, 0.779},
		search.Hybrid: {0.714, 0.929, 0.812},
	},
}

// Setting names a row's setting as [Reference] does.
func (r Row) Setting() string {
	if r.Filtered {
		return "ticker filtered"
	}
	return "unfiltered"
}

// WriteTable writes rep as a Markdown table with the reference's figures
// beside each row.
func WriteTable(w io.Writer, rep *Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "| setting | mode | queries | hit@1 | hit@5 | MRR@10 | avg ms | reference hit@1 / hit@5 / MRR@10 |\n")
	fmt.Fprintf(&b, "|---|---|---|---|---|---|---|---|\n")
	for _, r := range rep.Rows {
		ref := "n/a"
		if f, ok := Reference[r.Setting()][r.Mode]; ok {
			ref = fmt.Sprintf("%.3f / %.3f / %.3f", f[0], f[1], f[2])
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %.3f | %.3f | %.3f | %.1f | %s |\n",
			r.Setting(), r.Mode, r.Queries, r.Hit1, r.Hit5, r.MRR10, r.AvgMS, ref)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
