package frames_test

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/frames"
	"github.com/edgar13f/edgar13f/internal/edgartest"
	"github.com/edgar13f/edgar13f/mirror"
)

// zipOf writes a companyfacts.zip of the given members (name, bytes) and
// returns its path.
func zipOf(t *testing.T, members ...[2]string) string {
	t.Helper()
	var b bytes.Buffer
	z := zip.NewWriter(&b)
	for _, m := range members {
		w, err := z.Create(m[0])
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(m[1]))
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "companyfacts.zip")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

const goodDoc = `{"cik":1,"entityName":"One Inc.","facts":{"us-gaap":{"NetIncomeLoss":{"label":"x","units":{"USD":[` +
	`{"start":"2023-01-01","end":"2023-12-31","val":12.50,"accn":"0000000001-24-000001","fy":2023,"fp":"FY","form":"10-K","filed":"2024-02-01","frame":"CY2023"}]}}}}}`

// frameOf returns the frame of net income for CY2023 as of 2024-06-30, or
// the error.
func frameOf(s *frames.Store) (*frames.Frame, error) {
	return s.Frame(context.Background(), "net_income", "CY2023", date("2024-06-30"))
}

// TestDamagedSourceFailsWhole: a zip cut short, a JSON document cut in the
// middle of an array, a fact without end or filed, a val that is not a
// number: each fails the import with an error naming the file and the
// position, and the store keeps answering from the snapshot it had.
func TestDamagedSourceFailsWhole(t *testing.T) {
	s := open(t)
	ctx := context.Background()
	if _, err := s.ImportFile(ctx, zipOf(t, [2]string{"CIK0000000001.json", goodDoc})); err != nil {
		t.Fatal(err)
	}
	before, err := frameOf(s)
	if err != nil || len(before.Companies) != 1 || before.Companies[0].Value != "12.50" {
		t.Fatalf("before: %+v, %v", before, err)
	}
	whole, err := os.ReadFile(mirrorZip)
	if err != nil {
		t.Fatal(err)
	}
	cutZip := filepath.Join(t.TempDir(), "companyfacts.zip")
	os.WriteFile(cutZip, whole[:len(whole)/2], 0o644)
	cut := strings.Index(goodDoc, `{"start"`) + 20
	for _, tc := range []struct {
		name, path string
		want       []string // in the error
	}{
		{"zip cut short", cutZip, []string{"companyfacts.zip", "not a whole zip"}},
		{"JSON cut mid-array", zipOf(t, [2]string{"CIK0000000001.json", goodDoc}, [2]string{"CIK0000000002.json", strings.Replace(goodDoc, `"cik":1`, `"cik":2`, 1)[:cut]}),
			[]string{"companyfacts.zip: CIK0000000002.json: byte "}},
		{"fact without end", zipOf(t, [2]string{"CIK0000000001.json", strings.Replace(goodDoc, `"end":"2023-12-31",`, "", 1)}),
			[]string{"CIK0000000001.json: byte ", "without end"}},
		{"fact without filed", zipOf(t, [2]string{"CIK0000000001.json", strings.Replace(goodDoc, `,"filed":"2024-02-01"`, "", 1)}),
			[]string{"CIK0000000001.json: byte ", "without filed"}},
		{"val not a number", zipOf(t, [2]string{"CIK0000000001.json", strings.Replace(goodDoc, `12.50`, `"12.50"`, 1)}),
			[]string{"CIK0000000001.json: byte ", "val 12.50 is not a number"}},
		{"cik of another company", zipOf(t, [2]string{"CIK0000000003.json", goodDoc}),
			[]string{"CIK0000000003.json: byte ", "cik 1"}},
		{"trailing data", zipOf(t, [2]string{"CIK0000000001.json", goodDoc + "{}"}),
			[]string{"CIK0000000001.json: byte ", "data after the document"}},
	} {
		_, err := s.ImportFile(ctx, tc.path)
		if err == nil {
			t.Errorf("%s: imported", tc.name)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %v; want it to say %q", tc.name, err, w)
			}
		}
		after, err := frameOf(s)
		if err != nil || !cmp.Equal(before, after) {
			t.Errorf("%s: the store changed: %+v, %v", tc.name, after, err)
		}
		if es, _ := os.ReadDir(filepath.Join(s.Dir(), ".staging")); len(es) != 0 {
			t.Errorf("%s: %d entries left in .staging", tc.name, len(es))
		}
	}
}

