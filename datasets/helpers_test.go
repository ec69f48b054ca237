package datasets_test

import (
	"testing"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/datasets"
)

// open opens c's store, failing the test when it cannot.
func open(t testing.TB, c *edgar13f.Client) *datasets.Store {
	t.Helper()
	d, err := datasets.Open(c)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func date(s string) edgar13f.Date { return edgar13f.MustParseDate(s) }
