package opensearch

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/edgar13f/edgar13f/search/store"
)

// TestBulkPartsSideBySide: a Put of many documents is split into
// bulkWorkers parts whose workers each make (analyse, encode) their own
// documents and send them, so the client's work runs on as many cores: the
// first part's _bulk call reaches the cluster while the second part's last
// document is still to be made. Were every document made before any call
// (one core encoding the whole Put), making that document would wait for
// a call never sent, and the test would not end. Every document is indexed
// once, and no call is larger than the store's limit.
func TestBulkPartsSideBySide(t *testing.T) {
	c, fake := fakeClient(t)
	s, err := Open(c, "parts")
	if err != nil {
		t.Fatal(err)
	}
	s.opts.bulkBytes = 8 << 10
	if _, err := s.ensureDataIndex(ctx, 0, store.Meta{}); err != nil {
		t.Fatal(err)
	}
	firstBulk := make(chan struct{})
	var once sync.Once
	var mu sync.Mutex
	var bulks int
	fake.hook = func(method, path string) {
		if method == http.MethodPost && strings.HasSuffix(path, "/_bulk") {
			mu.Lock()
			bulks++
			mu.Unlock()
			once.Do(func() { close(firstBulk) })
		}
	}
	n := bulkWorkers * minBulkDocs
	var made sync.Map
	docAt := func(i int) bulkDoc {
		if i == n-1 {
			<-firstBulk
		}
		if _, dup := made.LoadOrStore(i, true); dup {
			t.Errorf("document %d made twice", i)
		}
		return bulkDoc{id: "g:" + strconv.Itoa(i), doc: filingDoc("g", apple())}
	}
	if err := s.bulkIndex(ctx, s.dataIndex(0), n, docAt); err != nil {
		t.Fatal(err)
	}
	fake.mu.Lock()
	docs := len(fake.indices[s.dataIndex(0)].docs)
	fake.mu.Unlock()
	if docs != n {
		t.Errorf("%d documents indexed; want %d", docs, n)
	}
	// About 400 bytes a document, at most 8 KiB a call: more calls than
	// parts.
	if bulks <= bulkWorkers {
		t.Errorf("%d _bulk calls for %d documents of about 400 bytes at most 8 KiB a call; want more than %d", bulks, n, bulkWorkers)
	}
}
