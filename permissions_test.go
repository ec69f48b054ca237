package edgar13f_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/edgartest"
)

// Permissions of the cache directory and of what is written there.

// TestCacheDirPermissions checks the modes of what real queries write to
// the cache directory, and that NewClient refuses a cache directory that
// others can write to or that belongs to another user.
func TestCacheDirPermissions(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("unix permissions")
	}
	e := edgartest.NewServer(t)
	dir := filepath.Join(t.TempDir(), "new", "cache")
	c := e.Client(t, dir)
	if _, err := c.Holdings(context.Background(), faultCIK, faultPeriod, faultAsOf); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Filings(context.Background(), faultCIK, faultAsOf); err != nil {
		t.Fatal(err)
	}
	modes := map[fs.FileMode]int{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		modes[fi.Mode()]++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for m := range modes {
		if m != fs.ModeDir|0o700 && m != 0o600 {
			t.Errorf("%d cache paths have mode %v, want drwx------ or -rw-------", modes[m], m)
		}
	}
	if modes[0o600] < 5 {
		t.Errorf("only %d files in the cache after the queries: %v", modes[0o600], modes)
	}

	tests := []struct {
		name  string
		setup func(p string) error
		want  string
	}{
		{"world-writable", func(p string) error { return os.Chmod(p, 0o777) }, "world-writable cache directory "},
		{"world-writable sticky", func(p string) error { return os.Chmod(p, 0o777|fs.ModeSticky) }, "world-writable cache directory "},
		{"owned by another user", func(p string) error { return os.Chown(p, 65534, 65534) }, "owned by uid 65534"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "cache")
			if err := os.Mkdir(p, 0o700); err != nil {
				t.Fatal(err)
			}
			want := tt.want
			if want == "owned by uid 65534" && os.Getuid() != 0 {
				p, want = "/", "owned by uid 0" // only root can give a directory away
			} else if err := tt.setup(p); err != nil {
				t.Fatal(err)
			}
			c, err := edgar13f.NewClient(edgar13f.WithCacheDir(p), edgar13f.WithUserAgent(edgartest.UserAgent))
			if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), p) {
				t.Fatalf("NewClient = %v, %v; want an error naming %s and %q", c, err, p, want)
			}
			t.Logf("refused: %v", err)
		})
	}
}
