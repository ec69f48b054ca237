package frames

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/edgartest"
)

// TestManyParts: the mirror cut into many facts parts (an alias's tags in
// different parts, tags sharing row groups) gives the frames of one part.
func TestManyParts(t *testing.T) {
	ctx := context.Background()
	zp := filepath.Join(edgartest.MirrorDir, "www.sec.gov", "Archives", "edgar", "daily-index", "xbrl", "companyfacts.zip")
	stores := map[int64]*Store{}
	for _, pb := range []int64{0, 256 << 10} {
		partBytes = pb
		s, err := OpenDir(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.ImportFile(ctx, zp); err != nil {
			t.Fatal(err)
		}
		stores[pb] = s
	}
	partBytes = 0
	parts, _ := filepath.Glob(filepath.Join(stores[256<<10].Dir(), "facts", "*.parquet"))
	if one, _ := filepath.Glob(filepath.Join(stores[0].Dir(), "facts", "*.parquet")); len(one) != 1 || len(parts) < 20 {
		t.Fatalf("%d parts and %d parts", len(one), len(parts))
	}
	n := 0
	for _, concept := range []string{"net_income", "revenue", "total_assets", "eps_diluted", "shares_outstanding", "cash", "ifrs-full:Revenue", "us-gaap:Liabilities"} {
		for _, period := range []string{"CY2010", "CY2019Q1", "CY2021Q3", "CY2022Q4I", "CY2023"} {
			for _, asOf := range []string{"2012-06-30", "2024-11-30"} {
				want, err1 := stores[0].Frame(ctx, concept, period, edgar13f.MustParseDate(asOf))
				got, err2 := stores[256<<10].Frame(ctx, concept, period, edgar13f.MustParseDate(asOf))
				if !cmp.Equal(want, got) || (err1 == nil) != (err2 == nil) {
					t.Errorf("%s %s %s: one part %+v, %v; many %+v, %v", concept, period, asOf, want, err1, got, err2)
				}
				if want != nil {
					n += len(want.Companies)
				}
			}
		}
	}
	if n < 40 {
		t.Errorf("only %d company values compared", n)
	}
}
