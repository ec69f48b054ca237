package edgar13f

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/sync/errgroup"

	"github.com/edgar13f/edgar13f/internal/ciklookup"
	"github.com/edgar13f/edgar13f/internal/fullindex"
)

// This file answers FindManager from an index of EDGAR's entity names and
// 13F filers. The index is built from two sources:
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
// entry per quarter with its 13F filers, and the built index (names folded
// for matching plus each CIK's first 13F filing date and current name). A
// Client keeps the index in memory once read; another Client on the same
// cache reads it from disk without any request. The name file is fetched
// again once its copy is a day old; a quarter's entry is final once it was
// fetched at least two days after the quarter ended, and until then it is
// fetched again once it is a day old. Only what is stale is fetched again.

// Find query limits.
const (
	minFindLen   = 3
	maxFindLen   = 100
	defaultLimit = 10
	maxLimit     = 20
)

// EDGAR sources of the index.
const (
	cikLookupURL = "https://www.sec.gov/Archives/edgar/cik-lookup-data.txt"
	fullIndexURL = "https://www.sec.gov/Archives/edgar/full-index/"
)

// Cache keys of the index. The version in each changes with its encoding.
const (
	keyFindNames   = "find/names/v1"    // the parsed cik-lookup-data.txt
	keyFindQuarter = "find/quarter/v1/" // + "2023Q4": the 13F filers of a quarter
	keyFindIndex   = "find/index/v1"    // the built index
)

// refreshAfter is how old the cached name file and a non-final quarter may
// grow before they are fetched again.
const refreshAfter = 24 * time.Hour

// firstQuarter is the first quarter of EDGAR's full index.
var firstQuarter = quarter{1993, 1}

// fetchParallel bounds the quarterly files fetched at once (the HTTP
// fetcher spaces request starts in any case).
const fetchParallel = 4

// A Manager is a candidate answer of [Client.FindManager].
type Manager struct {
	CIK    string // without leading zeros
	Name   string // EDGAR's current name for the CIK (not as of any date)
	Has13F bool   // filed a 13F-HR, 13F-HR/A, 13F-NT or 13F-NT/A (on or before the FiledBy date when given)
}

type findOptions struct {
	asOf     Date
	asOfSet  bool
	limit    int
	limitSet bool
	progress func(Progress)
}

// A FindOption adjusts [Client.FindManager].
type FindOption func(*findOptions)

// FiledBy makes Has13F count only 13F filings visible on asOf: those whose
// filing date is on or before asOf. Names stay current.
func FiledBy(asOf Date) FindOption {
	return func(o *findOptions) { o.asOf, o.asOfSet = asOf, true }
}

// Limit sets the most candidates returned: 1 to 20, default 10.
func Limit(n int) FindOption {
	return func(o *findOptions) { o.limit, o.limitSet = n, true }
}

// ReportProgress has f called while the index is built, which happens on
// the first use of a cache and when a stale part is refreshed; it is not
// called when the index is ready. f is called from one goroutine at a time.
// When several FindManager calls wait for the same build, only the one that
// started it reports.
func ReportProgress(f func(Progress)) FindOption {
	return func(o *findOptions) { o.progress = f }
}

// A Progress reports index building. Stage is "names" (the name file:
// Done 0 then 1 of Total 1), "quarters" (Done of Total quarterly files, in
// cache or fetched) or "index" (Done 0 then 1 of Total 1).
type Progress struct {
	Stage       string
	Done, Total int
}

