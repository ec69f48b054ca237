package edgar13f

import (
	"context"
	"strings"

	"github.com/edgar13f/edgar13f/internal/rootlink"
)

// This file lends packages datasets and search, through internal/rootlink,
// what they need of this package and users do not: the Client's parts, the
// checks and filters of Holdings, and a company's filings of one form filed
// since a date. (The amendment rule and the argument checks are in
// internal/amend and internal/check, which they call directly.) The bulk source
// lives in its own package so that a program asking only per-manager
// questions does not link its Parquet store.

func init() {
	rootlink.ClientOf = func(client any) rootlink.Client {
		c := client.(*Client)
		return rootlink.Client{Access: c.edgar, Now: c.clock.Now, Rule: c.redaction.name, Redact: c.redaction.remove}
	}
	rootlink.FilingsSince = func(ctx context.Context, client any, cik string, asOf, since any, form string, limit int) (any, error) {
		a := asOf.(Date)
		_, id, err := companyQuery[CompanyFilingsOption](nil, nil, cik, a)
		if err != nil {
			return nil, err
		}
		f := strings.ToUpper(strings.TrimSpace(form))
		picked, list, err := client.(*Client).companyFilings(ctx, id, a, since.(Date), f, limit)
		if err != nil {
			return nil, err
		}
		return companyFilingList(id, a, f, list, picked), nil
	}
	rootlink.HoldingsQuery = func(cik string, period, asOf, opts any) (string, func(any), error) {
		p, a := period.(Date), asOf.(Date)
		q, err := newQuery(cik, map[string]Date{"period": p, "asOf": a}, []Date{p}, opts.([]Option))
		if err != nil {
			return "", nil, err
		}
		return q.cik, func(s any) { q.filterSnapshot(s.(*Snapshot)) }, nil
	}
}
