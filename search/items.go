package search

import (
	"context"

	"github.com/edgar13f/edgar13f"
)

// clientItems reads the Items of a filing through c: one request for its
// primary document (none when the Client's cache holds it), cut into
// Items by [edgar13f.Companies.Sections].
func clientItems(c *edgar13f.Client) itemReader {
	return func(ctx context.Context, cik, accession string, asOf edgar13f.Date) ([]itemText, error) {
		s, err := c.Companies().Sections(ctx, cik, accession, asOf)
		if err != nil {
			return nil, err
		}
		out := make([]itemText, len(s.Items))
		for i, it := range s.Items {
			out[i] = itemText{item: it.Item, title: it.Title, text: it.Text}
		}
		return out, nil
	}
}
