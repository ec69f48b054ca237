package companyfacts

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/edgar13f/edgar13f/internal/civil"
)

// pitFile is a real document prepared for the point-in-time property: the
// decoded whole, its facts by filing date, and (memoized) the document with
// every fact filed after a date deleted, decoded.
type pitFile struct {
	name  string
	full  *Facts
	head  []byte // {"cik":...,"entityName":...,
	tags  []pitTag
	dates []civil.Day // every distinct filing date of any fact, ascending

	mu  sync.Mutex
	cut map[civil.Day]*Facts
}

type pitTag struct {
	taxonomy, name string
	label, desc    json.RawMessage
	units          []pitUnit
}

type pitUnit struct {
	name  string
	facts []json.RawMessage
	filed []civil.Day
}

var (
	pitOnce  sync.Once
	pitFiles []*pitFile
)

// loadPIT prepares every real document once.
func loadPIT(tb testing.TB) []*pitFile {
	tb.Helper()
	pitOnce.Do(func() {
		for _, name := range realFiles {
			pf, err := newPITFile(name, readReal(tb, name))
			if err != nil {
				tb.Fatal(err)
			}
			pitFiles = append(pitFiles, pf)
		}
	})
	if len(pitFiles) != len(realFiles) {
		tb.Fatal("real documents not loaded")
	}
	return pitFiles
}

