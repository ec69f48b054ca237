package search

import (
	"context"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/companies"
)

// clientItems reads the Items of a filing through c: one request for its
// primary document (none when the Client's cache holds it), cut into
// Items by [companies.Companies.Sections].
func clientItems(cs *companies.Companies) itemReader {
	return func(ctx context.Context, cik, accession string, asOf edgar13f.Date) ([]itemText, error) {
		s, err := cs.Sections(ctx, cik, accession, asOf)
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
