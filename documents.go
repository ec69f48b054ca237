package edgar13f

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/edgar13f/edgar13f/internal/cover"
	"github.com/edgar13f/edgar13f/internal/fulltext"
	"github.com/edgar13f/edgar13f/internal/infotable"
	"github.com/edgar13f/edgar13f/internal/submissions"
)

// This file reads a filing's documents through the Client's access layer:
// cover pages (primary_doc.xml) and complete submission text files, which
// hold the cover and the information table together. Both are immutable
// once accepted and are cached forever.

// coverRecord is what edgar13f keeps of a cover page.
type coverRecord struct {
	Period        Date          `json:"period"`
	IsAmendment   bool          `json:"is_amendment"`
	AmendmentNo   int           `json:"amendment_no"`
	AmendmentType AmendmentType `json:"amendment_type"`
	ReportType    string        `json:"report_type"`
	ManagerName   string        `json:"manager_name"`
	Totals        Totals        `json:"totals"`
}

func newCoverRecord(cv *cover.Cover) (coverRecord, error) {
	period, ok := parseISODate(cv.Period())
	if !ok {
		return coverRecord{}, fmt.Errorf("cover page has no valid period of report (%q)", cv.Period())
	}
	return coverRecord{
		Period:        period,
		IsAmendment:   cv.IsAmendment,
		AmendmentNo:   cv.AmendmentNo,
		AmendmentType: AmendmentType(cv.AmendmentType),
		ReportType:    cv.ReportType,
		ManagerName:   cv.ManagerName,
		Totals:        Totals{Stated: cv.HasTotals, Entries: cv.TableEntryTotal, Value: cv.TableValueTotal},
	}, nil
}

func (r coverRecord) facts(form Form) coverFacts {
	return coverFacts{Period: r.Period, AmendmentNo: r.AmendmentNo, Kind: kindOf(form, r.AmendmentType)}
}

// cachedCover returns the cached cover of a filing.
func (c *Client) cachedCover(ctx context.Context, accession string) (coverRecord, bool) {
	var r coverRecord
	if !c.cachedJSON(ctx, keyCover+accession, &r) || r.Period.IsZero() {
		return coverRecord{}, false
	}
	return r, true
}

// coverPage returns the cover of a filing from the cache or its raw
// primary_doc.xml. ok is false when the filing has no XML cover (text-era
// filings before 2013).
func (c *Client) coverPage(ctx context.Context, cik string, e listEntry) (rec coverRecord, ok bool, err error) {
	if r, ok := c.cachedCover(ctx, e.Accession); ok {
		return r, true, nil
	}
	name, ok := submissions.RawCoverName(e.PrimaryDocument)
	if !ok {
		return coverRecord{}, false, nil
	}
	key := keyCover + e.Accession
	v, err := c.edgar.Shared(ctx, key, func() (any, error) {
		if r, ok := c.cachedCover(ctx, e.Accession); ok {
			return r, nil
		}
		url := folderURL(cik, e.Accession) + name
		body, err := c.edgar.Fetch(ctx, url)
		if err != nil {
			return nil, err
		}
		cv, err := cover.Parse(body)
		if err != nil {
			return nil, &ParseError{Accession: e.Accession, Document: url, Err: err}
		}
		r, err := newCoverRecord(cv)
		if err != nil {
			return nil, &ParseError{Accession: e.Accession, Document: url, Err: err}
		}
		c.keepJSON(ctx, key, r)
		return r, nil
	})
	if err != nil {
		return coverRecord{}, false, err
	}
	return v.(coverRecord), true, nil
}

// report is a holdings report read from EDGAR: its cover, its rows after
// redaction and the tally of its table before redaction.
type report struct {
	cover  coverRecord
	rows   []infotable.Row
	parsed infotable.Tally
}

// reconcile checks a source filing's table, tallied before redaction,
// against the totals its cover states.
func reconcile(c Citation, cover Totals, parsed infotable.Tally) Reconciliation {
	return Reconciliation{Citation: c, Cover: cover, Matched: parsed.Matches(cover.Stated, cover.Entries, cover.Value)}
}

// rowsKey is the cache key of a filing's rows under the Client's redaction
// rule: redacted and unredacted rows never share an entry.
func (c *Client) rowsKey(accession string) string {
	return keyRows + c.redaction.name + "/" + accession
}

// cachedRows returns a filing's cached rows and the tally of its table.
func (c *Client) cachedRows(ctx context.Context, accession string) ([]infotable.Row, infotable.Tally, bool) {
	b, ok := c.edgar.Cached(ctx, c.rowsKey(accession))
	if !ok {
		return nil, infotable.Tally{}, false
	}
	_, parsed, err := infotable.Summary(b)
	if err != nil {
		return nil, infotable.Tally{}, false
	}
	rows, err := infotable.Decode(b)
	if err != nil {
		return nil, infotable.Tally{}, false
	}
	return rows, parsed, true
}

// fetchReport reads a holdings report from its complete submission text
// file, one request that holds both the cover and the information table
// whatever the table's file name. Rows are redacted while they are parsed,
// and the table is tallied before redaction; cover, rows and tally are
// cached.
func (c *Client) fetchReport(ctx context.Context, cik string, accession string, size int64) (*report, error) {
	v, err := c.edgar.Shared(ctx, "txt/"+accession, func() (any, error) {
		if cv, ok := c.cachedCover(ctx, accession); ok {
			if rows, parsed, ok := c.cachedRows(ctx, accession); ok {
				return &report{cover: cv, rows: rows, parsed: parsed}, nil // stored by an earlier flight
			}
		}
		url := folderURL(cik, accession) + accession + ".txt"
		body, err := c.edgar.FetchSized(ctx, url, size)
		if err != nil {
			return nil, err
		}
		r, err := c.parseReport(body)
		if err != nil {
			return nil, &ParseError{Accession: accession, Document: url, Err: err}
		}
		c.keepJSON(ctx, keyCover+accession, r.cover)
		c.edgar.Keep(ctx, c.rowsKey(accession), infotable.AppendEncoded(nil, r.rows, r.parsed))
		return r, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*report), nil
}

func (c *Client) parseReport(body []byte) (*report, error) {
	sub, err := fulltext.Parse(body)
	if err != nil {
		return nil, err
	}
	var cv *cover.Cover
	for _, d := range sub.Documents {
		if strings.HasPrefix(strings.ToUpper(strings.TrimSpace(d.Type)), "13F-") {
			if cv, err = cover.Parse(d.Text); err != nil {
				return nil, fmt.Errorf("cover page %s: %v", d.Filename, err)
			}
			break
		}
	}
	if cv == nil {
		return nil, errors.New("no XML cover page in the submission (text filings from before 2013 are not supported)")
	}
	rec, err := newCoverRecord(cv)
	if err != nil {
		return nil, err
	}
	r := &report{cover: rec}
	table := sub.Document("INFORMATION TABLE")
	if table == nil {
		if cv.HasTotals && cv.TableEntryTotal == 0 {
			return r, nil // a report with no rows
		}
		return nil, errors.New("no INFORMATION TABLE document in the submission")
	}
	var keep func(*infotable.Row) bool
	if c.redaction.remove != nil {
		remove := memoized(c.redaction.remove)
		keep = func(row *infotable.Row) bool { return !remove(row.NameOfIssuer, row.TitleOfClass, row.CUSIP) }
	}
	if r.rows, r.parsed, err = infotable.ParseTally(table.Text, keep); err != nil {
		return nil, fmt.Errorf("information table %s: %v", table.Filename, err)
	}
	return r, nil
}
