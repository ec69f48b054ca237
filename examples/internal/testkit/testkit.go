// Package testkit is the test scaffolding the example binaries share:
// building a binary once for a test run, running it with nothing of the
// user's environment, the recorded EDGAR mirror and an HTTP server of it,
// golden files, file-tree listings and synthetic answers.
//
// It is imported by tests only, and like every package under examples/ it
// uses the library's public API alone.
package testkit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edgar13f/edgar13f/mirror"
)

var update = flag.Bool("update", false, "rewrite testdata/golden")

// Main builds the command of the package under test (the current
// directory) into a temporary directory, sets *bin to its path, runs the
// tests and exits. race builds it with the race detector.
func Main(m *testing.M, bin *string, race bool) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "edgar13f-example-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := 1
	if *bin, err = Build(dir, ".", race); err != nil {
		fmt.Fprintln(os.Stderr, err)
	} else {
		code = m.Run()
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// Build builds the command package pkg (a directory, "." or "./edgar13f")
// into dir, naming the binary after the package's directory, and returns
// its path.
func Build(dir, pkg string, race bool) (string, error) {
	abs, err := filepath.Abs(pkg)
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, filepath.Base(abs))
	args := []string{"build", "-o", bin}
	if race {
		args = append(args, "-race")
	}
	if out, err := exec.Command("go", append(args, pkg)...).CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
	}
	return bin, nil
}

// libraryModule is the module path of the library, whose go.mod marks
// the repository's root.
const libraryModule = "github.com/edgar13f/edgar13f"

// Root returns the absolute path of the repository's root: the first
// directory at or above the current one whose go.mod declares the
// library's module. The examples are a module of their own, so the
// nearest go.mod is theirs, not the root's. It panics when there is none.
func Root() string {
	dir, err := os.Getwd()
	if err != nil {
		panic(err)
	}
	root, err := findRoot(dir)
	if err != nil {
		panic(err)
	}
	return root
}

// findRoot returns the first directory at or above dir holding a go.mod
// whose module line names the library's module.
func findRoot(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && modulePath(b) == libraryModule {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("testkit: no go.mod of module %s at or above the test's directory", libraryModule)
		}
		dir = parent
	}
}

// modulePath returns the path that the module line of a go.mod declares,
// or "" when it has none.
func modulePath(gomod []byte) string {
	for _, line := range strings.Split(string(gomod), "\n") {
		line, _, _ = strings.Cut(line, "//")
		f := strings.Fields(line)
		if len(f) == 2 && f[0] == "module" {
			return strings.Trim(f[1], "\"`")
		}
	}
	return ""
}

// Mirror returns the absolute path of the recorded EDGAR mirror,
// testdata/mirror at the repository's root (see Root). It panics when
// there is no root.
func Mirror() string {
	return filepath.Join(Root(), "testdata", "mirror")
}

// Command returns a command running bin with args and with env as its
// whole environment besides PATH, a private HOME and a private
// EDGAR13F_CACHE_DIR (env may set another). Its standard error goes to
// the test log.
func Command(t testing.TB, bin string, env []string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "EDGAR13F_CACHE_DIR=" + t.TempDir()}, env...)
	cmd.Stderr = logWriter{t}
	return cmd
}

// logWriter passes what a command writes to the test log.
type logWriter struct{ t testing.TB }

func (l logWriter) Write(p []byte) (int, error) {
	l.t.Logf("%s: %s", "stderr", strings.TrimSpace(string(p)))
	return len(p), nil
}

// Run runs cmd to its end and returns its standard output, standard
// error and exit code.
func Run(t testing.TB, cmd *exec.Cmd) (stdout, stderr string, code int) {
	t.Helper()
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	code, err := ExitCode(cmd.Run())
	if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

// ExitCode returns the exit code of a process from the error of its
// Run or Wait, or that error when the process did not run to an exit.
func ExitCode(err error) (int, error) {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, nil
	case errors.As(err, &ee) && ee.Exited():
		return ee.ExitCode(), nil
	}
	return -1, err
}

