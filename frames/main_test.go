package frames_test

import (
	"os"
	"testing"
)

var tempDirs []string

// mkdirTemp makes a directory that TestMain removes after every test ran
// (for what tests share).
func mkdirTemp() (string, error) {
	dir, err := os.MkdirTemp("", "frames-test-")
	if err == nil {
		tempDirs = append(tempDirs, dir)
	}
	return dir, err
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, d := range tempDirs {
		os.RemoveAll(d)
	}
	os.Exit(code)
}
