//go:build unix

package diskcache

import (
	"fmt"
	"os"
	"syscall"
)

// checkOwner refuses a cache directory owned by another user.
func checkOwner(path string, fi os.FileInfo) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	if uid := os.Getuid(); int(st.Uid) != uid {
		return fmt.Errorf("diskcache: refusing cache directory %s owned by uid %d (current uid %d)", path, st.Uid, uid)
	}
	return nil
}