// TestCorruptMemberData: a member whose deflated bytes were overwritten
// fails the import naming the member (the zip's checksum or the inflater
// finds it).
func TestCorruptMemberData(t *testing.T) {
	path := zipOf(t, [2]string{"CIK0000000001.json", strings.Repeat(" ", 5000) + goodDoc})
	b, _ := os.ReadFile(path)
	// The first member's data begins after its 30-byte header and name.
	for i := 30 + len("CIK0000000001.json") + 10; i < 30+len("CIK0000000001.json")+40 && i < len(b); i++ {
		b[i] ^= 0x55
	}
	os.WriteFile(path, b, 0o644)
	_, err := open(t).ImportFile(context.Background(), path)
	if err == nil || !strings.Contains(err.Error(), "CIK0000000001.json") {
		t.Fatalf("corrupt member: %v", err)
	}
}

// TestReimportReplaces: a second import replaces the snapshot whole.
func TestReimportReplaces(t *testing.T) {
	s := open(t)
	ctx := context.Background()
	two := strings.NewReplacer(`"cik":1`, `"cik":2`, "One Inc.", "Two Inc.", "12.50", "7").Replace(goodDoc)
	if _, err := s.ImportFile(ctx, zipOf(t, [2]string{"CIK0000000001.json", goodDoc})); err != nil {
		t.Fatal(err)
	}
	r, err := s.ImportFile(ctx, zipOf(t, [2]string{"CIK0000000002.json", two}))
	if err != nil || r.Companies != 1 || r.Facts != 1 || r.DataThrough != date("2024-02-01") {
		t.Fatalf("%+v, %v", r, err)
	}
	f, err := frameOf(s)
	if err != nil || len(f.Companies) != 1 || f.Companies[0].CIK != "0000000002" || f.Companies[0].EntityName != "Two Inc." {
		t.Fatalf("after re-import: %+v, %v", f, err)
	}
}

// TestDamagedSnapshotQuarantined: a Parquet file of the snapshot cut
// short is found, the snapshot moved aside into .quarantine (named in the
// error), and the store is empty until the next import, which restores it.
func TestDamagedSnapshotQuarantined(t *testing.T) {
	ctx := context.Background()
	for _, file := range []string{"facts/part-00000.parquet", "entities/part-00000.parquet", "tags/part-00000.parquet"} {
		t.Run(file, func(t *testing.T) {
			dir := t.TempDir()
			s, err := frames.OpenDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			zp := zipOf(t, [2]string{"CIK0000000001.json", goodDoc})
			if _, err := s.ImportFile(ctx, zp); err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(dir, filepath.FromSlash(file))
			st, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(p, st.Size()-10); err != nil {
				t.Fatal(err)
			}
			// A new Store, as a new process would open.
			s2, _ := frames.OpenDir(dir)
			_, err = frameOf(s2)
			if err == nil || !strings.Contains(err.Error(), ".quarantine") || !strings.Contains(err.Error(), file) {
				t.Fatalf("damaged %s: %v", file, err)
			}
			q, _ := os.ReadDir(filepath.Join(dir, ".quarantine"))
			if len(q) != 1 {
				t.Fatalf("quarantine holds %d entries", len(q))
			}
			if _, err := frameOf(s2); err == nil || !strings.Contains(err.Error(), "nothing imported") {
				t.Fatalf("after quarantine: %v", err)
			}
			if _, err := s2.ImportFile(ctx, zp); err != nil {
				t.Fatal(err)
			}
			if f, err := frameOf(s2); err != nil || len(f.Companies) != 1 {
				t.Fatalf("after re-import: %+v, %v", f, err)
			}
		})
	}
}

// TestProgress: an import reports each stage, in order, ending with done,
// and never goes backwards within a stage.
func TestProgress(t *testing.T) {
	var got []edgar13f.Progress
	_, err := open(t).ImportFile(context.Background(), mirrorZip, frames.ReportProgress(func(p edgar13f.Progress) { got = append(got, p) }))
	if err != nil {
		t.Fatal(err)
	}
	var stages []string
	for i, p := range got {
		if len(stages) == 0 || stages[len(stages)-1] != p.Stage {
			stages = append(stages, p.Stage)
		} else if p.Done < got[i-1].Done {
			t.Errorf("%s went back from %d to %d", p.Stage, got[i-1].Done, p.Done)
		}
		if p.Window != "companyfacts.zip" {
			t.Errorf("window %q", p.Window)
		}
	}
	if strings.Join(stages, " ") != "facts sorting done" {
		t.Errorf("stages %v", stages)
	}
	last := got[len(got)-1]
	if last.Done != last.Total || last.Total < 50000 {
		t.Errorf("last %+v", last)
	}
	if len(got) > 3*102 {
		t.Errorf("%d reports: more than one a percent", len(got))
	}
}

