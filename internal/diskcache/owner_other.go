//go:build !unix

package diskcache

import "os"

// checkOwner does nothing on platforms without unix file owners.
func checkOwner(string, os.FileInfo) error { return nil }
