package diskcache

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/edgar13f/edgar13f/internal/helperproc"
)

// crashEnv names the cache directory the crash helper writes to.
const crashEnv = "DISKCACHE_CRASH_HELPER_DIR"

var crashKeys = []string{"crash/a", "crash/b", "crash/c", "crash/d"}

// crashValue returns the value the helper writes under key in round n: an
// 8-byte round number followed by about 2 MiB derived from key and n.
func crashValue(key string, n uint64) []byte {
	pat := []byte(fmt.Sprintf("%s#%d;", key, n))
	b := make([]byte, 8, 8+(2<<20)+len(pat))
	binary.BigEndian.PutUint64(b, n)
	return append(b, bytes.Repeat(pat, (2<<20)/len(pat))...)
}

// TestCrashHelper is the body of the helper process started by TestCrash.
func TestCrashHelper(t *testing.T) {
	dir := os.Getenv(crashEnv)
	if dir == "" {
		t.Skip("helper process for TestCrash")
	}
	d, err := Open(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	for n := uint64(0); ; n++ {
		for _, k := range crashKeys {
			if err := d.Put(context.Background(), k, crashValue(k, n)); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(2)
			}
		}
		if n == 0 {
			fmt.Println("ready")
		}
	}
}

func TestCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("starts helper processes")
	}
	dir := filepath.Join(t.TempDir(), "cache")
	for i, delay := range []time.Duration{0, 1, 3, 7, 17, 40} {
		p := helperproc.Start(t, "TestCrashHelper", "", crashEnv+"="+dir)
		line, err := p.Stdout.ReadString('\n')
		if err != nil || line != "ready\n" {
			p.Kill()
			t.Fatalf("helper %d: read %q, %v; stderr: %s", i, line, err, p.Stderr.String())
		}
		time.Sleep(delay * time.Millisecond)
		p.Kill()

		d, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		hits := 0
		for _, k := range crashKeys {
			got, err := d.Get(context.Background(), k)
			if errors.Is(err, ErrMiss) {
				continue
			}
			if err != nil {
				t.Fatalf("helper %d: Get(%q): %v", i, k, err)
			}
			if len(got) < 8 || !bytes.Equal(got, crashValue(k, binary.BigEndian.Uint64(got))) {
				t.Fatalf("helper %d: Get(%q) returned an invalid value of %d bytes", i, k, len(got))
			}
			hits++
		}
		// The helper completed round 0 before "ready", so every key is present.
		if hits != len(crashKeys) {
			t.Errorf("helper %d: %d of %d keys present, want all", i, hits, len(crashKeys))
		}
	}
	// Leftovers of killed writers may remain, but only as temporary files.
	temps := 0
	for _, f := range listFiles(t, dir) {
		switch name := filepath.Base(f); {
		case strings.HasPrefix(name, tempPrefix):
			temps++
		case len(name) != 62:
			t.Errorf("unexpected file %s", f)
		}
	}
	t.Logf("%d temporary files left by killed writers", temps)
}