// TestSyncCompaniesEqualsZip: the per-company path (the companyfacts API
// documents of the mirror, fetched through the Client) and the bulk zip
// give the same frames; the per-company snapshot holds the companies
// asked for only.
func TestSyncCompaniesEqualsZip(t *testing.T) {
	ctx := context.Background()
	c, f := mirrorClient(t)
	s, err := frames.Open(c)
	if err != nil {
		t.Fatal(err)
	}
	var confirmed string
	r, err := s.SyncCompanies(ctx, []string{"320193", "0001045810", "1640147", "1997711"},
		frames.ConfirmImport(func(what string) error { confirmed = what; return nil }))
	if err != nil {
		t.Fatal(err)
	}
	if r.Companies != 4 || !strings.Contains(confirmed, "4 companies") || len(f.Take()) != 4 {
		t.Fatalf("%+v; confirmed %q", r, confirmed)
	}
	zipped := mirrorFacts(t)
	for _, q := range []struct{ concept, period, asOf string }{
		{"net_income", "CY2009", "2010-02-01"},
		{"revenue", "CY2023Q3", "2024-11-30"},
		{"total_assets", "CY2023Q4I", "2024-11-30"},
		{"eps_diluted", "CY2022", "2023-06-30"},
		{"ifrs-full:ProfitLoss", "CY2023", "2025-01-01"},
	} {
		want, err1 := zipped.Frame(ctx, q.concept, q.period, date(q.asOf))
		got, err2 := s.Frame(ctx, q.concept, q.period, date(q.asOf))
		if err1 != nil || err2 != nil || !cmp.Equal(want, got) {
			t.Errorf("%v: zip %+v, %v; companies %+v, %v", q, want, err1, got, err2)
		}
	}
	// Asked to stop, it fetches nothing.
	stop := errors.New("no")
	if _, err := s.SyncCompanies(ctx, []string{"320193"}, frames.ConfirmImport(func(string) error { return stop })); err != stop || len(f.Take()) != 0 {
		t.Errorf("declined confirmation: %v", err)
	}
	if _, err := s.SyncCompanies(ctx, []string{"12345678901"}); edgartest.Reason(err) != edgar13f.InvalidArgument {
		t.Errorf("malformed CIK: %v", err)
	}
	// The failure names the CIK and the document, with the package's
	// prefix once (not "edgar13f: CIK 42: edgar13f: fetch ..."), and is
	// still the fetch failure.
	_, err = s.SyncCompanies(ctx, []string{"320193", "42"})
	if err == nil || !strings.HasPrefix(err.Error(), "edgar13f: CIK 42: fetch ") || strings.Count(err.Error(), "edgar13f: ") != 1 ||
		!errors.Is(err, edgar13f.ErrNotFound) {
		t.Errorf("a CIK without company facts: %v", err)
	}
}

// namedCounter counts fetches and names its source, so that a Client can
// download through it.
type namedCounter struct{ *edgartest.CountingFetcher }

func (namedCounter) Source() string { return "test:frames-mirror" }

// mirrorClient returns a Client of the mirror with a cache directory of
// its own, and its counting fetcher.
func mirrorClient(t *testing.T) (*edgar13f.Client, *edgartest.CountingFetcher) {
	f := &edgartest.CountingFetcher{Next: mirror.NewFetcher(edgartest.MirrorFS(t))}
	c, err := edgar13f.NewClient(edgar13f.WithFetcher(namedCounter{f}), edgar13f.WithCacheDir(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	return c, f
}

// TestSyncZip: Sync fetches the mirror's companyfacts.zip through the
// Client and imports it, giving the frames of the zip read from a file.
func TestSyncZip(t *testing.T) {
	ctx := context.Background()
	c, f := mirrorClient(t)
	s, err := frames.Open(c)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Sync(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if fetched := f.Take(); len(fetched) != 1 || fetched[0] != frames.ZipURL {
		t.Errorf("fetched %v", fetched)
	}
	if r.Companies != 4 || r.DataThrough != date("2025-05-30") {
		t.Errorf("%+v", r)
	}
	got, err := s.Frame(ctx, "net_income", "CY2009", date("2010-02-01"))
	want, _ := mirrorFacts(t).Frame(ctx, "net_income", "CY2009", date("2010-02-01"))
	if err != nil || !cmp.Equal(want, got) {
		t.Errorf("%+v, %v", got, err)
	}
	if _, err := open(t).Sync(ctx); err == nil || !strings.Contains(err.Error(), "frames.Open") {
		t.Errorf("Sync without a Client: %v", err)
	}
}
