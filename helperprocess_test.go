package edgar13f_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"testing"

	"github.com/edgar13f/edgar13f/internal/helperproc"
)

// Helper processes: tests that need a process of their own (to kill it,
// or to watch what it writes) run the test binary again.

// helperEnv selects the body of TestHelperProcess in a helper process.
const helperEnv = "EDGAR13F_TEST_HELPER"

// TestHelperProcess is the body of the helper processes that other tests
// start by running the test binary again; it does nothing in a normal run.
func TestHelperProcess(t *testing.T) {
	var err error
	switch os.Getenv(helperEnv) {
	case "":
		t.Skip("helper process for other tests")
	case "crash":
		err = crashHelper()
	case "nowrites":
		err = noWritesHelper()
	case "rate":
		err = rateHelper()
	default:
		err = fmt.Errorf("unknown helper %q", os.Getenv(helperEnv))
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		os.Exit(2)
	}
	os.Exit(0)
}

// startHelper starts the test binary as a helper of the given kind, in
// directory dir ("" for the current one).
func startHelper(t *testing.T, kind, dir string, env ...string) (*exec.Cmd, *bufio.Reader, *bytes.Buffer) {
	t.Helper()
	p := helperproc.Start(t, "TestHelperProcess", dir, append([]string{helperEnv + "=" + kind}, env...)...)
	return p.Cmd, p.Stdout, p.Stderr
}
