package frames

import (
	"archive/zip"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/civil"
)

// The point-in-time property: a frame on asOf from a store holding every
// fact equals the frame from a store that only ever saw the facts filed
// on or before asOf — the same companies, periods, tags, values, first
// reported values, counts and declines. (data_through and complete
// describe the store, and differ by construction.)

// synthFact is one generated fact.
type synthFact struct {
	taxonomy, tag, unit string
	start, end, filed   civil.Day // start 0: an instant
	accn, val           string
	fy                  int
}

type synthCompany struct {
	cik   int64
	facts []synthFact
}

var (
	synthTags = []struct{ taxonomy, tag string }{
		{"us-gaap", "NetIncomeLoss"}, {"us-gaap", "ProfitLoss"}, {"ifrs-full", "ProfitLoss"}, {"us-gaap", "Assets"},
	}
	synthDays = []int{60, 69, 70, 71, 91, 92, 109, 110, 111, 300, 334, 335, 336, 364, 365, 366, 394, 395, 396}
	synthVals = []string{"1", "2", "100", "-5", "1.5", "1.50", "0"}
)

// drawCorpus draws companies whose facts crowd around period p, so that
// many fit it, with periods, filing dates, accessions and values that tie
// often.
func drawCorpus(t *rapid.T, p period) []synthCompany {
	n := rapid.IntRange(1, 4).Draw(t, "companies")
	var out []synthCompany
	for i := range n {
		c := synthCompany{cik: int64(100 + i*7)}
		for range rapid.IntRange(0, 10).Draw(t, "facts") {
			tg := synthTags[rapid.IntRange(0, len(synthTags)-1).Draw(t, "tag")]
			f := synthFact{taxonomy: tg.taxonomy, tag: tg.tag,
				unit: rapid.SampledFrom([]string{"USD", "USD", "USD", "EUR"}).Draw(t, "unit"),
				accn: fmt.Sprintf("0000000001-24-%06d", rapid.IntRange(1, 4).Draw(t, "accn")),
				val:  rapid.SampledFrom(synthVals).Draw(t, "val"),
				fy:   rapid.IntRange(2022, 2025).Draw(t, "fy"),
			}
			instant := rapid.IntRange(0, 3).Draw(t, "instant") == 0
			if p.instant {
				instant = !instant
			}
			if instant {
				f.end = p.to + civil.Day(rapid.IntRange(-60, 60).Draw(t, "end"))
			} else {
				f.start = p.from + civil.Day(rapid.IntRange(-60, 60).Draw(t, "start"))
				f.end = f.start + civil.Day(rapid.SampledFrom(synthDays).Draw(t, "days")-1)
			}
			f.filed = f.end + civil.Day(rapid.IntRange(0, 200).Draw(t, "lag"))
			c.facts = append(c.facts, f)
		}
		out = append(out, c)
	}
	return out
}

// companyJSON is a companyfacts document of c's facts filed on or before
// through (0: all).
func companyJSON(c synthCompany, through civil.Day) []byte {
	facts := map[string]map[string]any{}
	for _, f := range c.facts {
		if through > 0 && f.filed > through {
			continue
		}
		tax := facts[f.taxonomy]
		if tax == nil {
			tax = map[string]any{}
			facts[f.taxonomy] = tax
		}
		tag, _ := tax[f.tag].(map[string]any)
		if tag == nil {
			tag = map[string]any{"label": f.tag, "units": map[string][]map[string]any{}}
			tax[f.tag] = tag
		}
		units := tag["units"].(map[string][]map[string]any)
		o := map[string]any{"end": f.end.String(), "val": json.Number(f.val), "accn": f.accn, "fy": f.fy, "fp": "FY", "form": "10-K", "filed": f.filed.String()}
		if f.start != 0 {
			o["start"] = f.start.String()
		}
		units[f.unit] = append(units[f.unit], o)
	}
	b, err := json.Marshal(map[string]any{"cik": c.cik, "entityName": fmt.Sprintf("Company %d", c.cik), "facts": facts})
	if err != nil {
		panic(err)
	}
	return b
}

// writeZip writes the documents of cs (facts filed through through; 0:
// all) as a companyfacts.zip.
func writeZip(path string, cs []synthCompany, through civil.Day) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	z := zip.NewWriter(f)
	for _, c := range cs {
		w, err := z.Create(fmt.Sprintf("CIK%010d.json", c.cik))
		if err != nil {
			return err
		}
		if _, err := w.Write(companyJSON(c, through)); err != nil {
			return err
		}
	}
	if err := z.Close(); err != nil {
		return err
	}
	return f.Close()
}

