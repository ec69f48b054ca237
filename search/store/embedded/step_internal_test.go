package embedded

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f/internal/helperproc"
	"github.com/edgar13f/edgar13f/search/store"
)

// stopAtStep is the body of a helper process that test killer kills: it
// opens the store in the directory $env names and runs work, which must
// reach the store's step of that name; there it prints "step" and waits to
// be killed. Getting past work prints missed and fails the process.
func stopAtStep(t *testing.T, env, killer, step string, work func(s *Store) error, missed string) {
	dir := os.Getenv(env)
	if dir == "" {
		t.Skip("helper process for " + killer)
	}
	s, err := Open(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	s.step = func(name string) {
		if name == step {
			fmt.Println("step")
			select {} // until killed
		}
	}
	if err := work(s); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	fmt.Println(missed)
	os.Exit(2)
}

// killAtStep runs the test helper (see stopAtStep) on the store in dir,
// kills it once it is at its step, and checks that no file whose name
// begins with prefix is left in the directories of files.
func killAtStep(t *testing.T, helper, env, dir string, files []string, prefix string) {
	t.Helper()
	p := helperproc.Start(t, helper, "", env+"="+dir)
	line, err := p.Stdout.ReadString('\n')
	p.Kill()
	if err != nil || line != "step\n" {
		t.Fatalf("helper: %q, %v; stderr: %s", line, err, p.Stderr)
	}
	for _, f := range files {
		names, err := os.ReadDir(filepath.Dir(f))
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range names {
			if strings.HasPrefix(n.Name(), prefix) {
				t.Errorf("the killed process left %s in %s", n.Name(), filepath.Dir(f))
			}
		}
	}
}

// TestRetryOutlastsReplacements: a query that keeps finding a filing
// replaced meanwhile runs again, with pauses, until the Puts let it
// through (ten times is more than the store used to try); one that never
// gets through fails with an error matching store.ErrBusy, never an
// answer from a mix of versions.
func TestRetryOutlastsReplacements(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	want := []store.Match{{Score: 1}}
	runs := 0
	ms, err := s.retry(ctx, func(*view) ([]store.Match, error) {
		if runs++; runs <= 10 {
			return nil, fs.ErrNotExist
		}
		return want, nil
	})
	if err != nil || len(ms) != 1 || runs != 11 {
		t.Fatalf("a query replaced ten times: %v, %v after %d runs; want its answer after 11", ms, err, runs)
	}
	runs = 0
	ms, err = s.retry(ctx, func(*view) ([]store.Match, error) {
		runs++
		return want, fs.ErrNotExist
	})
	if !errors.Is(err, store.ErrBusy) || !errors.Is(err, fs.ErrNotExist) || ms != nil || runs != maxAttempts {
		t.Fatalf("a query always replaced: %v, %v after %d runs; want nothing and an error matching store.ErrBusy after %d", ms, err, runs, maxAttempts)
	}
}
