package opensearch

import (
	"context"
	"net/http/httptest"
	"os"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	osgo "github.com/opensearch-project/opensearch-go/v4"

	"github.com/edgar13f/edgar13f/search/store"
	"github.com/edgar13f/edgar13f/search/store/storetest"
)

// droppingStore deletes its indices when closed: the conformance cases
// open many stores.
type droppingStore struct{ *Store }

func (s droppingStore) Close() error {
	if err := s.Drop(context.Background()); err != nil {
		return err
	}
	return s.Store.Close()
}

// TestConformance runs the conformance cases of every store against a
// real OpenSearch cluster (2.10 or later) at EDGAR13F_OPENSEARCH_URL, once
// with the HNSW Nearest and once with ExactNearest. Each store gets
// indices of its own name, deleted when it is closed.
func TestConformance(t *testing.T) {
	addr := os.Getenv("EDGAR13F_OPENSEARCH_URL")
	if addr == "" {
		t.Skip("EDGAR13F_OPENSEARCH_URL is not set: the conformance cases need an OpenSearch 2.10+ cluster (README.md says how to run one)")
	}
	c, err := osgo.NewClient(osgo.Config{Addresses: []string{addr}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	runConformance(t, c, "edgar13f-test-"+strconv.FormatInt(time.Now().UnixNano(), 36))
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
	runConformance(t, c, "sim")
}

func runConformance(t *testing.T, c *osgo.Client, prefix string) {
	var n atomic.Int64
	for _, mode := range []struct {
		name string
		opts []Option
	}{{"hnsw", nil}, {"exact", []Option{ExactNearest()}}} {
		t.Run(mode.name, func(t *testing.T) {
			storetest.Run(t, func(t *testing.T) store.Store {
				name := prefix + "-" + mode.name + "-" + strconv.FormatInt(n.Add(1), 10)
				s, err := Open(c, name, append([]Option{Replicas(0)}, mode.opts...)...)
				if err != nil {
					t.Fatal(err)
				}
				return droppingStore{s}
			})
		})
	}
}