// storeOf imports a zip of cs into a new store under dir.
func storeOf(t *rapid.T, dir, name string, cs []synthCompany, through civil.Day) *Store {
	zp := filepath.Join(dir, name+".zip")
	if err := writeZip(zp, cs, through); err != nil {
		t.Fatal(err)
	}
	s, err := OpenDir(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ImportFile(context.Background(), zp); err != nil {
		t.Fatal(err)
	}
	return s
}

// checkPointInTime is the property.
func checkPointInTime(t *rapid.T) {
	concept := rapid.SampledFrom([]string{"net_income", "net_income", "us-gaap:NetIncomeLoss", "ifrs-full:ProfitLoss", "total_assets", "us-gaap:ProfitLoss"}).Draw(t, "concept")
	period := rapid.SampledFrom([]string{"CY2023", "CY2024", "CY2023Q2", "CY2023Q4", "CY2024Q1", "CY2023Q4I", "CY2023Q2I", "CY2024Q2I"}).Draw(t, "period")
	p, err := parsePeriod(period)
	if err != nil {
		t.Fatal(err)
	}
	cs := drawCorpus(t, p)
	// asOf near a filing date of the corpus, where what is visible changes.
	asOf := p.to + civil.Day(rapid.IntRange(-60, 300).Draw(t, "asOf"))
	var filed []civil.Day
	for _, c := range cs {
		for _, f := range c.facts {
			filed = append(filed, f.filed)
		}
	}
	if len(filed) > 0 && rapid.IntRange(0, 3).Draw(t, "nearFiling") > 0 {
		// The day before a filing and the day of one are where a leak of
		// one day shows, so they are drawn most often.
		asOf = rapid.SampledFrom(filed).Draw(t, "filed") + civil.Day(rapid.SampledFrom([]int{-1, -1, -1, 0, 0, -3, -2, 1, 2}).Draw(t, "offset"))
	}
	var opts []Option
	if rapid.IntRange(0, 3).Draw(t, "eur") == 0 {
		opts = append(opts, Unit("EUR"))
	}
	if rapid.Bool().Draw(t, "value_desc") {
		opts = append(opts, Order(OrderValueDesc))
	}
	if rapid.Bool().Draw(t, "limit") {
		opts = append(opts, Limit(rapid.IntRange(1, 3).Draw(t, "n")))
	}
	dir, err := os.MkdirTemp("", "frames-pit-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	all := storeOf(t, dir, "all", cs, 0)
	seen := storeOf(t, dir, "seen", cs, asOf)

	d := dateOf(asOf)
	got, gotErr := all.Frame(context.Background(), concept, period, d, opts...)
	want, wantErr := seen.Frame(context.Background(), concept, period, d, opts...)
	if reason(gotErr) != reason(wantErr) || (gotErr == nil) != (wantErr == nil) {
		t.Fatalf("%s %s on %s: all facts: %v; facts filed by asOf: %v", concept, period, d, gotErr, wantErr)
	}
	if gotErr != nil {
		return
	}
	for _, f := range []*Frame{got, want} {
		f.DataThrough, f.Complete = edgar13f.Date{}, false
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("%s %s on %s (-facts filed by asOf +all facts):\n%s", concept, period, d, diff)
	}
}

func reason(err error) edgar13f.Reason {
	var d *edgar13f.DeclineError
	if errors.As(err, &d) {
		return d.Reason
	}
	return ""
}

// TestFramePointInTime checks the property.
func TestFramePointInTime(t *testing.T) {
	rapid.Check(t, checkPointInTime)
}

// TestPointInTimeCatchesPlantedLeaks plants each leak the property guards
// against and checks that the property fails.
func TestPointInTimeCatchesPlantedLeaks(t *testing.T) {
	f := flag.Lookup("rapid.nofailfile")
	if f == nil {
		t.Fatal("rapid has no -rapid.nofailfile flag")
	}
	old := f.Value.String()
	if err := flag.Set("rapid.nofailfile", "true"); err != nil {
		t.Fatal(err)
	}
	defer flag.Set("rapid.nofailfile", old)
	// A counterexample is what this test needs, not the smallest one; and
	// a leak must show within more checks than the property runs.
	for name, v := range map[string]string{"rapid.shrinktime": "1ms", "rapid.checks": "300"} {
		old := flag.Lookup(name).Value.String()
		if err := flag.Set(name, v); err != nil {
			t.Fatal(err)
		}
		defer flag.Set(name, old)
	}
	for _, tc := range []struct {
		name string
		l    leaks
	}{
		{"facts filed up to 90 days late are visible", leaks{lateDays: 90}},
		{"facts filed the day after asOf are visible", leaks{lateDays: 1}},
		{"the period is chosen among later facts too", leaks{periodFromAll: true}},
		{"a later fact can be the value", leaks{lateValues: true}},
		{"a tag first used after asOf is known", leaks{lateConcept: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			planted = tc.l
			defer func() { planted = leaks{} }()
			// Each run draws new cases; a leak the property guards against
			// shows in one of three runs of 300 checks.
			caught := false
			for range 3 {
				if caught = failsProperty(checkPointInTime); caught {
					break
				}
			}
			if !caught {
				t.Errorf("the point-in-time property passes with the leak planted")
			}
		})
	}
}

// failsProperty reports whether rapid finds a counterexample to prop.
func failsProperty(prop func(*rapid.T)) (failed bool) {
	tb := &quietTB{}
	defer func() {
		if r := recover(); r != nil && r != errFailNow {
			panic(r)
		}
		failed = tb.failed
	}()
	rapid.Check(tb, prop)
	return tb.failed
}

var errFailNow = fmt.Errorf("quietTB: FailNow")

// quietTB is a rapid.TB that records failure without failing the test.
type quietTB struct{ failed bool }

func (q *quietTB) Helper()               {}
func (q *quietTB) Name() string          { return "TestPointInTimeCatchesPlantedLeaks" }
func (q *quietTB) Logf(string, ...any)   {}
func (q *quietTB) Log(...any)            {}
func (q *quietTB) Skipf(string, ...any)  { panic("quietTB: skip") }
func (q *quietTB) Skip(...any)           { panic("quietTB: skip") }
func (q *quietTB) SkipNow()              { panic("quietTB: skip") }
func (q *quietTB) Errorf(string, ...any) { q.failed = true }
func (q *quietTB) Error(...any)          { q.failed = true }
func (q *quietTB) Fatalf(string, ...any) { q.failed = true; panic(errFailNow) }
func (q *quietTB) Fatal(...any)          { q.failed = true; panic(errFailNow) }
func (q *quietTB) FailNow()              { q.failed = true; panic(errFailNow) }
func (q *quietTB) Fail()                 { q.failed = true }
func (q *quietTB) Failed() bool          { return q.failed }
