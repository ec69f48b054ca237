package wire

import (
	"context"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/edgar13f/edgar13f"
)

// TestOpenSearchSettings: the EDGAR13F_OPENSEARCH_* settings are read, and
// Check refuses a URL that is not http(s) and settings without a URL.
func TestOpenSearchSettings(t *testing.T) {
	env := map[string]string{
		"EDGAR13F_OPENSEARCH_URL": "https://search.example.com:9200", "EDGAR13F_OPENSEARCH_INDEX": "filings",
		"EDGAR13F_OPENSEARCH_USER": "reader", "EDGAR13F_OPENSEARCH_PASSWORD": "secret",
		"EDGAR13F_OPENSEARCH_CA_FILE": "/etc/ca.pem", "EDGAR13F_OPENSEARCH_INSECURE": "on",
		"EDGAR13F_OPENSEARCH_SHARDS": "3", "EDGAR13F_OPENSEARCH_REPLICAS": "0", "EDGAR13F_OPENSEARCH_EXACT": "on",
	}
	c := ConfigFromEnv(func(k string) string { return env[k] })
	want := OpenSearchConfig{URL: "https://search.example.com:9200", Index: "filings", User: "reader", Password: "secret", CAFile: "/etc/ca.pem", Insecure: true, Shards: "3", Replicas: "0", Exact: true}
	if c.OpenSearch != want {
		t.Errorf("OpenSearch settings %+v, want %+v", c.OpenSearch, want)
	}
	for _, tt := range []struct {
		o    OpenSearchConfig
		want string
	}{
		{OpenSearchConfig{URL: "search.example.com:9200"}, "want an http or https URL"},
		{OpenSearchConfig{URL: "ftp://h"}, "want an http or https URL"},
		{OpenSearchConfig{User: "reader"}, "EDGAR13F_OPENSEARCH_URL"},
		{OpenSearchConfig{URL: "http://h:9200", Password: "x"}, "EDGAR13F_OPENSEARCH_USER"},
		{OpenSearchConfig{URL: "http://h:9200", Shards: "0"}, "EDGAR13F_OPENSEARCH_SHARDS"},
		{OpenSearchConfig{URL: "http://h:9200", Replicas: "-1"}, "EDGAR13F_OPENSEARCH_REPLICAS"},
		{OpenSearchConfig{Replicas: "0"}, "EDGAR13F_OPENSEARCH_URL"},
		{OpenSearchConfig{Exact: true}, "EDGAR13F_OPENSEARCH_URL"},
	} {
		err := Config{OpenSearch: tt.o}.Check()
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Check of %+v: %v, want an error saying %q", tt.o, err, tt.want)
		}
	}
	if err := (Config{OpenSearch: OpenSearchConfig{URL: "http://127.0.0.1:9200"}}).Check(); err != nil {
		t.Errorf("Check of a plain URL: %v", err)
	}
}

// TestOpenSearchSecured: the programs reach an https cluster with basic
// authentication, checking its certificate against the CA file (or not,
// when told), under the index prefix and the source's name; a certificate
// not checked out is an error naming the cluster and the operation.
func TestOpenSearchSecured(t *testing.T) {
	var (
		mu    sync.Mutex
		paths []string
	)
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u, p, ok := r.BasicAuth(); !ok || u != "reader" || p != "secret" {
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte(`{"error":{"type":"security_exception","reason":"missing authentication credentials"},"status":401}`))
			return
		}
		mu.Lock()
		paths = append(paths, r.URL.Path)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{"error":{"type":"index_not_found_exception","reason":"no such index"},"status":404}`))
	}))
	t.Cleanup(srv.Close)
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o644); err != nil {
		t.Fatal(err)
	}
	mirror := filepath.Join("..", "..", "..", "testdata", "mirror")
	filings := func(o OpenSearchConfig) error {
		t.Helper()
		cfg := Config{FixtureDir: mirror, CacheDir: t.TempDir(), OpenSearch: o}
		client, _, err := cfg.NewClient()
		if err != nil {
			t.Fatal(err)
		}
		s, err := OpenSearch(client, cfg)
		if err != nil {
			return err
		}
		defer s.Close()
		_, err = s.Store.Filings(context.Background(), edgar13f.MustParseDate("2025-03-01"))
		return err
	}
	for _, o := range []OpenSearchConfig{
		{URL: srv.URL, Index: "filings", User: "reader", Password: "secret", CAFile: ca},
		{URL: srv.URL, Index: "filings", User: "reader", Password: "secret", Insecure: true},
	} {
		if err := filings(o); err != nil {
			t.Errorf("%+v: %v", o, err)
		}
	}
	mu.Lock()
	if len(paths) != 2 || !strings.HasPrefix(paths[0], "/filings-mirror-") || !strings.HasSuffix(paths[0], "-state/_doc/state") {
		t.Errorf("the cluster was asked %q, want the state of filings-mirror-HASH twice", paths)
	}
	mu.Unlock()
	for _, tt := range []struct {
		o    OpenSearchConfig
		want string
	}{
		{OpenSearchConfig{URL: srv.URL, User: "reader", Password: "secret"}, "certificate"},
		{OpenSearchConfig{URL: srv.URL, CAFile: ca}, "security_exception"},
	} {
		err := filings(tt.o)
		if err == nil || !strings.Contains(err.Error(), "OpenSearch cluster "+srv.URL) || !strings.Contains(err.Error(), "list filings") || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: %v, want an error naming the cluster, the operation and %q", tt.o, err, tt.want)
		}
	}
}
