package edgar13f

import (
	"context"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/edgar13f/edgar13f/internal/bounds"
	"github.com/edgar13f/edgar13f/internal/civil"
	"github.com/edgar13f/edgar13f/internal/fold"
)

// This file holds FindManager's API; findindex.go builds and refreshes the
// index it searches (internal/nameindex).

// A Manager is a candidate answer of [Client.FindManager].
type Manager struct {
	CIK    string // without leading zeros
	Name   string // EDGAR's current name for the CIK (not as of any date)
	Has13F bool   // filed a 13F-HR, 13F-HR/A, 13F-NT or 13F-NT/A (on or before the FiledBy date when given)
}

// FindManager returns the entities whose current or former EDGAR names
// contain name, case-insensitively and with runs of white space counted as
// one space, best first: 13F filers first, then by name (case-insensitive),
// then by CIK (numerically). name must be 3 to 100 characters once
// surrounding white space is trimmed. No match is an empty answer, not a
// decline. Names are not redacted.
//
// Names are current, not as of any date: Manager.Name is the name on the
// CIK's latest 13F row in EDGAR's quarterly form index, or, for a CIK that
// never filed a 13F, the first name cik-lookup-data.txt lists for it (that
// file gives no dates; it is sorted by name). With [FiledBy], only Has13F
// is point in time.
//
// It declines with [InvalidArgument] for a name of bad length, an invalid
// FiledBy date or a [Limit] outside 1 to 20. The first call on an empty
// cache builds the index from EDGAR (about 137 requests; see
// [ReportProgress]); later calls answer in milliseconds, also from another
// process sharing the cache.
func (c *Client) FindManager(ctx context.Context, name string, opts ...FindOption) ([]Manager, error) {
	var o findOptions
	for _, opt := range opts {
		if opt != nil {
			opt.applyFind(&o)
		}
	}
	text := strings.TrimSpace(name)
	if n := utf8.RuneCountInString(text); n < MinNameLen || n > MaxNameLen || !utf8.ValidString(text) {
		return nil, Decline(InvalidArgument, "name must be %d to %d characters, not %d", MinNameLen, MaxNameLen, n)
	}
	if o.asOfSet {
		if err := checkDate("FiledBy date", o.asOf); err != nil {
			return nil, err
		}
	}
	limit := DefaultManagers
	if o.limitSet {
		if err := bounds.Check("Limit", o.limit, 1, MaxManagers); err != nil {
			return nil, Decline(InvalidArgument, "%v", err)
		}
		limit = o.limit
	}
	x, err := c.findIndex(ctx, o.progress)
	if err != nil {
		return nil, err
	}
	asOf := civil.MaxDay // every filing counts
	if o.asOfSet {
		asOf = o.asOf.day()
	}
	hits := x.Search(fold.String(text), asOf, limit)
	out := make([]Manager, len(hits))
	for i, h := range hits {
		out[i] = Manager{CIK: strconv.FormatUint(h.CIK, 10), Name: h.Name, Has13F: h.Has13F}
	}
	return out, nil
}
