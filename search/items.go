package search

import (
	"context"
	"errors"
	"fmt"

	"github.com/edgar13f/edgar13f"
)

// clientItems reads the Items of a filing through c.
//
// TEMPORARY: asks for each Item of the form in turn until the root package
// returns all Items of a filing at once.
func clientItems(c *edgar13f.Client) itemReader {
	return func(ctx context.Context, cik, accession string, asOf edgar13f.Date) ([]itemText, error) {
		var out []itemText
		names := annualItemNames
		l, err := c.Companies().Filings(ctx, cik, asOf, edgar13f.MaxResults(edgar13f.MaxFilings))
		if err != nil {
			return nil, err
		}
		for _, f := range l.Filings {
			if f.Accession == accession && (f.Form == "10-Q" || f.Form == "10-Q/A") {
				names = quarterlyItemNames
			}
		}
		for _, it := range names {
			s, err := c.Companies().Section(ctx, cik, accession, it, asOf, edgar13f.MaxChars(edgar13f.MaxSectionChars))
			if errors.Is(err, edgar13f.ErrSectionNotFound) {
				continue
			}
			if err != nil {
				return nil, err
			}
			if s.Truncated {
				return nil, fmt.Errorf("Item %s is longer than %d characters", s.Item, edgar13f.MaxSectionChars)
			}
			out = append(out, itemText{item: s.Item, title: s.Title, text: s.Text})
		}
		if len(out) == 0 {
			return nil, decline(edgar13f.SectionNotFound, "the filing %s has no Item headings", accession)
		}
		return out, nil
	}
}

var (
	annualItemNames    = []string{"1", "1A", "1B", "1C", "2", "3", "4", "5", "6", "7", "7A", "8", "9", "9A", "9B", "9C", "10", "11", "12", "13", "14", "15", "16"}
	quarterlyItemNames = []string{"I-1", "I-2", "I-3", "I-4", "II-1", "II-1A", "II-2", "II-3", "II-4", "II-5", "II-6"}
)