// FindManager returns the entities whose current or former EDGAR names
// contain name, case-insensitively and with runs of white space counted as
// one space, best first: 13F filers first, then by name (case-insensitive),
// then by CIK (numerically). name must be 3 to 100 characters once
// surrounding white space is trimmed. No match is an empty answer, not a
// decline. Names are not redacted.
//
// Names are current, not as of any date: Manager.Name is the name on the
// CIK's latest 13F row in EDGAR's quarterly form index, or, for a CIK that
// never filed a 13F, the first name cik-lookup-data.txt lists for it (that
// file gives no dates; it is sorted by name). With [FiledBy], only Has13F
// is point in time.
//
// It declines with [InvalidArgument] for a name of bad length, an invalid
// FiledBy date or a [Limit] outside 1 to 20. The first call on an empty
// cache builds the index from EDGAR (about 137 requests; see
// [ReportProgress]); later calls answer in milliseconds, also from another
// process sharing the cache.
func (c *Client) FindManager(ctx context.Context, name string, opts ...FindOption) ([]Manager, error) {
	var o findOptions
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	text := strings.TrimSpace(name)
	if n := utf8.RuneCountInString(text); n < minFindLen || n > maxFindLen || !utf8.ValidString(text) {
		return nil, declinef(InvalidArgument, "name must be %d to %d characters, not %d", minFindLen, maxFindLen, n)
	}
	if o.asOfSet {
		if err := checkDate("FiledBy date", o.asOf); err != nil {
			return nil, err
		}
	}
	limit := defaultLimit
	if o.limitSet {
		if o.limit < 1 || o.limit > maxLimit {
			return nil, declinef(InvalidArgument, "limit must be 1 to %d, not %d", maxLimit, o.limit)
		}
		limit = o.limit
	}
	x, err := c.findIndex(ctx, o.progress)
	if err != nil {
		return nil, err
	}
	var asOf int32
	if o.asOfSet {
		asOf = dayNumber(o.asOf)
	}
	return x.search(foldSpace(text), asOf, limit), nil
}

// dayNumber numbers dates from 1 on 1970-01-01 (0 means none).
func dayNumber(d Date) int32 {
	return int32(d.midnight().Unix()/86400) + 1
}

// A quarter is a calendar quarter of EDGAR's full index.
type quarter struct{ year, q int }

func quarterOf(d Date) quarter { return quarter{d.Year, (int(d.Month)-1)/3 + 1} }

func (q quarter) next() quarter {
	if q.q == 4 {
		return quarter{q.year + 1, 1}
	}
	return quarter{q.year, q.q + 1}
}

func (q quarter) before(r quarter) bool {
	return q.year < r.year || q.year == r.year && q.q < r.q
}

func (q quarter) String() string { return fmt.Sprintf("%dQ%d", q.year, q.q) }

func (q quarter) url() string {
	return fmt.Sprintf("%s%d/QTR%d/form.idx", fullIndexURL, q.year, q.q)
}

// end returns the last day of q.
func (q quarter) end() Date {
	n := q.next()
	return Date{n.year, time.Month(n.q*3 - 2), 1}.AddDays(-1)
}

// final reports whether a copy of q fetched at t can no longer change:
// it was fetched at least two days after q ended.
func (q quarter) final(t time.Time) bool {
	return !DateOf(t.UTC()).Before(q.end().AddDays(listFreshAfter))
}

// quartersThrough lists every quarter from firstQuarter to last.
func quartersThrough(last quarter) []quarter {
	var qs []quarter
	for q := firstQuarter; !last.before(q); q = q.next() {
		qs = append(qs, q)
	}
	return qs
}

// fresh reports whether a copy fetched at t may still be used at now.
func fresh(t, now time.Time) bool { return now.Sub(t) < refreshAfter }

// ---- the built index ----

// nameIndex is the built index. text holds every searchable name, folded,
// each followed by '\n'; line i starts at starts[i] and names entity
// lineEnt[i].
type nameIndex struct {
	namesFetched time.Time
	last         quarter          // the clock's quarter when built
	pending      []pendingQuarter // quarters not final when built
	ents         []entity
	lineEnt      []uint32
	starts       []uint32
	text         string
}

// pendingQuarter is a quarter whose copy was not final when the index was
// built, with the time that copy was fetched.
type pendingQuarter struct {
	q       quarter
	fetched time.Time
}

// entity is one CIK of the index.
type entity struct {
	cik   uint64
	first int32 // dayNumber of the first 13F filing; 0 when none
	name  string
}

// usable reports whether x may answer at now.
func (x *nameIndex) usable(now time.Time) bool {
	if !fresh(x.namesFetched, now) || x.last != quarterOf(DateOf(now.UTC())) {
		return false
	}
	for _, p := range x.pending {
		if !p.q.final(p.fetched) && !fresh(p.fetched, now) {
			return false
		}
	}
	return true
}

