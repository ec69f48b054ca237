package testkit

import (
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// OpenSearchURLVar names the OpenSearch node the programs' search tests
// run against on the OpenSearch store: search/opensearch/node/run.sh
// starts one.
const OpenSearchURLVar = "EDGAR13F_OPENSEARCH_TEST_URL"

var openSearchN atomic.Int64

// OpenSearchEnv returns the settings that put a program's filing search on
// the OpenSearch node at EDGAR13F_OPENSEARCH_TEST_URL, under an index
// prefix of the test's own, whose indices are deleted when the test ends.
// Without a node it skips the test, except in CI (CI=true), where the
// node is part of the run and a skip would hide that the test never ran:
// there it fails.
func OpenSearchEnv(t testing.TB) []string {
	t.Helper()
	addr := os.Getenv(OpenSearchURLVar)
	if addr == "" {
		why := OpenSearchURLVar + " is not set: this test needs an OpenSearch 2.10+ node with the k-NN plugin (bash search/opensearch/node/run.sh exec -- go -C examples test ./... starts one)"
		if os.Getenv("CI") == "true" {
			t.Fatal(why)
		}
		t.Skip(why)
	}
	addr = strings.TrimRight(addr, "/")
	prefix := "edgar13f-examples-" + strconv.FormatInt(time.Now().UnixNano(), 36) + "-" + strconv.FormatInt(openSearchN.Add(1), 10)
	t.Cleanup(func() {
		req, err := http.NewRequest(http.MethodDelete, addr+"/"+prefix+"-*", nil)
		if err != nil {
			t.Error(err)
			return
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Errorf("deleting the test's indices %s-*: %v", prefix, err)
			return
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("deleting the test's indices %s-*: %s", prefix, resp.Status)
		}
	})
	return []string{"EDGAR13F_OPENSEARCH_URL=" + addr, "EDGAR13F_OPENSEARCH_INDEX=" + prefix}
}
