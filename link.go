package edgar13f

import (
	"context"
	"errors"
	"strings"

	"github.com/edgar13f/edgar13f/internal/civil"
	"github.com/edgar13f/edgar13f/internal/rootlink"
)

// This file lends packages datasets and search, through internal/rootlink,
// what they need of this package and users do not: the Client's parts, the
// amendment rule, the checks of dates and periods, the checks and filters
// of Holdings, and a company's filings of one form filed since a date. The bulk source
// lives in its own package so that a program asking only per-manager
// questions does not link its Parquet store.

func init() {
	rootlink.ClientOf = func(client any) rootlink.Client {
		c := client.(*Client)
		return rootlink.Client{Access: c.edgar, Now: c.clock.Now, Rule: c.redaction.name, Redact: c.redaction.remove}
	}
	rootlink.Resolve = resolveCovered
	rootlink.CheckDate = func(name string, d any) error { return checkDate(name, d.(Date)) }
	rootlink.CheckQuarterEnd = func(period any) error { return checkQuarterEnd(period.(Date)) }
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

// resolveCovered runs the amendment rule (decide) on one CIK's filings
// whose cover facts are all known, as the Data Sets know them: it never
// needs to read a cover.
func resolveCovered(fs []rootlink.Filing, period, asOf civil.Day) (base int, supplements []int, err error) {
	listed := make([]listedFiling, len(fs))
	covers := make(map[string]coverFacts, len(fs))
	index := make(map[string]int, len(fs))
	for i, f := range fs {
		l := listedFiling{Accession: f.Accession, Form: Form(f.Form), FilingDate: dateOfDay(f.FilingDate), Period: dateOfDay(f.Period)}
		listed[i] = l
		if _, dup := index[f.Accession]; !dup {
			index[f.Accession] = i
		}
		if l.Form.isHoldingsReport() {
			covers[f.Accession] = coverFacts{Period: l.Period, AmendmentNo: f.AmendmentNo, Kind: kindOf(l.Form, AmendmentType(f.AmendmentType))}
		}
	}
	d := decide(listed, dateOfDay(period), dateOfDay(asOf), covers)
	switch {
	case len(d.need) > 0: // cannot happen: every cover is given
		return -1, nil, errors.New("edgar13f: the amendment rule asked for a cover the Data Sets hold")
	case d.err != nil:
		return -1, nil, d.err
	}
	supplements = make([]int, len(d.res.Supplements))
	for i, s := range d.res.Supplements {
		supplements[i] = index[s.Accession]
	}
	return index[d.res.Base.Accession], supplements, nil
}
