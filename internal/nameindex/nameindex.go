// Package nameindex is the compact index behind FindManager: every current
// and former EDGAR entity name, folded for matching, with each CIK's first
// 13F filing day and current name. It builds the index from the two EDGAR
// sources (cik-lookup-data.txt and the 13F rows of the quarterly form
// indexes), searches it, and encodes it for the cache. It knows nothing of
// freshness: the caller records when its sources were fetched in the
// Index's exported fields and decides when to rebuild.
package nameindex

import (
	"bytes"
	"cmp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/edgar13f/edgar13f/internal/ciklookup"
	"github.com/edgar13f/edgar13f/internal/civil"
	"github.com/edgar13f/edgar13f/internal/fold"
)

// A Quarter is a calendar quarter (Q 1 to 4) of EDGAR's full index.
type Quarter struct{ Year, Q int }

// Pending is a quarter whose form index could still change when the index
// was built, with the time its copy was fetched.
type Pending struct {
	Quarter Quarter
	Fetched time.Time
}

// An Index is a built name index. Its exported fields record what it was
// built from; they are kept by Encode and Decode.
type Index struct {
	NamesFetched time.Time // when the name file was fetched
	Last         Quarter   // the current quarter when built
	Pending      []Pending // quarters not final when built

	ents    []entity
	lineEnt []uint32 // entity of each line
	starts  []uint32 // start of each line in text
	text    string   // every searchable name, folded, each followed by '\n'
}

// entity is one CIK of the index.
type entity struct {
	cik    uint64
	first  civil.Day // day of the first 13F filing, when has13F
	has13F bool
	name   string
}

// A Filer is one CIK's 13F filings in one quarter: the days of its first
// and latest filing, and the accession and name of its latest row.
type Filer struct {
	CIK         uint64
	First, Last civil.Day
	Acc         string
	Name        string
}

// A Hit is a search result.
type Hit struct {
	CIK    uint64
	Name   string // the CIK's current name
	Has13F bool
}

// Build merges the name file's entries (in file order) and the 13F filers
// of every quarter (a CIK may appear once per quarter). A CIK's current name
// is the name on its latest 13F row, else the first name the name file
// lists for it; filers the name file lacks are added.
func Build(names []ciklookup.Entry, filers []Filer) *Index {
	type filed struct {
		first, last civil.Day
		acc, name   string
	}
	byCIK := map[uint64]*filed{}
	for _, r := range filers {
		a := byCIK[r.CIK]
		if a == nil {
			a = &filed{first: r.First, last: r.Last, acc: r.Acc, name: r.Name}
			byCIK[r.CIK] = a
		}
		if r.First < a.first {
			a.first = r.First
		}
		if a.name == "" || r.Last > a.last || r.Last == a.last && r.Acc > a.acc {
			a.last, a.acc, a.name = r.Last, r.Acc, r.Name
		}
	}
	// Group the name file by CIK, keeping file order within a CIK, and
	// add the 13F filers it lacks.
	entries := slices.Clone(names)
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

	x := &Index{}
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
			e.first, e.has13F, e.name = a.first, true, a.name
		}
		ent := uint32(len(x.ents))
		x.ents = append(x.ents, e)
		entStart := len(text)
		for _, n := range entries[i:j] {
			start := len(text)
			text = fold.Append(text, n.Name)
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

// Search returns the best limit entities with a name containing q, which
// must be folded (see internal/fold): 13F filers first, then by current
// name (case-insensitive), then by CIK. Has13F counts the filings made on
// or before asOf (civil.MaxDay counts them all).
func (x *Index) Search(q string, asOf civil.Day, limit int) []Hit {
	out := []Hit{}
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
		cands[i] = candidate{e: e, has13F: e.has13F && e.first <= asOf, key: strings.ToLower(e.name)}
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
		out = append(out, Hit{CIK: c.e.cik, Name: c.e.name, Has13F: c.has13F})
	}
	return out
}