func newPITFile(name string, data []byte) (*pitFile, error) {
	var doc struct {
		CIK        json.RawMessage `json:"cik"`
		EntityName json.RawMessage `json:"entityName"`
		Facts      map[string]map[string]struct {
			Label       json.RawMessage              `json:"label"`
			Description json.RawMessage              `json:"description"`
			Units       map[string][]json.RawMessage `json:"units"`
		} `json:"facts"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	full, err := Decode(data)
	if err != nil {
		return nil, err
	}
	pf := &pitFile{name: name, full: full, cut: map[civil.Day]*Facts{},
		head: fmt.Appendf(nil, `{"cik":%s,"entityName":%s,`, doc.CIK, doc.EntityName)}
	seen := map[civil.Day]bool{}
	for tax, tags := range doc.Facts {
		for tag, t := range tags {
			pt := pitTag{taxonomy: tax, name: tag, label: t.Label, desc: t.Description}
			for u, facts := range t.Units {
				pu := pitUnit{name: u, facts: facts}
				for _, raw := range facts {
					var x struct{ Filed string }
					if err := json.Unmarshal(raw, &x); err != nil {
						return nil, err
					}
					d, ok := civil.ParseISO(x.Filed)
					if !ok {
						return nil, fmt.Errorf("filed %q is not a date", x.Filed)
					}
					pu.filed = append(pu.filed, d)
					if !seen[d] {
						seen[d] = true
						pf.dates = append(pf.dates, d)
					}
				}
				pt.units = append(pt.units, pu)
			}
			pf.tags = append(pf.tags, pt)
		}
	}
	slices.Sort(pf.dates)
	return pf, nil
}

// truncated returns the document with every fact filed after asOf deleted,
// decoded from scratch.
func (pf *pitFile) truncated(asOf civil.Day) *Facts {
	// Documents cut at dates with no filing between them are the same.
	i, _ := slices.BinarySearch(pf.dates, asOf+1)
	key := civil.Day(0)
	if i > 0 {
		key = pf.dates[i-1]
	}
	pf.mu.Lock()
	defer pf.mu.Unlock()
	if f := pf.cut[key]; f != nil {
		return f
	}
	var b bytes.Buffer
	b.Write(pf.head)
	b.WriteString(`"facts":{`)
	byTax := map[string][]pitTag{}
	var taxes []string
	for _, t := range pf.tags {
		if byTax[t.taxonomy] == nil {
			taxes = append(taxes, t.taxonomy)
		}
		byTax[t.taxonomy] = append(byTax[t.taxonomy], t)
	}
	// As EDGAR would have served it: a unit without facts is absent, and
	// so is a tag without units and a taxonomy without tags.
	taxCount := 0
	for _, tax := range taxes {
		var tb bytes.Buffer
		tagCount := 0
		for _, t := range byTax[tax] {
			var ub bytes.Buffer
			unitCount := 0
			for _, u := range t.units {
				n := 0
				for m, raw := range u.facts {
					if u.filed[m] > asOf {
						continue
					}
					if n == 0 {
						if unitCount > 0 {
							ub.WriteByte(',')
						}
						fmt.Fprintf(&ub, "%q:[", u.name)
					} else {
						ub.WriteByte(',')
					}
					ub.Write(raw)
					n++
				}
				if n > 0 {
					ub.WriteByte(']')
					unitCount++
				}
			}
			if unitCount == 0 {
				continue
			}
			if tagCount > 0 {
				tb.WriteByte(',')
			}
			fmt.Fprintf(&tb, `%q:{"label":%s,"description":%s,"units":{`, t.name, t.label, t.desc)
			tb.Write(ub.Bytes())
			tb.WriteString("}}")
			tagCount++
		}
		if tagCount == 0 {
			continue
		}
		if taxCount > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%q:{", tax)
		b.Write(tb.Bytes())
		b.WriteByte('}')
		taxCount++
	}
	b.WriteString("}}")
	f, err := Decode(b.Bytes())
	if err != nil {
		panic(err)
	}
	pf.cut[key] = f
	return f
}

// answerFunc is Facts.Annual or a variant of it under test.
type answerFunc func(f *Facts, concept string, asOf civil.Day, years int) (*Answer, error)

func annual(f *Facts, concept string, asOf civil.Day, years int) (*Answer, error) {
	return f.Annual(concept, asOf, years)
}

// pitConcepts are the concepts the property asks for: every alias and
// synonym, tags by name (some used only in 10-Qs or first used late), and
// a few that are unknown.
var pitConcepts = func() []string {
	var cs []string
	for _, a := range aliases {
		cs = append(cs, a.Name)
		cs = append(cs, a.Synonyms...)
	}
	return append(cs,
		"Revenues", "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax", "us-gaap:SalesRevenueNet",
		"dei:EntityCommonStockSharesOutstanding", "EntityCommonStockSharesOutstanding", "ifrs-full:Revenue",
		"us-gaap:LongTermDebtNoncurrent", "us-gaap:EarningsPerShareBasicAndDiluted", "us-gaap:PaymentsToAcquireProductiveAssets",
		"us-gaap:OperatingLeaseWeightedAverageDiscountRatePercent", "us-gaap:IncomeTaxExpenseBenefit",
		"ProfitLoss", "srt:NoSuchTag", "ebitda")
}()

// checkPIT compares answer on the whole document with Annual on the
// document cut at asOf, and with answer on another date with no filing of
// any fact between the two. It returns a description of the first
// difference, or "".
func checkPIT(pf *pitFile, answer answerFunc, concept string, asOf, asOf2 civil.Day, years int) string {
	got, gerr := answer(pf.full, concept, asOf, years)
	want, werr := pf.truncated(asOf).Annual(concept, asOf, years)
	if d := diffAnswers(want, werr, got, gerr); d != "" {
		return fmt.Sprintf("%s %q asOf=%v years=%d: whole document differs from the document cut at asOf (-cut +whole):\n%s", pf.name, concept, asOf, years, d)
	}
	other, oerr := answer(pf.full, concept, asOf2, years)
	if d := diffAnswers(got, gerr, other, oerr); d != "" {
		return fmt.Sprintf("%s %q years=%d: asOf %v and %v have no filing between them but differ:\n%s", pf.name, concept, years, asOf, asOf2, d)
	}
	return ""
}

func diffAnswers(a *Answer, aerr error, b *Answer, berr error) string {
	if (aerr == nil) != (berr == nil) || aerr != nil && errors.Is(aerr, ErrUnknownConcept) != errors.Is(berr, ErrUnknownConcept) {
		return fmt.Sprintf("errors %v and %v", aerr, berr)
	}
	return cmp.Diff(a, b)
}

// sameInterval returns a date with no filing of any fact between it and
// asOf, chosen by pick from the dates asOf's interval holds.
func (pf *pitFile) sameInterval(asOf civil.Day, pick func(lo, hi int) int) civil.Day {
	i, _ := slices.BinarySearch(pf.dates, asOf+1) // dates[i-1] <= asOf < dates[i]
	lo, hi := asOf-3650, asOf+3650
	if i > 0 {
		lo = pf.dates[i-1]
	}
	if i < len(pf.dates) {
		hi = pf.dates[i] - 1
	}
	return civil.Day(pick(int(lo), int(hi)))
}

// TestPointInTime is the property: on every real document, for any concept,
// date and years, nothing filed after asOf changes the answer (it equals
// the answer from the document with every later fact deleted), and two
// dates with no filing between them give the same answer. Dates are drawn
// near filing dates, where a leak would show, and anywhere from 2008 to
// 2027.
func TestPointInTime(t *testing.T) {
	files := loadPIT(t)
	rapid.Check(t, func(rt *rapid.T) {
		pf := files[rapid.IntRange(0, len(files)-1).Draw(rt, "file")]
		concept := rapid.SampledFrom(pitConcepts).Draw(rt, "concept")
		years := rapid.IntRange(1, MaxYears).Draw(rt, "years")
		var asOf civil.Day
		if rapid.Bool().Draw(rt, "nearFiling") {
			asOf = rapid.SampledFrom(pf.dates).Draw(rt, "filed") + civil.Day(rapid.IntRange(-2, 2).Draw(rt, "delta"))
		} else {
			asOf = civil.Day(rapid.IntRange(int(civil.DayOf(2008, 1, 1)), int(civil.DayOf(2027, 1, 1))).Draw(rt, "asOf"))
		}
		asOf2 := pf.sameInterval(asOf, func(lo, hi int) int { return rapid.IntRange(lo, hi).Draw(rt, "asOf2") })
		if msg := checkPIT(pf, annual, concept, asOf, asOf2, years); msg != "" {
			rt.Fatal(msg)
		}
	})
}

// TestPointInTimeCatchesALeak plants a leak, answering with what was filed
// up to one day after asOf (filed <= asOf+1), and checks that the property's
// check reports it on the real documents.
func TestPointInTimeCatchesALeak(t *testing.T) {
	leaky := func(f *Facts, concept string, asOf civil.Day, years int) (*Answer, error) {
		return f.Annual(concept, asOf+1, years)
	}
	for _, pf := range loadPIT(t) {
		caught := 0
		// The days before annual reports were filed: where a one-day leak
		// of an annual value would show.
		var dates []civil.Day
		for _, fl := range pf.full.filings {
			if !slices.Contains(dates, fl.filed) {
				dates = append(dates, fl.filed)
			}
		}
		for _, d := range dates {
			for _, concept := range []string{"revenue", "eps", "total_assets", "shares_outstanding"} {
				if checkPIT(pf, leaky, concept, d-1, d-1, MaxYears) != "" {
					caught++
				}
				if msg := checkPIT(pf, annual, concept, d-1, d-1, MaxYears); msg != "" {
					t.Fatal(msg)
				}
			}
		}
		if caught == 0 {
			t.Errorf("%s: the planted leak went unnoticed", pf.name)
		}
		t.Logf("%s: planted leak caught on %d (date, concept) pairs", pf.name, caught)
	}
}

// TestPointInTimeLoad checks that an answer from the cached form equals
// the answer from the decoded document.
func TestPointInTimeLoad(t *testing.T) {
	for _, pf := range loadPIT(t) {
		g, err := Load(pf.full.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range pitConcepts {
			asOf := civil.DayOf(2025, 12, 31)
			a, aerr := pf.full.Annual(c, asOf, MaxYears)
			b, berr := g.Annual(c, asOf, MaxYears)
			if d := diffAnswers(a, aerr, b, berr); d != "" {
				t.Errorf("%s %s: Load differs:\n%s", pf.name, c, d)
			}
		}
	}
}
