// Package docerr defines the errors that every reader of EDGAR documents
// reports alike (over HTTP, from a mirror tree, through a caller's fetcher),
// so that one value means one thing wherever it is matched with errors.Is.
// The root package exports the same values.
package docerr

import (
	"errors"
	"strings"
)

// Prefix starts every error text of edgar13f, once.
const Prefix = "edgar13f: "

// ErrNotFound is wrapped by errors for EDGAR documents that do not exist
// (HTTP 404, or a file missing from a mirror tree).
var ErrNotFound = errors.New(Prefix + "document not found")

// ErrTooLarge is wrapped by errors for a document larger than the size limit
// of its kind; such a failure is not retried.
var ErrTooLarge = errors.New(Prefix + "document over the size limit of its kind")

// Detail returns the text of err without a leading [Prefix], for an error
// that wraps it and prints its own prefix.
func Detail(err error) string {
	return strings.TrimPrefix(err.Error(), Prefix)
}

// Wrap returns an error that says what failed (what, such as "period A
// 2023-09-30") before err's own text, with one [Prefix], and unwraps to err.
func Wrap(what string, err error) error { return &wrapped{what: what, err: err} }

type wrapped struct {
	what string
	err  error
}

func (w *wrapped) Error() string { return Prefix + w.what + ": " + Detail(w.err) }
func (w *wrapped) Unwrap() error { return w.err }
