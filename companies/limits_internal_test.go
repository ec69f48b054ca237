package companies

import (
	"testing"

	"github.com/edgar13f/edgar13f/internal/companyfacts"
	"github.com/edgar13f/edgar13f/internal/tickers"
)

// TestLimitsMatchReaders: the public limits of the company questions are
// written as numbers (so that the documentation shows them), and are the
// limits the internal readers apply.
func TestLimitsMatchReaders(t *testing.T) {
	for _, c := range []struct {
		name           string
		public, reader int
	}{
		{"DefaultMatches", DefaultMatches, tickers.DefaultLimit},
		{"MaxMatches", MaxMatches, tickers.MaxLimit},
		{"DefaultFactYears", DefaultFactYears, companyfacts.DefaultYears},
		{"MaxFactYears", MaxFactYears, companyfacts.MaxYears},
	} {
		if c.public != c.reader {
			t.Errorf("%s is %d; the reader's limit is %d", c.name, c.public, c.reader)
		}
	}
}
