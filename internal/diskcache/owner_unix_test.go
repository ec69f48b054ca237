//go:build unix

package diskcache

import (
	"io/fs"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// fakeInfo is an os.FileInfo whose Sys is a given *syscall.Stat_t.
type fakeInfo struct{ st *syscall.Stat_t }

func (fakeInfo) Name() string       { return "cache" }
func (fakeInfo) Size() int64        { return 0 }
func (fakeInfo) Mode() fs.FileMode  { return fs.ModeDir | 0o700 }
func (fakeInfo) ModTime() time.Time { return time.Time{} }
func (fakeInfo) IsDir() bool        { return true }
func (f fakeInfo) Sys() any         { return f.st }

func TestCheckOwner(t *testing.T) {
	uid := uint32(os.Getuid())
	tests := []struct {
		name    string
		uid     uint32
		wantErr string
	}{
		{"own", uid, ""},
		{"other", uid + 1, "diskcache: refusing cache directory /c/edgar13f owned by uid " +
			strconv.FormatUint(uint64(uid+1), 10) + " (current uid " + strconv.FormatUint(uint64(uid), 10) + ")"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkOwner("/c/edgar13f", fakeInfo{&syscall.Stat_t{Uid: tt.uid}})
			got := ""
			if err != nil {
				got = err.Error()
			}
			if diff := cmp.Diff(tt.wantErr, got); diff != "" {
				t.Errorf("checkOwner error (-want +got):\n%s", diff)
			}
		})
	}
}
