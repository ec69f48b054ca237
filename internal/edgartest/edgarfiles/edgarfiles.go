// Package edgarfiles finds the repository's recorded EDGAR files for the
// tests of every package of the module, whatever directory they run in:
// the mirror (testdata/mirror) and the documents beside it. It imports
// nothing of the module, so that the tests of the packages below the root,
// which package edgartest (built on the root) cannot serve, find the files
// the same way. Only tests import it.
package edgarfiles

import (
	"bytes"
	"os"
	"path/filepath"
)

// Testdata is the module's testdata directory, as an absolute path.
var Testdata = filepath.Join(moduleRoot(), "testdata")

// Mirror is the recorded EDGAR mirror: one file per URL, at
// <host>/<url path> (www.sec.gov/Archives/..., data.sec.gov/...).
var Mirror = filepath.Join(Testdata, "mirror")

// Documents holds recorded EDGAR documents outside the mirror's filings.
var Documents = filepath.Join(Testdata, "documents")

// module is the path of the module whose testdata this is.
const module = "github.com/edgar13f/edgar13f"

// moduleRoot is the nearest directory above the working directory whose
// go.mod declares the module; "" when there is none.
func moduleRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil &&
			bytes.HasPrefix(b, []byte("module "+module+"\n")) {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}
