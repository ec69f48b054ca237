package wire

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/datasets"
	"github.com/edgar13f/edgar13f/frames"
)

// fakeStore records the calls of an Importing question and answers as
// told: ask's errors in turn (the last one repeated), sync's error.
type fakeStore struct {
	calls   []string
	askErrs []error
	syncErr error
	asked   int
}

func (f *fakeStore) question(open error, check error) Importing[*fakeStore, string] {
	q := Importing[*fakeStore, string]{
		Store: func() (*fakeStore, error) {
			f.calls = append(f.calls, "open")
			if open != nil {
				return nil, open
			}
			return f, nil
		},
		Ask: func(_ context.Context, s *fakeStore) (string, error) {
			s.calls = append(s.calls, "ask")
			err := s.askErrs[min(s.asked, len(s.askErrs)-1)]
			s.asked++
			if err != nil {
				return "", err
			}
			return fmt.Sprintf("answer %d", s.asked), nil
		},
		NeedsImport: func(err error) bool { return errors.Is(err, errMissing) },
		Sync: func(_ context.Context, s *fakeStore) error {
			s.calls = append(s.calls, "sync")
			return s.syncErr
		},
	}
	if check != nil {
		q.Check = func(_ context.Context, s *fakeStore) error {
			s.calls = append(s.calls, "check")
			return check
		}
	}
	return q
}

var (
	errMissing = errors.New("not imported")
	errOther   = errors.New("malformed")
	errSync    = errors.New("sync failed")
	errOpen    = errors.New("no cache directory")
	errCheck   = errors.New("declined")
	errNone    = error(nil)
)

// TestImportingAnswer: a question is asked once when the store answers it;
// when the answer says nothing is imported it is synced and asked again;
// a failed sync, a failed open, a declined check and an error that asks
// for no import end it there, with that error.
func TestImportingAnswer(t *testing.T) {
	for _, tc := range []struct {
		name        string
		askErrs     []error
		syncErr     error
		open, check error
		want        string
		wantErr     error
		wantCalls   string
	}{
		{"answered", []error{errNone}, nil, nil, nil, "answer 1", nil, "open ask"},
		{"imported first", []error{errMissing, errNone}, nil, nil, nil, "answer 2", nil, "open ask sync ask"},
		{"still missing", []error{errMissing}, nil, nil, nil, "", errMissing, "open ask sync ask"},
		{"sync fails", []error{errMissing, errNone}, errSync, nil, nil, "", errSync, "open ask sync"},
		{"other error", []error{errOther}, nil, nil, nil, "", errOther, "open ask"},
		{"open fails", []error{errNone}, nil, errOpen, nil, "", errOpen, "open"},
		{"check declines", []error{errMissing}, nil, nil, errCheck, "", errCheck, "open check"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeStore{askErrs: tc.askErrs, syncErr: tc.syncErr}
			got, err := f.question(tc.open, tc.check).Answer(context.Background())
			if got != tc.want || !errors.Is(err, tc.wantErr) || (err == nil) != (tc.wantErr == nil) {
				t.Errorf("Answer = %q, %v; want %q, %v", got, err, tc.want, tc.wantErr)
			}
			if calls := strings.Join(f.calls, " "); calls != tc.wantCalls {
				t.Errorf("calls %q; want %q", calls, tc.wantCalls)
			}
		})
	}
	// With a Check that passes, the question goes on as without one.
	f := &fakeStore{askErrs: []error{errMissing, errNone}}
	q := f.question(nil, nil)
	q.Check = func(_ context.Context, s *fakeStore) error { s.calls = append(s.calls, "check"); return nil }
	if got, err := q.Answer(context.Background()); got != "answer 2" || err != nil || !slices.Equal(f.calls, []string{"open", "check", "ask", "sync", "ask"}) {
		t.Errorf("with a passing check: %q, %v, calls %v", got, err, f.calls)
	}
}

// TestLazy: a store is opened once however many goroutines ask for it at
// once, and an error opening it is kept.
func TestLazy(t *testing.T) {
	var l Lazy[*int]
	var opens int
	var mu sync.Mutex
	open := func() (*int, error) {
		mu.Lock()
		defer mu.Unlock()
		opens++
		n := 7
		return &n, nil
	}
	var wg sync.WaitGroup
	got := make([]*int, 8)
	for i := range got {
		wg.Go(func() { got[i], _ = l.Get(open) })
	}
	wg.Wait()
	for _, p := range got {
		if p != got[0] || p == nil || *p != 7 {
			t.Fatalf("Get returned %v and %v", p, got[0])
		}
	}
	if opens != 1 {
		t.Errorf("opened %d times; want 1", opens)
	}
	var bad Lazy[*int]
	for range 2 {
		if _, err := bad.Get(func() (*int, error) { opens++; return nil, errOpen }); !errors.Is(err, errOpen) {
			t.Errorf("Get = %v; want %v", err, errOpen)
		}
	}
	if opens != 2 {
		t.Errorf("opened %d times; want 2", opens)
	}
}

// TestNeedImport: a frames question needs an import when nothing is
// imported, and only then; a Data Sets question needs SyncFor when it was
// answered or its first filings precede the windows imported, not when it
// is malformed.
func TestNeedImport(t *testing.T) {
	decline := edgar13f.Decline(edgar13f.InvalidArgument, "bad CUSIP")
	ce := &datasets.CoverageError{}
	for _, tc := range []struct {
		name            string
		err             error
		frames, bulkset bool
	}{
		{"answered", nil, false, true},
		{"frames not imported", fmt.Errorf("frame: %w", frames.ErrNotImported), true, false},
		{"coverage", fmt.Errorf("holders: %w", ce), false, true},
		{"decline", decline, false, false},
		{"failure", errOther, false, false},
	} {
		if got := FramesNeedImport(tc.err); got != tc.frames {
			t.Errorf("%s: FramesNeedImport = %v", tc.name, got)
		}
		if got := DatasetsNeedImport(tc.err); got != tc.bulkset {
			t.Errorf("%s: DatasetsNeedImport = %v", tc.name, got)
		}
	}
}
