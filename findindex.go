package edgar13f

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/edgar13f/edgar13f/internal/access"
	"github.com/edgar13f/edgar13f/internal/ciklookup"
	"github.com/edgar13f/edgar13f/internal/fullindex"
	"github.com/edgar13f/edgar13f/internal/nameindex"
	"golang.org/x/sync/errgroup"
)

// This file builds FindManager's index (internal/nameindex) from two EDGAR
// sources, read through the Client's access layer:
//
//   - https://www.sec.gov/Archives/edgar/cik-lookup-data.txt, every current
//     and former entity name with its CIK (about a million lines, 40 MB);
//   - https://www.sec.gov/Archives/edgar/full-index/YYYY/QTRn/form.idx for
//     every quarter from 1993 Q1 to the clock's current quarter: the 13F
//     rows say which CIKs filed 13F-HR, 13F-HR/A, 13F-NT or 13F-NT/A, when,
//     and under which name.
//
// A cold build makes 1 + (number of quarters) requests: 137 in 2026 Q4.
// Rows of a form.idx are sorted by form type and the 13F forms come early,
// so the Client's HTTP fetcher stops reading each quarterly file after its
// 13F block (the first 10-20% of a file of tens of MB); other fetchers read
// the whole file. A missing quarterly file (404) counts as a quarter without
// 13F filings: EDGAR's earliest quarters hold none.
//
// Three kinds of cache entries keep the pieces: the parsed name file, one
// entry per quarter with its 13F filers, and the built index. A Client
// keeps the index in memory once read; another Client on the same cache
// and source reads it from disk without any request. The name file is
// fetched again once its copy is a day old; a quarter's entry is final once
// it was fetched at least two days after the quarter ended, and until then
// it is fetched again once it is a day old (cache.go holds these rules).
// Only what is stale is fetched again.

// firstQuarter is the first quarter of EDGAR's full index.
var firstQuarter = quarter{1993, 1}

// fetchParallel bounds the quarterly files fetched at once (the HTTP
// fetcher spaces request starts in any case).
const fetchParallel = 4

// A quarter is a calendar quarter of EDGAR's full index.
type quarter nameindex.Quarter

func quarterOf(d Date) quarter { return quarter{d.Year, (int(d.Month)-1)/3 + 1} }

func (q quarter) next() quarter {
	if q.Q == 4 {
		return quarter{q.Year + 1, 1}
	}
	return quarter{q.Year, q.Q + 1}
}

func (q quarter) before(r quarter) bool {
	return q.Year < r.Year || q.Year == r.Year && q.Q < r.Q
}

func (q quarter) String() string { return fmt.Sprintf("%dQ%d", q.Year, q.Q) }

// url is the quarter's form index.
func (q quarter) url() string {
	return fmt.Sprintf("%s%d/QTR%d/form.idx", fullIndexBase, q.Year, q.Q)
}

// end returns the last day of q.
func (q quarter) end() Date {
	n := q.next()
	return Date{n.Year, time.Month(n.Q*3 - 2), 1}.AddDays(-1)
}

// final reports whether a copy of q fetched at t can no longer change.
func (q quarter) final(t time.Time) bool { return quarterFinal(q.end(), t) }

// quartersThrough lists every quarter from firstQuarter to last.
func quartersThrough(last quarter) []quarter {
	var qs []quarter
	for q := firstQuarter; !last.before(q); q = q.next() {
		qs = append(qs, q)
	}
	return qs
}

// indexUsable reports whether x may answer at now: its name file and every
// quarter not final when it was built are fresh, and the quarter has not
// turned since.
func indexUsable(x *nameindex.Index, now time.Time) bool {
	if !fresh(x.NamesFetched, now) || quarter(x.Last) != quarterOf(DateOf(now.UTC())) {
		return false
	}
	for _, p := range x.Pending {
		if !quarter(p.Quarter).final(p.Fetched) && !fresh(p.Fetched, now) {
			return false
		}
	}
	return true
}

