package factstore

import (
	"archive/zip"
	"fmt"
	"io"
	"sort"
	"strings"
)

// ZipMembers lists the companyfacts documents of a companyfacts.zip (r,
// size), named name in errors: its members CIK##########.json, in CIK
// order. Members of other names (directories, a notice) are not
// documents and are left out. A zip that is cut short or corrupt, so
// that its directory cannot be read, is an error naming it. A member
// whose data is damaged fails the import that reads it, naming the member
// and the position.
func ZipMembers(r io.ReaderAt, size int64, name string) ([]Member, error) {
	z, err := zip.NewReader(r, size)
	if err != nil {
		return nil, fmt.Errorf("factstore: %s: not a whole zip archive (cut short or corrupt: its directory at the end of the file cannot be read): %w", name, err)
	}
	var out []Member
	for _, f := range z.File {
		if _, ok := MemberCIK(f.Name); !ok || strings.Contains(f.Name, "/") {
			continue
		}
		f := f
		out = append(out, Member{Name: f.Name, Size: int64(f.UncompressedSize64), Open: func() (io.ReadCloser, error) {
			rc, err := f.Open()
			if err != nil {
				return nil, fmt.Errorf("member at byte %d of the zip: %w", headerOffset(f), err)
			}
			return rc, nil
		}})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// headerOffset returns where f's local header begins in the zip.
func headerOffset(f *zip.File) int64 {
	off, err := f.DataOffset()
	if err != nil {
		return -1
	}
	return off
}
