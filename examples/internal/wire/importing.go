package wire

import (
	"context"
	"errors"
	"sync"

	"github.com/edgar13f/edgar13f/datasets"
	"github.com/edgar13f/edgar13f/frames"
)

// A Lazy holds a store opened on first use, so that a program never asked
// a question of the store creates none. The zero Lazy is ready for use;
// it is safe for concurrent use.
type Lazy[S any] struct {
	once sync.Once
	s    S
	err  error
}

// Get returns the store, opened by open on the first call; later calls
// return what that one did, an error too.
func (l *Lazy[S]) Get(open func() (S, error)) (S, error) {
	l.once.Do(func() { l.s, l.err = open() })
	return l.s, l.err
}

// An Importing is a question answered from a local store (package frames'
// or datasets') that may need an import first: the shape every example
// program's get_frame, holders and panel share. Store, Ask, NeedsImport
// and Sync must be set; Check may be.
type Importing[S, A any] struct {
	// Store returns the store, opening it on first use (see [Lazy]).
	Store func() (S, error)
	// Check, when set, is run first: a question it declines is
	// declined before anything is imported or asked.
	Check func(context.Context, S) error
	// Ask answers the question from the store as it is.
	Ask func(context.Context, S) (A, error)
	// NeedsImport reports whether the error of Ask (nil when it
	// answered) calls for Sync and Ask again: [FramesNeedImport] or
	// [DatasetsNeedImport].
	NeedsImport func(error) bool
	// Sync imports what the question needs, reporting progress as the
	// caller arranged.
	Sync func(context.Context, S) error
}

// Answer opens the store, runs Check and asks; when NeedsImport says so
// it syncs and, when that succeeds, asks again. The first error met is
// returned, but the error of an Ask that NeedsImport accepts.
func (q Importing[S, A]) Answer(ctx context.Context) (A, error) {
	var zero A
	st, err := q.Store()
	if err != nil {
		return zero, err
	}
	if q.Check != nil {
		if err := q.Check(ctx, st); err != nil {
			return zero, err
		}
	}
	a, err := q.Ask(ctx, st)
	if !q.NeedsImport(err) {
		return a, err
	}
	if err := q.Sync(ctx, st); err != nil {
		return zero, err
	}
	return q.Ask(ctx, st)
}

// FramesNeedImport is the NeedsImport of a question of a [frames.Store]:
// nothing is imported yet ([frames.ErrNotImported]).
func FramesNeedImport(err error) bool { return errors.Is(err, frames.ErrNotImported) }

// DatasetsNeedImport is the NeedsImport of a question of a
// [datasets.Store], answered after [datasets.Store.SyncFor]: a question
// answered (err nil: the answer may not be complete yet, and SyncFor
// sends no request when it is) or one whose first filings precede the
// windows imported (a [*datasets.CoverageError]). Any other error (a
// malformed question) is the answer.
func DatasetsNeedImport(err error) bool {
	var ce *datasets.CoverageError
	return err == nil || errors.As(err, &ce)
}
