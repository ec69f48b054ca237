package opensearch

import (
	"encoding/json"
	"net/http"
	"strconv"
	"testing"
	"time"

	osgo "github.com/opensearch-project/opensearch-go/v4"
)

// TestDataIndexSettingsOnNode checks, on the real node at
// EDGAR13F_OPENSEARCH_TEST_URL, that the data index a Put creates has no
// scheduled refresh (refresh_interval -1): the store refreshes when a
// query or a Put needs it, and the cluster accepts the setting.
func TestDataIndexSettingsOnNode(t *testing.T) {
	c, err := osgo.NewClient(osgo.Config{Addresses: []string{testURL(t)}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	s := openDropped(t, c, "edgar13f-test-settings-"+strconv.FormatInt(time.Now().UnixNano(), 36))
	if err := s.Put(ctx, apple(), appleChunks(), appleVectors(), meta3); err != nil {
		t.Fatal(err)
	}
	data, err := s.do(ctx, "read settings", http.MethodGet, "/"+s.dataIndex(0)+"/_settings", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var r map[string]struct {
		Settings struct {
			Index struct {
				RefreshInterval string `json:"refresh_interval"`
			} `json:"index"`
		} `json:"settings"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	if got := r[s.dataIndex(0)].Settings.Index.RefreshInterval; got != "-1" {
		t.Errorf("%s: refresh_interval %q; want \"-1\" (no scheduled refresh)", s.dataIndex(0), got)
	}
	ms, err := s.Lexical(ctx, "export controls", lexicalFilter, 10)
	if err != nil || len(ms) == 0 {
		t.Errorf("Lexical after the Put: %d matches, %v; want the filing's chunks (the query refreshes)", len(ms), err)
	}
}
