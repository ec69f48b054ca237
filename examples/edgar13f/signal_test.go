package main

import (
	"bytes"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/edgar13f/edgar13f/examples/internal/testkit"
)

// TestInterrupt: a command stopped by SIGINT exits 130, by SIGTERM 143,
// saying it was interrupted. The signal is sent while the command waits
// on an EDGAR request that the test's server holds until the command
// gives it up, so no timing is assumed.
func TestInterrupt(t *testing.T) {
	for _, tt := range []struct {
		sig  os.Signal
		code int
		args []string
	}{
		{os.Interrupt, 130, []string{"index", "AAPL", "--as-of", "2025-03-01"}},
		{syscall.SIGTERM, 143, []string{"index", "AAPL", "--as-of", "2025-03-01"}},
		{os.Interrupt, 130, []string{"filings", "320193", "--as-of", "2025-03-01"}},
	} {
		t.Run(tt.sig.String()+" "+tt.args[0], func(t *testing.T) {
			edgar, arrived := testkit.StallingEDGAR(t)
			cmd := testkit.Command(t, bin, []string{"SEC_USER_AGENT=edgar13f tests test@example.com", "EDGAR13F_BASE_URL=" + edgar}, tt.args...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case <-arrived:
			case err := <-done:
				t.Fatalf("ended before its request: %v, stderr %q", err, stderr.String())
			}
			if err := cmd.Process.Signal(tt.sig); err != nil {
				t.Fatal(err)
			}
			code, err := testkit.ExitCode(<-done)
			if err != nil {
				t.Fatal(err)
			}
			if code != tt.code || !strings.Contains(stderr.String(), "interrupted") {
				t.Errorf("exit %d, stderr %q; want %d, interrupted", code, stderr.String(), tt.code)
			}
		})
	}
}
