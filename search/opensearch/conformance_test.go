package opensearch

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	osgo "github.com/opensearch-project/opensearch-go/v4"

	"github.com/edgar13f/edgar13f/search/store"
	"github.com/edgar13f/edgar13f/search/store/storetest"
)

// droppingStore deletes its indices when closed: the conformance cases
// open many stores. The deletion runs in the background (a case does not
// wait for it); the dropper waits for every one and reports its errors.
type droppingStore struct {
	*Store
	d *dropper
}

func (s droppingStore) Close() error {
	s.d.drop(s.Store)
	return s.Store.Close()
}

// dropBatch is how many closed stores a dropper deletes in one request.
const dropBatch = 16

// dropper deletes the indices of closed stores in the background. With
// a cluster it deletes those of dropBatch stores in one request (one
// cluster state update instead of dropBatch): creating and deleting
// indices is most of what the conformance cases cost a node.
type dropper struct {
	cluster *Store // the cluster's client, or nil: each store's Drop
	wg      sync.WaitGroup
	mu      sync.Mutex
	pending []string
	errs    []error
}

func (d *dropper) fail(err error) {
	d.mu.Lock()
	d.errs = append(d.errs, err)
	d.mu.Unlock()
}

func (d *dropper) drop(s *Store) {
	d.wg.Add(1)
	if d.cluster == nil {
		go func() {
			defer d.wg.Done()
			if err := s.Drop(context.Background()); err != nil {
				d.fail(err)
			}
		}()
		return
	}
	d.mu.Lock()
	// The store's indices are named s.Name()-state and s.Name()-data-E.
	d.pending = append(d.pending, s.Name()+"-*")
	var batch []string
	if len(d.pending) >= dropBatch {
		batch, d.pending = d.pending, nil
	}
	d.mu.Unlock()
	go func() {
		defer d.wg.Done()
		d.delete(batch)
	}()
}

// delete deletes the indices that match the patterns.
func (d *dropper) delete(patterns []string) {
	if len(patterns) == 0 {
		return
	}
	q := url.Values{"ignore_unavailable": {"true"}, "allow_no_indices": {"true"}}
	if _, err := d.cluster.do(context.Background(), "delete indices", http.MethodDelete, "/"+strings.Join(patterns, ","), q, nil); err != nil {
		d.fail(err)
	}
}

// wait deletes what is pending, waits for every deletion and fails t
// with the errors.
func (d *dropper) wait(t *testing.T) {
	d.mu.Lock()
	batch := d.pending
	d.pending = nil
	d.mu.Unlock()
	d.delete(batch)
	d.wg.Wait()
	for _, err := range d.errs {
		t.Errorf("deleting a closed store's indices: %v", err)
	}
}

// testURLVar names the OpenSearch node the tests run against:
// search/opensearch/node/run.sh starts one and sets it.
const testURLVar = "EDGAR13F_OPENSEARCH_TEST_URL"

// testURL returns the node's URL. Without one it skips the test, except
// in CI (CI=true), where a real node is part of the run and a skip would
// hide that the cases never ran: there it fails.
func testURL(t *testing.T) string {
	t.Helper()
	addr := os.Getenv(testURLVar)
	if addr != "" {
		return addr
	}
	why := testURLVar + " is not set: this test needs an OpenSearch 2.10+ node with the k-NN plugin (search/opensearch/node/run.sh test starts one and runs the tests against it)"
	if os.Getenv("CI") == "true" {
		t.Fatal(why)
	}
	t.Skip(why)
	return ""
}

// onSimulatorAndNode runs test twice: on the simulator, and on the real
// node at EDGAR13F_OPENSEARCH_TEST_URL (see testURL), each time with a
// client of its own and a prefix for the names of the stores it makes.
func onSimulatorAndNode(t *testing.T, name string, test func(t *testing.T, c *osgo.Client, prefix string)) {
	t.Run("simulated", func(t *testing.T) {
		c, _ := fakeClient(t)
		test(t, c, "sim-"+name)
	})
	t.Run("node", func(t *testing.T) {
		c, err := osgo.NewClient(osgo.Config{Addresses: []string{testURL(t)}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		test(t, c, "edgar13f-test-"+name+"-"+strconv.FormatInt(time.Now().UnixNano(), 36))
	})
}

// openDropped opens the store named name on c with Replicas(0) (a single
// node's indices stay green) and opts, and drops it when the test ends.
func openDropped(t *testing.T, c *osgo.Client, name string, opts ...Option) *Store {
	t.Helper()
	s, err := Open(c, name, append([]Option{Replicas(0)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Drop(ctx); err != nil {
			t.Errorf("Drop %s: %v", name, err)
		}
	})
	return s
}

// TestConformance runs the conformance cases of every store against a
// real OpenSearch node (2.10 or later) at EDGAR13F_OPENSEARCH_TEST_URL,
// once with the HNSW Nearest on one shard and once with ExactNearest on
// two. Each store gets indices of its own name, deleted when it is closed.
func TestConformance(t *testing.T) {
	c, err := osgo.NewClient(osgo.Config{Addresses: []string{testURL(t)}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	cluster, err := Open(c, "edgar13f-test")
	if err != nil {
		t.Fatal(err)
	}
	runConformance(t, c, "edgar13f-test-"+strconv.FormatInt(time.Now().UnixNano(), 36), &dropper{cluster: cluster})
}

// TestConformanceSimulated runs the same cases against the simulator of
// fakecluster_test.go: the Store's own logic, without a cluster.
func TestConformanceSimulated(t *testing.T) {
	srv := httptest.NewServer(newFakeCluster())
	t.Cleanup(srv.Close)
	c, err := osgo.NewClient(osgo.Config{Addresses: []string{srv.URL}, DisableRetry: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	runConformance(t, c, "sim", new(dropper))
}

func runConformance(t *testing.T, c *osgo.Client, prefix string, d *dropper) {
	var n atomic.Int64
	t.Cleanup(func() { d.wait(t) })
	for _, mode := range []struct {
		name string
		opts []Option
	}{
		{"hnsw", nil},
		// Two primary shards, as a node of two cores or more wants
		// (README, "Shards and cores"): each shard ranks its own
		// chunks, and the exact Nearest must still answer as the
		// embedded store does.
		{"exact", []Option{ExactNearest(), Shards(2)}},
	} {
		t.Run(mode.name, func(t *testing.T) {
			t.Parallel()
			// Every call waits on the cluster: the cases run side by
			// side (go test -parallel bounds them).
			storetest.RunParallel(t, func(t *testing.T) store.Store {
				name := prefix + "-" + mode.name + "-" + strconv.FormatInt(n.Add(1), 10)
				s, err := Open(c, name, append([]Option{Replicas(0)}, mode.opts...)...)
				if err != nil {
					t.Fatal(err)
				}
				return droppingStore{s, d}
			})
		})
	}
}
