package edgar13f

import (
	"context"
	"testing"

	"github.com/edgar13f/edgar13f/internal/submissions"
)

// sharedIndexFetcher counts the documents asked for and serves none.
type sharedIndexFetcher struct{ n int }

func (f *sharedIndexFetcher) Fetch(context.Context, string) ([]byte, error) {
	f.n++
	return nil, ErrNotFound
}

// TestSharedIndexReadsNoPage: an index the two periods of a Diff share
// never gains a page (two goroutines would race on it): readPages fails
// without a request; an index of one question reads the page.
func TestSharedIndexReadsNoPage(t *testing.T) {
	f := &sharedIndexFetcher{}
	c, err := NewClient(WithCache(nil), WithFetcher(f))
	if err != nil {
		t.Fatal(err)
	}
	page := submissions.Page{Name: "CIK0000000001-submissions-001.json", FilingCount: 1, FilingFrom: "2001-01-02", FilingTo: "2010-12-31"}
	x := &filingIndex{pages: []submissions.Page{page}, read: []bool{false}, shared: true}
	if err := c.readPages(context.Background(), x, []int{0}); err == nil || f.n != 0 || x.read[0] {
		t.Errorf("shared index: readPages = %v after %d requests, page read %v; want an error, no request", err, f.n, x.read[0])
	}
	x.shared = false
	if err := c.readPages(context.Background(), x, []int{0}); err == nil || f.n != 1 {
		t.Errorf("unshared index: readPages = %v after %d requests; want the fetcher's error after 1", err, f.n)
	}
}
