//go:build unix

package testkit

import (
	"syscall"
	"testing"
)

// refusedPort binds a TCP socket to a free port of the loopback interface
// without listening on it, and keeps it bound until the test ends: a
// connection to the port is refused, and no other socket (without
// SO_REUSEPORT) can bind the port meanwhile, in this process or another.
func refusedPort(t testing.TB) int {
	t.Helper()
	// Under ForkLock and close-on-exec, as package net makes its sockets:
	// the programs a test starts must not inherit the port.
	syscall.ForkLock.RLock()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fd)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		t.Fatalf("refusedPort: socket: %v", err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatalf("refusedPort: bind: %v", err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		t.Fatalf("refusedPort: getsockname: %v", err)
	}
	return sa.(*syscall.SockaddrInet4).Port
}
