package edgar13f_test

import (
	"context"
	"io"
	"io/fs"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/edgartest"
	"github.com/edgar13f/edgar13f/mirror"
)

// Nothing is written outside the cache directory.

// noWritesHelper runs queries with the default cache directory against a
// mirror served in-process; with EDGAR13F_STRAY set it also writes that
// file, a planted stray write the check must catch.
func noWritesHelper() error {
	fsys, err := mirror.Dir(os.Getenv("EDGAR13F_MIRROR"))
	if err != nil {
		return err
	}
	// Not edgartest.NewServer: this runs in a child process, outside any
	// test, with the mirror it is told of in its environment.
	srv := httptest.NewServer(mirror.Handler(fsys))
	defer srv.Close()
	c, err := edgar13f.NewClient(
		edgar13f.WithUserAgent(edgartest.UserAgent),
		edgar13f.WithBaseURL(srv.URL),
		edgar13f.WithRequestInterval(101*time.Millisecond),
		edgar13f.WithClock(edgartest.Clock(func() time.Time { return edgartest.FixedNow })),
	)
	if err != nil {
		return err
	}
	ctx := context.Background()
	if _, err := c.Holdings(ctx, faultCIK, faultPeriod, faultAsOf); err != nil {
		return err
	}
	if _, err := c.Filings(ctx, faultCIK, faultAsOf); err != nil {
		return err
	}
	if _, err := c.Diff(ctx, faultCIK, faultPeriod, date("2025-03-31"), date("2025-06-01")); err != nil {
		return err
	}
	if p := os.Getenv("EDGAR13F_STRAY"); p != "" {
		return os.WriteFile(p, []byte("stray"), 0o600)
	}
	return nil
}

// fileState is what a listing records of a path. listTree and
// changesOutside are also in examples/internal/testkit (ListTree,
// ChangesOutside) for the example binaries: the examples may import only
// the public package and examples/internal, and the library's tests cannot
// import examples/internal, so there is no package both could share
// without exporting a test helper from the library.
type fileState struct {
	mode    fs.FileMode
	size    int64
	modTime time.Time
}

// listTree records every path under root.
func listTree(t testing.TB, root string) map[string]fileState {
	t.Helper()
	out := map[string]fileState{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		st := fileState{mode: fi.Mode()}
		if !fi.IsDir() { // a directory's size and time change with its entries
			st.size, st.modTime = fi.Size(), fi.ModTime()
		}
		out[p] = st
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// changesOutside returns the sorted paths created, changed or removed
// between two listings that are not inside allowed.
func changesOutside(before, after map[string]fileState, allowed string) []string {
	var out []string
	inside := func(p string) bool { return p == allowed || strings.HasPrefix(p, allowed+string(filepath.Separator)) }
	for p, st := range after {
		if old, ok := before[p]; (!ok || old != st) && !inside(p) {
			out = append(out, p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok && !inside(p) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// isolatedEnv makes fresh HOME, XDG_* and TMPDIR directories and a
// read-only working directory under root, and returns the environment that
// points at them and the working directory.
func isolatedEnv(t testing.TB, root string) (env []string, work string) {
	t.Helper()
	vars := []string{"HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR", "TMPDIR"}
	for _, v := range vars {
		d := filepath.Join(root, strings.ToLower(v))
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
		env = append(env, v+"="+d)
	}
	work = filepath.Join(root, "work")
	if err := os.Mkdir(work, 0o555); err != nil {
		t.Fatal(err)
	}
	return env, work
}

// TestNoWritesOutsideCacheDir runs the library in a helper process whose
// HOME, XDG_* and TMPDIR are fresh directories and whose working directory
// is read-only, and lists every file before and after: only the cache
// directory may change. A planted stray write must be caught.
func TestNoWritesOutsideCacheDir(t *testing.T) {
	tree, err := filepath.Abs(edgartest.MirrorDir)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		stray string // file the helper writes besides its queries, relative to root
	}{
		{"library", ""},
		{"planted stray write", "home/.edgar13f-stray"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			env, work := isolatedEnv(t, root)
			cacheDir := filepath.Join(root, "xdg_cache_home", "edgar13f")
			var want []string
			env = append(env, "EDGAR13F_MIRROR="+tree)
			if tt.stray != "" {
				want = []string{filepath.Join(root, filepath.FromSlash(tt.stray))}
				env = append(env, "EDGAR13F_STRAY="+want[0])
			}
			before := listTree(t, root)
			cmd, out, stderr := startHelper(t, "nowrites", work, env...)
			io.Copy(io.Discard, out)
			if err := cmd.Wait(); err != nil {
				t.Fatalf("helper: %v; stderr: %s", err, stderr)
			}
			after := listTree(t, root)
			if diff := cmp.Diff(want, changesOutside(before, after, cacheDir)); diff != "" {
				t.Errorf("paths changed outside the cache directory (-want +got):\n%s", diff)
			}
			if n := len(changesOutside(before, after, filepath.Join(root, "nowhere"))); n < 10 {
				t.Errorf("only %d paths changed in all; the helper did not use the default cache directory", n)
			}
		})
	}
}
