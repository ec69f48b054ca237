package companyfacts

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/edgar13f/edgar13f/internal/civil"
	"github.com/edgar13f/edgar13f/internal/edgartest/edgarfiles"
	"github.com/edgar13f/edgar13f/internal/jsonscan"
)

// This file holds an independent reference for Decode, built on
// encoding/json, and the helpers the tests share.

var mirrorDir = edgarfiles.Mirror + "/data.sec.gov/api/xbrl/companyfacts/"

// realFiles are the companyfacts documents of the test mirror.
var realFiles = []string{"CIK0000320193", "CIK0001045810", "CIK0001640147", "CIK0001997711"}

func readReal(tb testing.TB, name string) []byte {
	tb.Helper()
	b, err := os.ReadFile(mirrorDir + name + ".json")
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

var decoded sync.Map // file name -> *Facts

// decodeReal returns a real document decoded (once; Facts is immutable).
func decodeReal(tb testing.TB, name string) *Facts {
	tb.Helper()
	if f, ok := decoded.Load(name); ok {
		return f.(*Facts)
	}
	f, err := Decode(readReal(tb, name))
	if err != nil {
		tb.Fatal(err)
	}
	decoded.Store(name, f)
	return f
}

// refDoc is a companyfacts document as encoding/json decodes it.
type refDoc struct {
	CIK        json.RawMessage              `json:"cik"`
	EntityName *string                      `json:"entityName"`
	Facts      map[string]map[string]refTag `json:"facts"`
}

type refTag struct {
	Label       json.RawMessage      `json:"label"`
	Description json.RawMessage      `json:"description"`
	Units       map[string][]refFact `json:"units"`
}

type refFact struct {
	Start *string         `json:"start,omitempty"`
	End   *string         `json:"end,omitempty"`
	Val   json.RawMessage `json:"val,omitempty"`
	Accn  *string         `json:"accn,omitempty"`
	FY    json.RawMessage `json:"fy,omitempty"`
	FP    json.RawMessage `json:"fp,omitempty"`
	Form  *string         `json:"form,omitempty"`
	Filed *string         `json:"filed,omitempty"`
	Frame json.RawMessage `json:"frame,omitempty"`
}

// summary is what a decode keeps, in a form two decoders can be compared by.
type summary struct {
	CIK, Name string
	Tags      []string // "tax:name first=day"
	Units     []string // "tax:name|unit first=day"
	Facts     []string // "tax:name|unit|accn|form|filed|fyEnd|start|end|val", sorted
}

// refSummary decodes data with encoding/json and applies Decode's rules.
func refSummary(data []byte) (summary, error) {
	var d refDoc
	if err := json.Unmarshal(data, &d); err != nil {
		return summary{}, err
	}
	var s summary
	if d.CIK == nil || string(d.CIK) == "null" {
		return s, errors.New("no cik")
	}
	cik, ok := parseCIK(d.CIK)
	if !ok {
		return s, errors.New("bad cik")
	}
	s.CIK = cik
	if d.EntityName != nil {
		s.Name = strings.ToValidUTF8(*d.EntityName, "\uFFFD")
	}
	type kept struct {
		tag, unit, accn, form string
		filed, start, end     civil.Day
		val                   string
	}
	var facts []kept
	fy := map[string][2]civil.Day{} // accn|form|filed -> max duration end, max non-dei instant end
	for tax, tags := range d.Facts {
		for name, t := range tags {
			first := civil.Day(0)
			for unit, fs := range t.Units {
				ufirst := civil.Day(0)
				for _, x := range fs {
					if x.Filed == nil || x.Form == nil {
						return s, errors.New("no filed or form")
					}
					fd, ok := civil.ParseISO((*x.Filed))
					if !ok || fd <= 0 {
						return s, errors.New("bad filed")
					}
					if first == 0 || fd < first {
						first = fd
					}
					if ufirst == 0 || fd < ufirst {
						ufirst = fd
					}
					if !AnnualForm(*x.Form) {
						continue
					}
					if x.End == nil || x.Accn == nil || x.Val == nil || !jsonscan.IsNumber(x.Val) {
						return s, errors.New("bad kept fact")
					}
					ed, ok := civil.ParseISO((*x.End))
					if !ok {
						return s, errors.New("bad end")
					}
					var sd civil.Day
					if x.Start != nil {
						if sd, ok = civil.ParseISO((*x.Start)); !ok {
							return s, errors.New("bad start")
						}
						if n := ed - sd; n < 330 || n > 400 {
							continue
						}
					}
					if ed <= 0 || x.Start != nil && sd <= 0 {
						continue
					}
					k := fmt.Sprintf("%s|%s|%d", *x.Accn, *x.Form, fd)
					m := fy[k]
					if x.Start != nil {
						m[0] = max(m[0], ed)
					} else if tax != "dei" {
						m[1] = max(m[1], ed)
					}
					fy[k] = m
					facts = append(facts, kept{tax + ":" + name, unit, *x.Accn, *x.Form, fd, sd, ed, string(x.Val)})
				}
				s.Units = append(s.Units, fmt.Sprintf("%s:%s|%s first=%v", tax, name, unit, ufirst))
			}
			if len(t.Units) > 0 {
				s.Tags = append(s.Tags, fmt.Sprintf("%s:%s first=%v", tax, name, first))
			}
		}
	}
	for _, x := range facts {
		m := fy[fmt.Sprintf("%s|%s|%d", x.accn, x.form, x.filed)]
		fe := m[0]
		if fe == 0 {
			fe = m[1]
		}
		s.Facts = append(s.Facts, fmt.Sprintf("%s|%s|%s|%s|%v|%d|%d|%d|%s", x.tag, x.unit, x.accn, x.form, x.filed, fe, x.start, x.end, x.val))
	}
	slices.Sort(s.Tags)
	slices.Sort(s.Units)
	slices.Sort(s.Facts)
	return s, nil
}

// summarize describes what f kept, like refSummary.
func summarize(tb testing.TB, f *Facts) summary {
	tb.Helper()
	s := summary{CIK: f.CIK, Name: f.EntityName}
	for _, t := range f.tags {
		s.Tags = append(s.Tags, fmt.Sprintf("%s:%s first=%v", t.taxonomy, t.name, t.firstFiled))
		for ui := range t.units {
			u := &t.units[ui]
			s.Units = append(s.Units, fmt.Sprintf("%s:%s|%s first=%v", t.taxonomy, t.name, u.name, u.firstFiled))
			facts, err := f.facts(u)
			if err != nil {
				tb.Fatal(err)
			}
			for _, x := range facts {
				fl := f.filings[x.filing]
				s.Facts = append(s.Facts, fmt.Sprintf("%s:%s|%s|%s|%s|%v|%d|%d|%d|%s", t.taxonomy, t.name, u.name, fl.accn, fl.form, fl.filed, fl.fyEnd, x.start, x.end, x.val))
			}
		}
	}
	slices.Sort(s.Tags)
	slices.Sort(s.Units)
	slices.Sort(s.Facts)
	return s
}
