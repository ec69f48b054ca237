package opensearch

import (
	"testing"

	osgo "github.com/opensearch-project/opensearch-go/v4"

	"github.com/edgar13f/edgar13f/search/store"
)

// TestPutAfterDropByAnother: a Store that has put into a store which
// another Store then drops makes the data index again, with the store's
// mapping, on its next Put: it does not trust its memory of an index that
// is gone (a cluster would otherwise create one with a mapping of its own
// guessing from the first bulk call), on the simulator and on the node.
func TestPutAfterDropByAnother(t *testing.T) {
	onSimulatorAndNode(t, "dropped", testPutAfterDropByAnother)
}

func testPutAfterDropByAnother(t *testing.T, c *osgo.Client, name string) {
	a, err := Open(c, name, Replicas(0))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Open(c, name, Replicas(0))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := b.Drop(ctx); err != nil {
			t.Error(err)
		}
	})
	if err := a.Put(ctx, apple(), appleChunks(), appleVectors(), meta3); err != nil {
		t.Fatal(err)
	}
	if err := b.Drop(ctx); err != nil {
		t.Fatal(err)
	}
	if err := a.Put(ctx, apple(), appleChunks(), appleVectors(), meta3); err != nil {
		t.Fatalf("Put after another Store dropped the store: %v", err)
	}
	if _, err := a.checkDataIndex(ctx, a.dataIndex(0), meta3); err != nil {
		t.Errorf("the data index after the Put: %v; want the store's own", err)
	}
	ms, err := a.Nearest(ctx, []float32{0.5, -0.25, 1}, store.Filter{AsOf: lexicalFilter.AsOf}, 3)
	if err != nil || len(ms) != 2 {
		t.Errorf("Nearest after the Put: %d matches, %v; want 2", len(ms), err)
	}
}
