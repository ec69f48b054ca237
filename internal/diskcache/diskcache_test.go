package diskcache

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func openTemp(t *testing.T) *Dir {
	t.Helper()
	d, err := Open(filepath.Join(t.TempDir(), "cache"))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return d
}

func TestRoundTrip(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		key  string
		data []byte
	}{
		{"rows key", "rows/redact-v1/0000950123-23-011029", []byte(`[{"cusip":"037833100"}]`)},
		{"empty data", "empty", []byte{}},
		{"empty key", "", []byte("value for the empty key")},
		{"binary", "bin", []byte{0, 1, 2, 0xff, 0xfe, '\n'}},
		{"large", "large", bytes.Repeat([]byte("0123456789abcdef"), 1<<16)},
	}
	d := openTemp(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := d.Put(ctx, tt.key, tt.data); err != nil {
				t.Fatalf("Put: %v", err)
			}
			got, err := d.Get(ctx, tt.key)
			if err != nil {
				t.Fatalf("Get: %v", err)
			}
			if diff := cmp.Diff(tt.data, got); diff != "" {
				t.Errorf("Get mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestOverwrite(t *testing.T) {
	ctx := context.Background()
	d := openTemp(t)
	for _, v := range []string{"first", "second value", ""} {
		if err := d.Put(ctx, "k", []byte(v)); err != nil {
			t.Fatalf("Put(%q): %v", v, err)
		}
		got, err := d.Get(ctx, "k")
		if err != nil {
			t.Fatalf("Get: %v", err)
		}
		if diff := cmp.Diff(v, string(got)); diff != "" {
			t.Errorf("Get mismatch (-want +got):\n%s", diff)
		}
	}
}

func TestMiss(t *testing.T) {
	d := openTemp(t)
	if err := d.Put(context.Background(), "present", []byte("x")); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"absent", "present ", "Present", ""} {
		got, err := d.Get(context.Background(), key)
		if !errors.Is(err, ErrMiss) || got != nil {
			t.Errorf("Get(%q) = %q, %v; want nil, ErrMiss", key, got, err)
		}
	}
}

func TestContextDone(t *testing.T) {
	d := openTemp(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := d.Put(ctx, "k", []byte("v")); !errors.Is(err, context.Canceled) {
		t.Errorf("Put with done ctx = %v, want context.Canceled", err)
	}
	if _, err := d.Get(context.Background(), "k"); !errors.Is(err, ErrMiss) {
		t.Errorf("Get after cancelled Put = %v, want ErrMiss", err)
	}
	if _, err := d.Get(ctx, "k"); !errors.Is(err, context.Canceled) {
		t.Errorf("Get with done ctx = %v, want context.Canceled", err)
	}
	if files := listFiles(t, d.Path()); len(files) != 0 {
		t.Errorf("files after cancelled Put: %q, want none", files)
	}
}

func TestCorruptEntriesAreMisses(t *testing.T) {
	ctx := context.Background()
	const key = "rows/redact-v1/0000950123-23-011029"
	value := []byte("some cached rows, long enough to damage in the middle")
	tests := []struct {
		name   string
		damage func(entry []byte) []byte
	}{
		{"zero length", func([]byte) []byte { return nil }},
		{"truncated header", func(b []byte) []byte { return b[:headerSize-1] }},
		{"truncated data", func(b []byte) []byte { return b[:len(b)-1] }},
		{"extra byte", func(b []byte) []byte { return append(b, 0) }},
		{"flipped data byte", func(b []byte) []byte { b[headerSize+5] ^= 0x01; return b }},
		{"flipped checksum byte", func(b []byte) []byte { b[20] ^= 0x80; return b }},
		{"flipped length", func(b []byte) []byte { b[15] ^= 0x01; return b }},
		{"bad magic", func(b []byte) []byte { b[0] = 'X'; return b }},
		{"other version", func(b []byte) []byte { b[7]++; return b }},
		{"garbage", func(b []byte) []byte { return bytes.Repeat([]byte{0xa5}, len(b)) }},
		{"entry for another key", func([]byte) []byte { return encode("another key", value) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := openTemp(t)
			if err := d.Put(ctx, key, value); err != nil {
				t.Fatal(err)
			}
			_, file := d.entryPath(key)
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, tt.damage(b), 0o600); err != nil {
				t.Fatal(err)
			}
			got, err := d.Get(ctx, key)
			if !errors.Is(err, ErrMiss) || got != nil {
				t.Errorf("Get = %q, %v; want nil, ErrMiss", got, err)
			}
		})
	}
}

func TestConcurrentPutGet(t *testing.T) {
	ctx := context.Background()
	d := openTemp(t)
	keys := []string{"a", "b", "c"}
	// value is every value goroutine g may write under key in step i; a
	// reader recovers g and i from its prefix and checks the whole value.
	value := func(key string, g, i int) []byte {
		return bytes.Repeat([]byte(fmt.Sprintf("%s-%02d-%03d|", key, g, i)), 500+g*37)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 1000)
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 30 {
				key := keys[(g+i)%len(keys)]
				if g%2 == 0 {
					if err := d.Put(ctx, key, value(key, g, i)); err != nil {
						errs <- fmt.Errorf("Put: %w", err)
					}
					continue
				}
				got, err := d.Get(ctx, key)
				if errors.Is(err, ErrMiss) {
					continue
				}
				if err != nil {
					errs <- fmt.Errorf("Get: %w", err)
					continue
				}
				var wg2, wi int
				if _, err := fmt.Sscanf(string(got), key+"-%02d-%03d|", &wg2, &wi); err != nil {
					errs <- fmt.Errorf("Get(%q) returned unrecognised value %.40q", key, got)
					continue
				}
				if !bytes.Equal(got, value(key, wg2, wi)) {
					errs <- fmt.Errorf("Get(%q) returned a torn value starting %.40q", key, got)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// No temporary files are left once every Put has returned.
	for _, f := range listFiles(t, d.Path()) {
		if strings.HasPrefix(filepath.Base(f), tempPrefix) {
			t.Errorf("temporary file left behind: %s", f)
		}
	}
}

func TestPermissions(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("unix permissions")
	}
	d := openTemp(t)
	if err := d.Put(context.Background(), "k", []byte("v")); err != nil {
		t.Fatal(err)
	}
	sub, file := d.entryPath("k")
	tests := []struct {
		path string
		want fs.FileMode
	}{
		{d.Path(), fs.ModeDir | 0o700},
		{sub, fs.ModeDir | 0o700},
		{file, 0o600},
	}
	for _, tt := range tests {
		fi, err := os.Stat(tt.path)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode(); got != tt.want {
			t.Errorf("mode of %s = %v, want %v", tt.path, got, tt.want)
		}
	}
}

func TestOpenRefuses(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("unix permissions")
	}
	tests := []struct {
		name    string
		setup   func(t *testing.T) string
		wantMsg string
	}{
		{"world-writable", func(t *testing.T) string {
			p := filepath.Join(t.TempDir(), "open")
			if err := os.Mkdir(p, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(p, 0o777); err != nil {
				t.Fatal(err)
			}
			return p
		}, "world-writable"},
		{"world-writable sticky", func(t *testing.T) string {
			p := filepath.Join(t.TempDir(), "sticky")
			if err := os.Mkdir(p, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(p, 0o777|fs.ModeSticky); err != nil {
				t.Fatal(err)
			}
			return p
		}, "world-writable"},
		{"regular file", func(t *testing.T) string {
			p := filepath.Join(t.TempDir(), "file")
			if err := os.WriteFile(p, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			return p
		}, "not a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := tt.setup(t)
			before, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			d, err := Open(p)
			if err == nil {
				t.Fatalf("Open(%s) = %v, nil; want error", p, d)
			}
			if !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("Open error %q does not name %s and %q", err, p, tt.wantMsg)
			}
			after, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			if before.Mode() != after.Mode() {
				t.Errorf("Open changed mode from %v to %v", before.Mode(), after.Mode())
			}
		})
	}
}

func TestOpenRefusesOtherOwner(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("needs unix")
	}
	// As root, give a fresh directory to nobody (uid 65534); otherwise use
	// "/", which is owned by root and not world-writable.
	p, want := "/", "diskcache: refusing cache directory / owned by uid 0 (current uid "+strconv.Itoa(os.Getuid())+")"
	if os.Getuid() == 0 {
		p = filepath.Join(t.TempDir(), "cache")
		if err := os.Mkdir(p, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(p, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		want = "diskcache: refusing cache directory " + p + " owned by uid 65534 (current uid 0)"
	}
	d, err := Open(p)
	if err == nil {
		t.Fatalf("Open(%s) = %v, nil; want an owner error", p, d)
	}
	if diff := cmp.Diff(want, err.Error()); diff != "" {
		t.Errorf("Open(%s) error (-want +got):\n%s", p, diff)
	}
}

func TestTempFileNotServed(t *testing.T) {
	ctx := context.Background()
	d := openTemp(t)
	const key = "k"
	sub, file := d.entryPath(key)
	if err := os.Mkdir(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	// A complete, valid entry that a crash left under a temporary name.
	if err := os.WriteFile(filepath.Join(sub, tempPrefix+"123456"), encode(key, []byte("v")), 0o600); err != nil {
		t.Fatal(err)
	}
	// And a half-written one next to the entry name.
	if err := os.WriteFile(file+".partial", encode(key, []byte("v"))[:10], 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := d.Get(ctx, key); !errors.Is(err, ErrMiss) {
		t.Errorf("Get = %q, %v; want ErrMiss", got, err)
	}
	if err := d.Put(ctx, key, []byte("new")); err != nil {
		t.Fatal(err)
	}
	got, err := d.Get(ctx, key)
	if err != nil || string(got) != "new" {
		t.Errorf("Get after Put = %q, %v; want \"new\"", got, err)
	}
}

func TestKeysCannotEscape(t *testing.T) {
	ctx := context.Background()
	parent := t.TempDir()
	d, err := Open(filepath.Join(parent, "cache"))
	if err != nil {
		t.Fatal(err)
	}
	keys := []string{
		"../escape", "../../escape", "/etc/passwd", "a/b/c", "..", ".", "/",
		`..\..\escape`, "x\x00y", strings.Repeat("../", 100) + "tmp/x",
	}
	for i, k := range keys {
		if err := d.Put(ctx, k, []byte{byte(i)}); err != nil {
			t.Fatalf("Put(%q): %v", k, err)
		}
		got, err := d.Get(ctx, k)
		if err != nil || !bytes.Equal(got, []byte{byte(i)}) {
			t.Errorf("Get(%q) = %v, %v; want [%d]", k, got, err, i)
		}
	}
	entries, err := os.ReadDir(parent)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if diff := cmp.Diff([]string{"cache"}, names); diff != "" {
		t.Errorf("parent directory entries (-want +got):\n%s", diff)
	}
	files := listFiles(t, parent)
	if len(files) != len(keys) {
		t.Errorf("got %d files, want %d: %q", len(files), len(keys), files)
	}
	for _, f := range files {
		rel, err := filepath.Rel(d.Path(), f)
		if err != nil || strings.HasPrefix(rel, "..") || len(strings.Split(rel, string(filepath.Separator))) != 2 {
			t.Errorf("file %s is not an entry inside %s", f, d.Path())
		}
	}
}

func TestDefaultPath(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("XDG_CACHE_HOME is used on Linux")
	}
	tests := []struct {
		name, xdg, home, want string
	}{
		{"xdg", "/x/cache", "/home/u", "/x/cache/edgar13f"},
		{"home", "", "/home/u", "/home/u/.cache/edgar13f"},
		{"neither", "", "", filepath.Join(os.TempDir(), fmt.Sprintf("edgar13f-%d", os.Getuid()))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("XDG_CACHE_HOME", tt.xdg)
			t.Setenv("HOME", tt.home)
			if diff := cmp.Diff(tt.want, DefaultPath()); diff != "" {
				t.Errorf("DefaultPath (-want +got):\n%s", diff)
			}
		})
	}
}

// listFiles returns every non-directory under root.
func listFiles(t *testing.T, root string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !e.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// encode returns the entry bytes Put writes for key and data.
func encode(key string, data []byte) []byte {
	return append(header(key, data), data...)
}
