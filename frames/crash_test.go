package frames_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/edgar13f/edgar13f/frames"
	"github.com/edgar13f/edgar13f/internal/helperproc"
)

// TestImportHelper imports the zips named by FRAMES_ZIPS (two paths)
// into the store FRAMES_STORE, one after the other, again and again,
// printing the number of each import it finished, until it is killed.
func TestImportHelper(t *testing.T) {
	dir := os.Getenv("FRAMES_STORE")
	if dir == "" {
		t.Skip("helper process for TestImportSIGKILL")
	}
	zips := filepath.SplitList(os.Getenv("FRAMES_ZIPS"))
	s, err := frames.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; ; n++ {
		if _, err := s.ImportFile(context.Background(), zips[n%2]); err != nil {
			t.Fatal(err)
		}
		fmt.Println(n)
	}
}

// TestImportSIGKILL kills an importing process (SIGKILL) at moments spread
// over an import, and checks that the store a new process opens is one
// snapshot whole, the one before or the one being imported, and nothing
// of a half-finished import is left in it.
func TestImportSIGKILL(t *testing.T) {
	ctx := context.Background()
	small := zipOf(t, [2]string{"CIK0000000001.json", goodDoc})
	// frameSet answers three questions, declines and errors included.
	frameSet := func(s *frames.Store) []any {
		var out []any
		for _, q := range [][2]string{{"net_income", "CY2023"}, {"net_income", "CY2009"}, {"total_assets", "CY2023Q4I"}} {
			f, err := s.Frame(ctx, q[0], q[1], date("2024-06-30"))
			if err != nil {
				out = append(out, err.Error())
			} else {
				out = append(out, f)
			}
		}
		return out
	}
	var want [2][]any
	for i, z := range []string{mirrorZip, small} {
		s := open(t)
		if _, err := s.ImportFile(ctx, z); err != nil {
			t.Fatal(err)
		}
		want[i] = frameSet(s)
	}
	seen := map[int]bool{}
	for i, delay := range []time.Duration{0, 5, 20, 45, 90, 150, 300, 600} {
		dir := t.TempDir()
		p := helperproc.Start(t, "TestImportHelper", "", "FRAMES_STORE="+dir, "FRAMES_ZIPS="+mirrorZip+string(os.PathListSeparator)+small)
		if _, err := p.Stdout.ReadString('\n'); err != nil {
			t.Fatalf("helper %d: %v; stderr: %s", i, err, p.Stderr)
		}
		time.Sleep(delay * time.Millisecond)
		if err := p.Cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		p.Cmd.Wait()
		s, err := frames.OpenDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		got := frameSet(s)
		switch {
		case cmp.Equal(got, want[0]):
			seen[0] = true
		case cmp.Equal(got, want[1]):
			seen[1] = true
		default:
			t.Fatalf("helper %d killed after %v: the store holds neither snapshot whole: %s", i, delay, cmp.Diff(want[0], got))
		}
		if es, _ := os.ReadDir(filepath.Join(dir, ".staging")); len(es) != 0 {
			t.Errorf("helper %d: %d entries left in .staging after Open", i, len(es))
		}
	}
	t.Logf("snapshots found after the kills: %v", seen)
}
