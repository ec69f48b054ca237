package main

import "golang.org/x/sys/unix"

// terminalFD reports whether fd is a terminal (not merely a character
// device such as /dev/null).
func terminalFD(fd uintptr) bool {
	_, err := unix.IoctlGetTermios(int(fd), unix.TCGETS)
	return err == nil
}
