package testkit

import (
	"errors"
	"net"
	"net/http"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// TestRefusedURL: a request to the URL is refused, and, where sockets can
// be bound without listening, no listener can take its port while the test
// runs (another program's server would answer in its place).
func TestRefusedURL(t *testing.T) {
	u := RefusedURL(t)
	_, err := http.Get(u)
	if !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("GET %s: %v; want the connection refused", u, err)
	}
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" || runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		return
	}
	ln, err := net.Listen("tcp", strings.TrimPrefix(u, "http://"))
	if err == nil {
		ln.Close()
		t.Errorf("a listener took the port of %s while the test held it", u)
	}
}