// findIndex returns an index usable now: from memory, from the cache, or
// built (refreshing only its stale parts).
func (c *Client) findIndex(ctx context.Context, progress func(Progress)) (*nameindex.Index, error) {
	now := c.clock.Now()
	if x := c.managers.Load(); x != nil && indexUsable(x, now) {
		return x, nil
	}
	v, err := c.edgar.Shared(ctx, keyFindIndex, func() (any, error) {
		if b, ok := c.edgar.Cached(ctx, keyFindIndex); ok {
			if x, err := nameindex.Decode(b); err == nil && indexUsable(x, now) {
				c.managers.Store(x)
				return x, nil
			}
		} else if err := ctx.Err(); err != nil {
			return nil, err
		}
		x, err := c.buildIndex(ctx, now, progress)
		if err != nil {
			return nil, err
		}
		c.edgar.Keep(ctx, keyFindIndex, x.Encode())
		c.managers.Store(x)
		return x, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*nameindex.Index), nil
}

// lookupNames is the parsed name file.
type lookupNames struct {
	fetched time.Time
	entries []ciklookup.Entry
}

// quarterFilers is what the index keeps of one quarterly form.idx: each
// 13F filer's first filing date in the quarter and its latest row's name.
type quarterFilers struct {
	FetchedAt time.Time      `json:"fetched_at"`
	Missing   bool           `json:"missing,omitempty"` // EDGAR answered 404
	Filers    []quarterFiler `json:"filers"`
}

type quarterFiler struct {
	CIK   uint64 `json:"cik"`
	First Date   `json:"first"`
	Last  Date   `json:"last"` // filing date of the row Name comes from
	Acc   string `json:"acc,omitempty"`
	Name  string `json:"name"`
}

// reporter serialises progress calls.
type reporter struct {
	mu sync.Mutex
	f  func(Progress)
}

func (r *reporter) report(stage string, done, total int) {
	if r.f == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.f(Progress{Stage: stage, Done: int64(done), Total: int64(total)})
}

func (c *Client) buildIndex(ctx context.Context, now time.Time, progress func(Progress)) (*nameindex.Index, error) {
	rep := &reporter{f: progress}
	rep.report("names", 0, 1)
	names, err := c.lookupNames(ctx, now)
	if err != nil {
		return nil, err
	}
	rep.report("names", 1, 1)

	last := quarterOf(DateOf(now.UTC()))
	qs := quartersThrough(last)
	filers := make([]*quarterFilers, len(qs))
	var done int
	var mu sync.Mutex
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(fetchParallel)
	rep.report("quarters", 0, len(qs))
	for i, q := range qs {
		g.Go(func() error {
			f, err := c.quarterFilers(gctx, q, now)
			if err != nil {
				return err
			}
			filers[i] = f
			mu.Lock()
			done++
			n := done
			mu.Unlock()
			rep.report("quarters", n, len(qs))
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}

	rep.report("index", 0, 1)
	var all []nameindex.Filer
	var pending []nameindex.Pending
	for i, f := range filers {
		if !qs[i].final(f.FetchedAt) {
			pending = append(pending, nameindex.Pending{Quarter: nameindex.Quarter(qs[i]), Fetched: f.FetchedAt})
		}
		for _, r := range f.Filers {
			all = append(all, nameindex.Filer{CIK: r.CIK, First: r.First.day(), Last: r.Last.day(), Acc: r.Acc, Name: r.Name})
		}
	}
	x := nameindex.Build(names.entries, all)
	x.NamesFetched, x.Last, x.Pending = names.fetched, nameindex.Quarter(last), pending
	rep.report("index", 1, 1)
	return x, nil
}

// lookupNames returns the parsed name file, from the cache while it is less
// than a day old.
func (c *Client) lookupNames(ctx context.Context, now time.Time) (*lookupNames, error) {
	if b, ok := c.edgar.Cached(ctx, keyFindNames); ok {
		if fetched, entries, err := nameindex.DecodeNames(b); err == nil && fresh(fetched, now) {
			return &lookupNames{fetched: fetched, entries: entries}, nil
		}
	}
	body, err := c.edgar.Fetch(ctx, cikLookupURL)
	if err != nil {
		return nil, err
	}
	n := &lookupNames{fetched: now}
	if err := ciklookup.Parse(bytes.NewReader(body), func(e ciklookup.Entry) error {
		n.entries = append(n.entries, e)
		return nil
	}); err != nil {
		return nil, &ParseError{Document: cikLookupURL, Err: err}
	}
	c.edgar.Keep(ctx, keyFindNames, nameindex.EncodeNames(n.fetched, n.entries))
	return n, nil
}

// quarterFilers returns the 13F filers of q, from the cache when the cached
// copy is final or less than a day old.
func (c *Client) quarterFilers(ctx context.Context, q quarter, now time.Time) (*quarterFilers, error) {
	key := keyFindQuarter + q.String()
	var cached quarterFilers
	if c.cachedJSON(ctx, key, &cached) && (q.final(cached.FetchedAt) || fresh(cached.FetchedAt, now)) {
		return &cached, nil
	}
	url := q.url()
	body, err := c.edgar.FetchPrefix(ctx, url, fullindex.Enough)
	f := &quarterFilers{FetchedAt: now}
	switch {
	case access.IsNotFound(err):
		f.Missing = true
	case err != nil:
		return nil, err
	default:
		rows, err := fullindex.Parse(body)
		if err != nil {
			return nil, &ParseError{Document: url, Err: err}
		}
		f.Filers = filersOf(rows)
	}
	c.keepJSON(ctx, key, f)
	return f, nil
}

// filersOf reduces 13F rows to one entry per CIK. Rows with impossible
// dates are left out: they cannot be placed in time.
func filersOf(rows []fullindex.Row) []quarterFiler {
	byCIK := map[uint64]*quarterFiler{}
	for _, r := range rows {
		d, ok := parseISODate(r.Date)
		if !ok {
			continue
		}
		f := byCIK[r.CIK]
		if f == nil {
			byCIK[r.CIK] = &quarterFiler{CIK: r.CIK, First: d, Last: d, Acc: r.Accession, Name: r.Company}
			continue
		}
		if d.Before(f.First) {
			f.First = d
		}
		if c := d.Compare(f.Last); c > 0 || c == 0 && r.Accession > f.Acc {
			f.Last, f.Acc, f.Name = d, r.Accession, r.Company
		}
	}
	out := make([]quarterFiler, 0, len(byCIK))
	for _, f := range byCIK {
		out = append(out, *f)
	}
	slices.SortFunc(out, func(a, b quarterFiler) int { return cmp.Compare(a.CIK, b.CIK) })
	return out
}
