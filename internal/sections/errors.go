package sections

import (
	"errors"
	"fmt"
)

// The errors of this package match one of these sentinels with
// [errors.Is].
var (
	// ErrInvalidArgument: an item argument that names no Item of the form,
	// or a character limit out of range.
	ErrInvalidArgument = errors.New("sections: invalid argument")
	// ErrSectionNotFound: the document has no section for a valid item.
	ErrSectionNotFound = errors.New("sections: section not found")
)

// An ArgumentError reports an argument that cannot be answered.
type ArgumentError struct {
	Arg  string // the argument as given
	Form string // the form it was read for, "" when not relevant
	Msg  string
}

func (e *ArgumentError) Error() string {
	return fmt.Sprintf("sections: invalid argument %q: %s", e.Arg, e.Msg)
}

// Is reports whether target is [ErrInvalidArgument].
func (e *ArgumentError) Is(target error) bool { return target == ErrInvalidArgument }

// A Reason says why a section was not found.
type Reason int

// The reasons a section is not found.
const (
	// ReasonAbsent: the document has Item headings, but none for the item.
	ReasonAbsent Reason = iota
	// ReasonCrossReference: the document's body has no Item headings; it
	// maps Items to pages in a cross-reference index instead, so no
	// section can be cut out by Item.
	ReasonCrossReference
	// ReasonNoHeadings: the document has no Item headings and no
	// cross-reference index.
	ReasonNoHeadings
	// ReasonForm: the form has no 10-K or 10-Q Items.
	ReasonForm
)

// A NotFoundError reports a valid item that the document has no section for.
type NotFoundError struct {
	Form   string
	Item   Item
	Reason Reason
	// Pages is what the document's cross-reference index or table of
	// contents gives for the item ("26-33"), when it lists the item.
	Pages string
	// Found lists the items the document does have, in document order.
	Found []Item
}

func (e *NotFoundError) Error() string {
	switch e.Reason {
	case ReasonForm:
		return fmt.Sprintf("sections: form %q has no 10-K or 10-Q items", e.Form)
	case ReasonCrossReference:
		msg := fmt.Sprintf("sections: item %s not found: this %s has no Item headings in its body; it uses a cross-reference index that maps each Item to pages of the report", e.Item, e.Form)
		if e.Pages != "" {
			msg += fmt.Sprintf(" (Item %s: pages %s)", e.Item.Number, e.Pages)
		}
		return msg
	case ReasonNoHeadings:
		return fmt.Sprintf("sections: item %s not found: no Item headings in this %s", e.Item, e.Form)
	}
	msg := fmt.Sprintf("sections: item %s not found in this %s", e.Item, e.Form)
	if len(e.Found) > 0 {
		msg += "; it has items"
		for i, it := range e.Found {
			if i > 0 {
				msg += ","
			}
			msg += " " + it.String()
		}
	}
	return msg
}

// Is reports whether target is [ErrSectionNotFound].
func (e *NotFoundError) Is(target error) bool { return target == ErrSectionNotFound }
