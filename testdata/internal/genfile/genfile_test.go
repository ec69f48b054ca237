package genfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a", "b", "f.txt")
	var w Writer
	check := func(want string, written, unchanged int) {
		t.Helper()
		got, err := os.ReadFile(path)
		if err != nil || string(got) != want || w.Written != written || w.Unchanged != unchanged {
			t.Fatalf("file %q (%v), written %d, unchanged %d; want %q, %d, %d", got, err, w.Written, w.Unchanged, want, written, unchanged)
		}
	}
	if err := w.Write(path, []byte("one")); err != nil {
		t.Fatal(err)
	}
	check("one", 1, 0)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(path, []byte("one")); err != nil {
		t.Fatal(err)
	}
	check("one", 1, 1)
	if fi2, err := os.Stat(path); err != nil || !os.SameFile(fi, fi2) || fi2.Mode().Perm() != 0o644 {
		t.Fatalf("an up-to-date file was replaced or has mode %v", fi2.Mode())
	}
	if err := os.Chmod(path, 0o444); err != nil {
		t.Fatal(err)
	}
	if err := w.Write(path, []byte("two")); err != nil {
		t.Fatal(err)
	}
	check("two", 2, 1)
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("left behind: %v", entries)
	}
}