// search returns the best limit entities with a name containing q (folded).
// asOf, a dayNumber, limits Has13F when not 0.
func (x *nameIndex) search(q string, asOf int32, limit int) []Manager {
	out := []Manager{}
	if q == "" || strings.ContainsAny(q, "\n") {
		return out
	}
	var hits []uint32 // lines of one entity are adjacent, so are its hits
	for off := 0; off < len(x.text); {
		i := strings.Index(x.text[off:], q)
		if i < 0 {
			break
		}
		pos := uint32(off + i)
		line := sort.Search(len(x.starts), func(j int) bool { return x.starts[j] > pos }) - 1
		if e := x.lineEnt[line]; len(hits) == 0 || hits[len(hits)-1] != e {
			hits = append(hits, e)
		}
		off = len(x.text)
		if line+1 < len(x.starts) {
			off = int(x.starts[line+1])
		}
	}
	type candidate struct {
		e      *entity
		has13F bool
		key    string // lower-case name
	}
	cands := make([]candidate, len(hits))
	for i, h := range hits {
		e := &x.ents[h]
		cands[i] = candidate{e: e, has13F: e.first != 0 && (asOf == 0 || e.first <= asOf), key: strings.ToLower(e.name)}
	}
	slices.SortFunc(cands, func(a, b candidate) int {
		if a.has13F != b.has13F {
			if a.has13F {
				return -1
			}
			return 1
		}
		if c := strings.Compare(a.key, b.key); c != 0 {
			return c
		}
		return cmp.Compare(a.e.cik, b.e.cik)
	})
	for _, c := range cands[:min(limit, len(cands))] {
		out = append(out, Manager{CIK: strconv.FormatUint(c.e.cik, 10), Name: c.e.name, Has13F: c.has13F})
	}
	return out
}

// ---- building ----

