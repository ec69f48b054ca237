package bulkstore

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/edgar13f/edgar13f/internal/civil"
	"github.com/edgar13f/edgar13f/internal/parquetdir"
)

// damageStore imports three consecutive windows of the mirror.
func damageStore(t *testing.T) (*Store, map[string]string) {
	t.Helper()
	s, err := Open(t.TempDir(), testRule)
	if err != nil {
		t.Fatal(err)
	}
	zips := windowZips(t)
	for _, w := range []string{"2023q4", "01jan2024-29feb2024", "01mar2024-31may2024"} {
		importFile(t, s, w, zips[w], Options{Redact: noRedact})
	}
	return s, zips
}

func windowNames(c Coverage) []string {
	var out []string
	for _, w := range c.Windows {
		out = append(out, w.Name)
	}
	return out
}

// quarantined lists the directories under .quarantine.
func quarantined(t *testing.T, s *Store) []string {
	t.Helper()
	es, err := os.ReadDir(filepath.Join(s.Dir(), quarantineDir))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

// TestTruncatedPartFile: a part file cut short is found when the store is
// listed (by a fresh Store, as a new process would), the window is moved
// aside and no longer imported, the others answer as before, and
// importing the window again restores it.
func TestTruncatedPartFile(t *testing.T) {
	for _, table := range tables {
		t.Run(table, func(t *testing.T) {
			s, zips := damageStore(t)
			period, asOf := civil.DayOf(2023, 9, 30), civil.DayOf(2024, 5, 15)
			want, err := s.Holdings(1067983, period, asOf, oracleResolve)
			if err != nil || len(want.Rows) == 0 {
				t.Fatalf("before: %+v, %v", want, err)
			}
			const w = "01mar2024-31may2024"
			path := PartitionPath(s.Dir(), table, w)
			st, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(path, st.Size()/2); err != nil {
				t.Fatal(err)
			}
			s2, err := Open(s.Dir(), testRule)
			if err != nil {
				t.Fatal(err)
			}
			c, err := s2.Coverage()
			if err != nil {
				t.Fatal(err)
			}
			if got := windowNames(c); !slices.Equal(got, []string{"2023q4", "01jan2024-29feb2024"}) || c.DataThrough.String() != "2024-02-29" {
				t.Fatalf("coverage after damage: %v through %s", got, c.DataThrough)
			}
			if q := quarantined(t, s2); len(q) != 1 {
				t.Fatalf("quarantine %v", q)
			} else if _, err := os.Stat(filepath.Join(s2.Dir(), quarantineDir, q[0], table, partFile)); err != nil {
				t.Errorf("damaged file not kept: %v", err)
			}
			// The windows left answer; the supplement filed in the damaged
			// window (2024-05-15) is simply not there.
			got, err := s2.Holdings(1067983, period, asOf, oracleResolve)
			if err != nil || got.Base != want.Base {
				t.Fatalf("after damage: %+v, %v", got.Resolution, err)
			}
			importFile(t, s2, w, zips[w], Options{Redact: noRedact})
			if c, _ := s2.Coverage(); len(c.Windows) != 3 {
				t.Fatalf("re-imported: %v", windowNames(c))
			}
			got, err = s2.Holdings(1067983, period, asOf, oracleResolve)
			if err != nil || !slices.Equal(got.Supplements, want.Supplements) || len(got.Rows) != len(want.Rows) {
				t.Fatalf("after re-import: %+v, %d rows, %v", got.Resolution, len(got.Rows), err)
			}
		})
	}
}

// TestDamagedFooter: a footer whose metadata is overwritten, size and
// magic bytes intact, passes the listing check and is found when the
// partition is opened: the query fails once with ErrDamaged, the window is
// moved aside, and OpenWindows moves such windows aside without failing.
func TestDamagedFooter(t *testing.T) {
	s, _ := damageStore(t)
	damage := func(window string) {
		t.Helper()
		path := PartitionPath(s.Dir(), HoldingsTable, window)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		n := int(binary.LittleEndian.Uint32(b[len(b)-8:]))
		clear(b[len(b)-8-n : len(b)-8])
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	damage("01jan2024-29feb2024")
	s, err := Open(s.Dir(), testRule)
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := s.Coverage(); len(c.Windows) != 3 {
		t.Fatalf("listing check: %v", windowNames(c))
	}
	_, err = s.Holders("037833100", civil.DayOf(2023, 9, 30), civil.DayOf(2024, 5, 15), oracleResolve)
	if !errors.Is(err, ErrDamaged) {
		t.Fatalf("query on a damaged footer: %v", err)
	}
	if c, _ := s.Coverage(); !slices.Equal(windowNames(c), []string{"2023q4", "01mar2024-31may2024"}) {
		t.Fatalf("coverage after damage: %v", windowNames(c))
	}
	damage("01mar2024-31may2024")
	s, err = Open(s.Dir(), testRule)
	if err != nil {
		t.Fatal(err)
	}
	moved, err := s.OpenWindows(civil.DayOf(2024, 5, 15))
	if err != nil || !slices.Equal(moved, []string{"01mar2024-31may2024"}) {
		t.Fatalf("OpenWindows: %v, %v", moved, err)
	}
	if c, _ := s.Coverage(); !slices.Equal(windowNames(c), []string{"2023q4"}) || len(quarantined(t, s)) != 2 {
		t.Fatalf("coverage %v, quarantine %v", windowNames(c), quarantined(t, s))
	}
}

// TestCheckFile: what the listing check refuses.
func TestCheckFile(t *testing.T) {
	dir := t.TempDir()
	ok := append(append([]byte("PAR1"), make([]byte, 20)...), 0, 0, 0, 0, 'P', 'A', 'R', '1')
	binary.LittleEndian.PutUint32(ok[len(ok)-8:], 10)
	for _, tc := range []struct {
		name string
		data []byte
		size int64
		good bool
	}{
		{"whole", ok, int64(len(ok)), true},
		{"size not recorded", ok, 0, true},
		{"size differs", ok, int64(len(ok)) + 1, false},
		{"cut", ok[:len(ok)-1], 0, false},
		{"no head magic", append([]byte("XXXX"), ok[4:]...), 0, false},
		{"footer too long", append(append([]byte{}, ok[:len(ok)-8]...), 0xff, 0, 0, 0, 'P', 'A', 'R', '1'), 0, false},
		{"tiny", []byte("PAR1"), 0, false},
	} {
		path := filepath.Join(dir, "f")
		if err := os.WriteFile(path, tc.data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := parquetdir.CheckFile(path, tc.size); (err == nil) != tc.good {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	if err := parquetdir.CheckFile(filepath.Join(dir, "missing"), 0); err == nil {
		t.Error("missing file passed")
	}
}

// BenchmarkOpenCoverage: a new Store listing the test mirror's 52
// windows, as a new process does (each partition's files checked).
func BenchmarkOpenCoverage(b *testing.B) {
	dir := mirrorStore(b).Dir()
	b.ReportAllocs()
	for b.Loop() {
		s, err := Open(dir, testRule)
		if err != nil {
			b.Fatal(err)
		}
		if c, err := s.Coverage(); err != nil || len(c.Windows) < 50 {
			b.Fatal(len(c.Windows), err)
		}
	}
}
