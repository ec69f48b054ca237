//go:build !unix

package testkit

import (
	"net"
	"testing"
)

// refusedPort returns a port of the loopback interface that was just
// taken and released: nothing listens on it, unless another program takes
// it meanwhile (where sockets cannot be bound without listening portably).
func refusedPort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
