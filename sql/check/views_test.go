package check

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f/internal/bulkstore"
)

// TestViewsReadCommittedWindowsOnly: the shipped views read a window only
// once its commit record of the current layout is written, so an engine
// never sees a window half-imported (table partitions in place, commit
// record not yet renamed in) nor one of another layout version.
func TestViewsReadCommittedWindowsOnly(t *testing.T) {
	views := query(t, "duckdb_views.sql")
	if want := fmt.Sprintf(`"format" = %d`, bulkstore.FormatVersion); !strings.Contains(views, want) {
		t.Fatalf("duckdb_views.sql reads another layout version than %d (no %s)", bulkstore.FormatVersion, want)
	}
	d, db := setup(t)
	dir := d.Dir()
	counts := func() [3]int {
		var n [3]int
		for i, v := range storeTables {
			if err := db.QueryRow("SELECT count(*) FROM " + v).Scan(&n[i]); err != nil {
				t.Fatal(err)
			}
		}
		return n
	}
	before := counts()
	if before[0] == 0 || before[1] == 0 {
		t.Fatalf("empty store: %v", before)
	}
	// A window's partitions in place without its commit record: what an
	// import shows between moving the tables in and committing.
	const from, to = "2013q3", "2013q2"
	for _, table := range storeTables {
		b, err := os.ReadFile(filepath.Join(dir, table, "window="+from, "part-0.parquet"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(dir, table, "window="+to), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, table, "window="+to, "part-0.parquet"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	added := oneWindow(t, db, dir, from)
	if got := counts(); got != before {
		t.Fatalf("uncommitted window read: %v rows, want %v", got, before)
	}
	record, err := os.ReadFile(filepath.Join(dir, "_partitions", from+".json"))
	if err != nil {
		t.Fatal(err)
	}
	commit := func(format string) {
		r := strings.Replace(string(record), `"window": "`+from+`"`, `"window": "`+to+`"`, 1)
		r = strings.Replace(r, fmt.Sprintf(`"format": %d`, bulkstore.FormatVersion), `"format": `+format, 1)
		if err := os.WriteFile(filepath.Join(dir, "_partitions", to+".json"), []byte(r), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	commit(strconv.Itoa(bulkstore.FormatVersion - 1))
	if got := counts(); got != before {
		t.Fatalf("window of an older layout version read: %v rows, want %v", got, before)
	}
	// Committed under the current layout, it is read: the check above can fail.
	commit(strconv.Itoa(bulkstore.FormatVersion))
	want := [3]int{before[0] + added[0], before[1] + added[1], before[2] + added[2]}
	if got := counts(); got != want {
		t.Fatalf("committed window: %v rows, want %v", got, want)
	}
}

// oneWindow counts the rows of window's partitions read directly.
func oneWindow(t *testing.T, db *sql.DB, dir, window string) [3]int {
	t.Helper()
	var n [3]int
	for i, table := range storeTables {
		p := filepath.ToSlash(filepath.Join(dir, table, "window="+window, "part-0.parquet"))
		if err := db.QueryRow("SELECT count(*) FROM read_parquet('" + p + "')").Scan(&n[i]); err != nil {
			t.Fatal(err)
		}
	}
	if n[0] == 0 {
		t.Fatalf("window %s holds no filings", window)
	}
	return n
}