// findIndex returns an index usable now: from memory, from the cache, or
// built (refreshing only its stale parts).
func (c *Client) findIndex(ctx context.Context, progress func(Progress)) (*nameIndex, error) {
	now := c.clock.Now()
	if x := c.managers.Load(); x != nil && x.usable(now) {
		return x, nil
	}
	v, err := c.shared(ctx, keyFindIndex, func() (any, error) {
		if b, err := c.cache.Get(ctx, keyFindIndex); err == nil {
			if x, err := decodeIndex(b); err == nil && x.usable(now) {
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
		c.storeBytes(ctx, keyFindIndex, x.encode())
		c.managers.Store(x)
		return x, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*nameIndex), nil
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
	r.f(Progress{Stage: stage, Done: done, Total: total})
}

func (c *Client) buildIndex(ctx context.Context, now time.Time, progress func(Progress)) (*nameIndex, error) {
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
	x := newIndex(names, qs, filers)
	x.last = last
	rep.report("index", 1, 1)
	return x, nil
}

// lookupNames returns the parsed name file, from the cache while it is less
// than a day old.
func (c *Client) lookupNames(ctx context.Context, now time.Time) (*lookupNames, error) {
	if b, err := c.cache.Get(ctx, keyFindNames); err == nil {
		if n, err := decodeNames(b); err == nil && fresh(n.fetched, now) {
			return n, nil
		}
	}
	body, err := c.fetcher.Fetch(ctx, cikLookupURL)
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
	c.storeBytes(ctx, keyFindNames, n.encode())
	return n, nil
}

// quarterFilers returns the 13F filers of q, from the cache when the cached
// copy is final or less than a day old.
func (c *Client) quarterFilers(ctx context.Context, q quarter, now time.Time) (*quarterFilers, error) {
	key := keyFindQuarter + q.String()
	if b, err := c.cache.Get(ctx, key); err == nil {
		var f quarterFilers
		if json.Unmarshal(b, &f) == nil && (q.final(f.FetchedAt) || fresh(f.FetchedAt, now)) {
			return &f, nil
		}
	}
	url := q.url()
	body, err := fetchPrefix(ctx, c.fetcher, url, fullindex.Enough)
	f := &quarterFilers{FetchedAt: now}
	switch {
	case isNotFound(err):
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
	c.store(ctx, key, f)
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

// newIndex merges the name file and the quarters' 13F filers.
func newIndex(names *lookupNames, qs []quarter, filers []*quarterFilers) *nameIndex {
	type filed struct {
		first int32
		last  Date
		acc   string
		name  string
	}
	x := &nameIndex{namesFetched: names.fetched}
	byCIK := map[uint64]*filed{}
	for i, f := range filers {
		if !qs[i].final(f.FetchedAt) {
			x.pending = append(x.pending, pendingQuarter{q: qs[i], fetched: f.FetchedAt})
		}
		for _, r := range f.Filers {
			a := byCIK[r.CIK]
			if a == nil {
				a = &filed{}
				byCIK[r.CIK] = a
			}
			if d := dayNumber(r.First); a.first == 0 || d < a.first {
				a.first = d
			}
			if c := r.Last.Compare(a.last); a.name == "" || c > 0 || c == 0 && r.Acc > a.acc {
				a.last, a.acc, a.name = r.Last, r.Acc, r.Name
			}
		}
	}
	// Group the name file by CIK, keeping file order within a CIK, and
	// add the 13F filers it lacks.
	entries := slices.Clone(names.entries)
	for cik, a := range byCIK {
		entries = append(entries, ciklookup.Entry{CIK: cik, Name: a.name})
	}
	order := make([]int32, len(entries))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		if c := cmp.Compare(entries[a].CIK, entries[b].CIK); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	sorted := make([]ciklookup.Entry, len(entries))
	for i, k := range order {
		sorted[i] = entries[k]
	}
	entries = sorted

	x.starts = make([]uint32, 0, len(entries))
	x.lineEnt = make([]uint32, 0, len(entries))
	text := make([]byte, 0, 32*len(entries))
	for i := 0; i < len(entries); {
		cik := entries[i].CIK
		j := i + 1
		for j < len(entries) && entries[j].CIK == cik {
			j++
		}
		e := entity{cik: cik, name: entries[i].Name}
		if a := byCIK[cik]; a != nil {
			e.first, e.name = a.first, a.name
		}
		ent := uint32(len(x.ents))
		x.ents = append(x.ents, e)
		entStart := len(text)
		for _, n := range entries[i:j] {
			start := len(text)
			text = appendFold(text, n.Name)
			if len(text) == start || containsLine(text[entStart:start], text[start:]) {
				text = text[:start]
				continue
			}
			text = append(text, '\n')
			x.starts = append(x.starts, uint32(start))
			x.lineEnt = append(x.lineEnt, ent)
		}
		i = j
	}
	x.text = string(text)
	return x
}

// containsLine reports whether lines, names each followed by '\n', holds line.
func containsLine(lines, line []byte) bool {
	for len(lines) > 0 {
		i := bytes.IndexByte(lines, '\n')
		if bytes.Equal(lines[:i], line) {
			return true
		}
		lines = lines[i+1:]
	}
	return false
}

// appendFold appends foldSpace(s) to b, without allocating for ASCII names.
func appendFold(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return append(b, foldSpace(s)...)
		}
	}
	space := false
	start := len(b)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || '\t' <= c && c <= '\r':
			space = true
			continue
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		if space && len(b) > start {
			b = append(b, ' ')
		}
		space = false
		b = append(b, c)
	}
	return b
}

// ---- encodings ----

const (
	namesMagic = "edgar13f names v1\n"
	indexMagic = "edgar13f find index v1\n"
)

var errBadEncoding = errors.New("edgar13f: bad find index encoding")

// decoder reads the uvarint encodings of the cached index and names.
type decoder struct {
	s   string
	off int
	err error
}

func (d *decoder) uint() uint64 {
	if d.err != nil {
		return 0
	}
	var v uint64
	for shift := 0; shift < 64; shift += 7 {
		if d.off >= len(d.s) {
			break
		}
		c := d.s[d.off]
		d.off++
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v
		}
	}
	d.err = errBadEncoding
	return 0
}

func (d *decoder) str() string {
	n := d.uint()
	if d.err != nil || n > uint64(len(d.s)-d.off) {
		d.err = errBadEncoding
		return ""
	}
	s := d.s[d.off : d.off+int(n)]
	d.off += int(n)
	return s
}

func (d *decoder) time() time.Time { return time.Unix(0, int64(d.uint())) }

// count reads a length that cannot exceed the bytes left.
func (d *decoder) count() int {
	n := d.uint()
	if n > uint64(len(d.s)-d.off) {
		d.err = errBadEncoding
		return 0
	}
	return int(n)
}

func appendStr(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

func appendTime(b []byte, t time.Time) []byte { return binary.AppendUvarint(b, uint64(t.UnixNano())) }

func (n *lookupNames) encode() []byte {
	b := []byte(namesMagic)
	b = appendTime(b, n.fetched)
	b = binary.AppendUvarint(b, uint64(len(n.entries)))
	for _, e := range n.entries {
		b = binary.AppendUvarint(b, e.CIK)
		b = appendStr(b, e.Name)
	}
	return b
}

func decodeNames(b []byte) (*lookupNames, error) {
	s, ok := strings.CutPrefix(string(b), namesMagic)
	if !ok {
		return nil, errBadEncoding
	}
	d := &decoder{s: s}
	n := &lookupNames{fetched: d.time()}
	n.entries = make([]ciklookup.Entry, d.count())
	for i := range n.entries {
		n.entries[i] = ciklookup.Entry{CIK: d.uint(), Name: d.str()}
	}
	if d.err != nil || d.off != len(s) {
		return nil, errBadEncoding
	}
	return n, nil
}

func (x *nameIndex) encode() []byte {
	b := []byte(indexMagic)
	b = appendTime(b, x.namesFetched)
	b = binary.AppendUvarint(b, uint64(x.last.year))
	b = binary.AppendUvarint(b, uint64(x.last.q))
	b = binary.AppendUvarint(b, uint64(len(x.pending)))
	for _, p := range x.pending {
		b = binary.AppendUvarint(b, uint64(p.q.year))
		b = binary.AppendUvarint(b, uint64(p.q.q))
		b = appendTime(b, p.fetched)
	}
	b = binary.AppendUvarint(b, uint64(len(x.ents)))
	for _, e := range x.ents {
		b = binary.AppendUvarint(b, e.cik)
		b = binary.AppendUvarint(b, uint64(e.first))
		b = appendStr(b, e.name)
	}
	b = binary.AppendUvarint(b, uint64(len(x.lineEnt)))
	for _, e := range x.lineEnt {
		b = binary.AppendUvarint(b, uint64(e))
	}
	return appendStr(b, x.text)
}

func decodeIndex(b []byte) (*nameIndex, error) {
	s, ok := strings.CutPrefix(string(b), indexMagic)
	if !ok {
		return nil, errBadEncoding
	}
	d := &decoder{s: s}
	x := &nameIndex{namesFetched: d.time()}
	x.last = quarter{int(d.uint()), int(d.uint())}
	x.pending = make([]pendingQuarter, d.count())
	for i := range x.pending {
		x.pending[i] = pendingQuarter{q: quarter{int(d.uint()), int(d.uint())}, fetched: d.time()}
	}
	x.ents = make([]entity, d.count())
	for i := range x.ents {
		x.ents[i] = entity{cik: d.uint(), first: int32(d.uint()), name: d.str()}
	}
	x.lineEnt = make([]uint32, d.count())
	for i := range x.lineEnt {
		if e := d.uint(); e < uint64(len(x.ents)) {
			x.lineEnt[i] = uint32(e)
		} else {
			d.err = errBadEncoding
		}
	}
	x.text = d.str()
	if d.err != nil || d.off != len(s) || len(x.text) > 1<<32-1 {
		return nil, errBadEncoding
	}
	x.starts = make([]uint32, 0, len(x.lineEnt))
	for off := 0; off < len(x.text); {
		x.starts = append(x.starts, uint32(off))
		i := strings.IndexByte(x.text[off:], '\n')
		if i < 0 {
			return nil, errBadEncoding
		}
		off += i + 1
	}
	if len(x.starts) != len(x.lineEnt) {
		return nil, errBadEncoding
	}
	return x, nil
}