// MirrorServer serves the recorded EDGAR mirror over HTTP on a loopback
// address until the test ends, and counts the requests. reject, when not
// nil, answers 403 Forbidden to the requests it reports.
func MirrorServer(t testing.TB, reject func(*http.Request) bool) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	fsys, err := mirror.Dir(Mirror())
	if err != nil {
		t.Fatal(err)
	}
	var n atomic.Int64
	h := mirror.Handler(fsys)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		if reject != nil && reject(r) {
			http.Error(w, "rejected", http.StatusForbidden)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// StallingEDGAR is an EDGAR that answers nothing: every request is held
// until the client gives it up or the test ends (then it is a 404), so
// that a test can act while a program waits on EDGAR, with no timing
// assumed. It returns the server's URL and a channel that receives when a
// request arrives (holding one arrival at most).
func StallingEDGAR(t testing.TB) (url string, arrived <-chan struct{}) {
	t.Helper()
	arrivals := make(chan struct{}, 1)
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case arrivals <- struct{}{}:
		default:
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
		http.Error(w, "gone", http.StatusNotFound)
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) }) // before Close, which waits for the handlers
	return srv.URL, arrivals
}

// Context returns a context for a call the test waits on: it ends when
// the test does, or a little before the test binary's deadline (-timeout),
// so that a call that hangs fails the test naming itself. It sets no
// deadline of its own: on a loaded machine a call may take minutes, and
// that is no failure.
func Context(t testing.TB) context.Context {
	ctx := t.Context()
	type deadliner interface{ Deadline() (time.Time, bool) }
	if d, ok := t.(deadliner); ok {
		if dl, ok := d.Deadline(); ok {
			ctx, cancel := context.WithDeadline(ctx, dl.Add(-time.Until(dl)/20))
			t.Cleanup(cancel)
			return ctx
		}
	}
	return ctx
}

// Connect starts cmd as an MCP server and returns the client session,
// closed when the test ends.
func Connect(t testing.TB, cmd *exec.Cmd) *mcp.ClientSession {
	t.Helper()
	ctx := Context(t)
	s, err := mcp.NewClient(&mcp.Implementation{Name: "edgar13f-example-test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// golden returns the content of testdata/golden/name, or writes want there
// and returns nil with -update.
func golden(t testing.TB, name string, want []byte) []byte {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	return b
}

// GoldenText compares got with the file testdata/golden/name byte for
// byte; go test -update rewrites the file.
func GoldenText(t testing.TB, name, got string) {
	t.Helper()
	want := golden(t, name, []byte(got))
	if want == nil {
		return
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("testdata/golden/%s (-want +got):\n%s", name, diff)
	}
}

// GoldenJSON compares got, a decoded JSON value, with the JSON file
// testdata/golden/name.json as decoded values; go test -update rewrites
// the file, indented.
func GoldenJSON(t testing.TB, name string, got any) {
	t.Helper()
	b, err := json.MarshalIndent(got, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	data := golden(t, name+".json", append(b, '\n'))
	if data == nil {
		return
	}
	var want any
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("testdata/golden/%s.json (-want +got):\n%s", name, diff)
	}
}

// FileState is what a listing records of a path.
type FileState struct {
	Mode    fs.FileMode
	Size    int64     // 0 for a directory
	ModTime time.Time // zero for a directory
}

// ListTree records every path under root.
func ListTree(t testing.TB, root string) map[string]FileState {
	t.Helper()
	out := map[string]FileState{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		st := FileState{Mode: fi.Mode()}
		if !fi.IsDir() {
			st.Size, st.ModTime = fi.Size(), fi.ModTime()
		}
		out[p] = st
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// ChangesOutside returns the sorted paths created, changed or removed
// between two listings that are not inside allowed.
func ChangesOutside(before, after map[string]FileState, allowed string) []string {
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

// RefusedURL returns an http URL of the loopback interface where nothing
// listens, so a request to it is refused at once. The port stays held
// (bound, not listening) until the test ends, where the system allows it
// (see refusedPort): a port only taken and released could be taken again
// by any other program on the machine, such as another test suite's
// server, which would then answer.
func RefusedURL(t testing.TB) string {
	t.Helper()
	return "http://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(refusedPort(t)))
}
