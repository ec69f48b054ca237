//go:build !linux && !darwin && !dragonfly && !freebsd && !netbsd && !openbsd

package main

// terminalFD cannot ask the system here: no file is taken for a terminal,
// so progress is plain lines and output is json unless --format says.
func terminalFD(uintptr) bool { return false }
