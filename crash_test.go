package edgar13f_test

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/edgartest"
	"github.com/edgar13f/edgar13f/mirror"
)

// Cache crashes: a process killed in the middle of cache writes leaves
// nothing that a later process would misread.

// crashQueries are the Holdings queries of the crash test: large real
// tables and an amendment chain.
var crashQueries = []struct{ cik, period, asOf string }{
	{"1067983", "2023-09-30", "2024-05-16"},
	{"1067983", "2023-12-31", "2024-05-16"},
	{"1067983", "2022-12-31", "2023-02-15"},
	{"9000001", "2024-12-31", "2025-04-02"},
	{"9000001", "2025-03-31", "2025-05-21"},
}

func keepAll(edgar13f.Holding) bool { return false }

// crashClient returns a Client over the mirror with its disk cache in dir,
// keeping rows under a rule of its own for round n so that every round
// writes new cache entries.
func crashClient(dir string, f edgar13f.Fetcher, n int) (*edgar13f.Client, error) {
	return edgar13f.NewClient(
		edgar13f.WithFetcher(f),
		edgar13f.WithCacheDir(dir),
		edgar13f.WithClock(edgartest.Clock(func() time.Time { return edgartest.FixedNow })),
		edgar13f.WithRedactionRule(fmt.Sprint("crash-", n), keepAll),
	)
}

// crashHelper answers the crash queries round after round, printing the
// number of each round it completes, until it is killed.
func crashHelper() error {
	fsys, err := mirror.Dir(edgartest.MirrorDir)
	if err != nil {
		return err
	}
	f := mirror.NewFetcher(fsys)
	for n := 0; ; n++ {
		c, err := crashClient(os.Getenv("EDGAR13F_CACHE"), f, n)
		if err != nil {
			return err
		}
		for _, q := range crashQueries {
			if _, err := c.Holdings(context.Background(), q.cik, date(q.period), date(q.asOf)); err != nil {
				return err
			}
		}
		fmt.Println(n)
	}
}

// TestCrashSafety kills a process in the middle of cache writes (SIGKILL),
// damages some of the entries it left, and checks that the next process
// answers every query correctly, refetching what it cannot trust.
func TestCrashSafety(t *testing.T) {
	ref, _ := edgartest.MirrorClient(t, edgar13f.WithRedactionRule("crash-ref", keepAll))
	var want []*edgar13f.Snapshot
	for _, q := range crashQueries {
		s, err := ref.Holdings(context.Background(), q.cik, date(q.period), date(q.asOf))
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, s)
	}
	dir := filepath.Join(t.TempDir(), "cache")
	for i, delay := range []time.Duration{0, 2, 5, 11, 23} {
		cmd, out, stderr := startHelper(t, "crash", "", "EDGAR13F_CACHE="+dir)
		first, err := out.ReadString('\n')
		if err != nil {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("helper %d: %v; stderr: %s", i, err, stderr)
		}
		time.Sleep(delay * time.Millisecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		rest, _ := io.ReadAll(out)
		cmd.Wait()
		rounds := strings.Fields(first + string(rest))
		last, _ := strconv.Atoi(rounds[len(rounds)-1])

		// Damage every third entry as a torn write would: cut it short.
		damaged := 0
		for j, p := range cacheEntries(t, dir) {
			if j%3 == 0 {
				fi, err := os.Stat(p)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.Truncate(p, fi.Size()/2); err != nil {
					t.Fatal(err)
				}
				damaged++
			}
		}
		fetches := 0
		for n := 0; n <= last+1; n++ {
			f := &edgartest.CountingFetcher{Next: mirror.NewFetcher(edgartest.MirrorFS(t))}
			c, err := crashClient(dir, f, n)
			if err != nil {
				t.Fatal(err)
			}
			for k, q := range crashQueries {
				got, err := c.Holdings(context.Background(), q.cik, date(q.period), date(q.asOf))
				if err != nil {
					t.Fatalf("helper %d, round %d, %v: %v", i, n, q, err)
				}
				if diff := cmp.Diff(want[k], got); diff != "" {
					t.Fatalf("helper %d, round %d, %v (-want +got):\n%s", i, n, q, diff)
				}
			}
			fetches += len(f.Take())
		}
		t.Logf("helper %d killed after %d rounds; %d entries damaged; %d documents refetched", i, last+1, damaged, fetches)
	}
}

// cacheEntries lists the regular files of a cache directory other than
// temporary files and the lock file, in a fixed order.
func cacheEntries(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() && !strings.HasPrefix(d.Name(), ".") && d.Name() != "request.lock" {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
