// Package helperproc starts the running test binary again as a helper
// process, for tests that must kill a process in the middle of its work,
// share a resource between processes, or watch what a process writes.
//
// The helper is a test of the same binary that does its work when an
// environment variable says so and skips otherwise:
//
//	func TestHelperProcess(t *testing.T) {
//		if os.Getenv("MY_HELPER") == "" {
//			t.Skip("helper process for other tests")
//		}
//		...
//	}
//
//	p := helperproc.Start(t, "TestHelperProcess", "", "MY_HELPER=1")
package helperproc

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// A Proc is a running helper process.
type Proc struct {
	Cmd    *exec.Cmd
	Stdin  io.WriteCloser // its standard input
	Stdout *bufio.Reader  // its standard output
	Stderr *bytes.Buffer  // its standard error, collected
}

// Start runs the test named test of the running test binary in a new
// process, in dir ("" for the current directory), with env added to this
// process's environment. The process is killed, if it still runs, when
// the test ends.
func Start(tb testing.TB, test, dir string, env ...string) *Proc {
	tb.Helper()
	exe, err := filepath.Abs(os.Args[0]) // dir may differ from the current one
	if err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^"+test+"$", "-test.count=1")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	p := &Proc{Cmd: cmd, Stderr: &bytes.Buffer{}}
	cmd.Stderr = p.Stderr
	if p.Stdin, err = cmd.StdinPipe(); err != nil {
		tb.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	p.Stdout = bufio.NewReader(out)
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	return p
}

// Kill kills the process and waits for it to end.
func (p *Proc) Kill() {
	_ = p.Cmd.Process.Kill()
	_ = p.Cmd.Wait()
}
