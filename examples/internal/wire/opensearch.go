package wire

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"

	osgo "github.com/opensearch-project/opensearch-go/v4"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/search/opensearch"
	"github.com/edgar13f/edgar13f/search/store"
)

// DefaultOpenSearchIndex is the prefix of the OpenSearch indices of the
// filing search when EDGAR13F_OPENSEARCH_INDEX is not set.
const DefaultOpenSearchIndex = "edgar13f"

// OpenSearchConfig is the OpenSearch cluster of the filing search
// (the EDGAR13F_OPENSEARCH_* settings); without a URL the programs use
// the embedded store.
type OpenSearchConfig struct {
	URL      string // EDGAR13F_OPENSEARCH_URL
	Index    string // EDGAR13F_OPENSEARCH_INDEX; "" for DefaultOpenSearchIndex
	User     string // EDGAR13F_OPENSEARCH_USER
	Password string // EDGAR13F_OPENSEARCH_PASSWORD
	CAFile   string // EDGAR13F_OPENSEARCH_CA_FILE
	Insecure bool   // EDGAR13F_OPENSEARCH_INSECURE is exactly "on"
	Shards   string // EDGAR13F_OPENSEARCH_SHARDS; "" for the cluster's default
	Replicas string // EDGAR13F_OPENSEARCH_REPLICAS; "" for the cluster's default
	Exact    bool   // EDGAR13F_OPENSEARCH_EXACT is exactly "on": opensearch.ExactNearest
}

// count returns the value of a shards or replicas setting, -1 for none.
func count(v, env string, min int) (int, error) {
	if v == "" {
		return -1, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < min || n > 1024 {
		return 0, fmt.Errorf("%s %q: want a whole number from %d to 1024", label(env), v, min)
	}
	return n, nil
}

// prefix returns the index prefix.
func (o OpenSearchConfig) prefix() string {
	if o.Index == "" {
		return DefaultOpenSearchIndex
	}
	return o.Index
}

// check refuses a URL that is not http or https, and settings of a
// cluster without one.
func (o OpenSearchConfig) check() error {
	if o.URL == "" {
		if o.User != "" || o.Password != "" || o.CAFile != "" || o.Insecure || o.Index != "" || o.Shards != "" || o.Replicas != "" || o.Exact {
			return fmt.Errorf("the OpenSearch settings need %s", label("EDGAR13F_OPENSEARCH_URL"))
		}
		return nil
	}
	u, err := url.Parse(o.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%s %q: want an http or https URL, e.g. https://search.example.com:9200", label("EDGAR13F_OPENSEARCH_URL"), o.URL)
	}
	if _, err := count(o.Shards, "EDGAR13F_OPENSEARCH_SHARDS", 1); err != nil {
		return err
	}
	if _, err := count(o.Replicas, "EDGAR13F_OPENSEARCH_REPLICAS", 0); err != nil {
		return err
	}
	if o.User == "" && o.Password != "" {
		return fmt.Errorf("%s needs %s", label("EDGAR13F_OPENSEARCH_PASSWORD"), label("EDGAR13F_OPENSEARCH_USER"))
	}
	return nil
}

// client returns the OpenSearch client of o.
func (o OpenSearchConfig) client() (*osgo.Client, error) {
	tc := &tls.Config{InsecureSkipVerify: o.Insecure} // #nosec G402 -- only when the user says so
	if o.CAFile != "" {
		pem, err := os.ReadFile(o.CAFile)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", label("EDGAR13F_OPENSEARCH_CA_FILE"), err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("%s %s: no PEM certificate in it", label("EDGAR13F_OPENSEARCH_CA_FILE"), o.CAFile)
		}
		tc.RootCAs = pool
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = tc
	c, err := osgo.NewClient(osgo.Config{
		Addresses: []string{strings.TrimRight(o.URL, "/")},
		Username:  o.User,
		Password:  o.Password,
		Transport: tr,
		// The store retries what the cluster rejects as busy; a cluster
		// that does not answer is an error at once.
		DisableRetry: true,
	})
	if err != nil {
		return nil, fmt.Errorf("the OpenSearch cluster %s (%s): %w", o.URL, label("EDGAR13F_OPENSEARCH_URL"), err)
	}
	return c, nil
}

// openOpenSearch opens the store named after the index prefix and the
// source of c's filings on c's cluster, and returns it with a description
// of where it is.
func (c Config) openOpenSearch() (store.Store, string, error) {
	o := c.OpenSearch
	dir, err := c.SearchDir()
	if err != nil {
		return nil, "", err
	}
	name := o.prefix() + "-" + lastElem(dir)
	cl, err := o.client()
	if err != nil {
		return nil, "", err
	}
	var opts []opensearch.Option
	if n, err := count(o.Shards, "EDGAR13F_OPENSEARCH_SHARDS", 1); err != nil {
		return nil, "", err
	} else if n > 0 {
		opts = append(opts, opensearch.Shards(n))
	}
	if n, err := count(o.Replicas, "EDGAR13F_OPENSEARCH_REPLICAS", 0); err != nil {
		return nil, "", err
	} else if n >= 0 {
		opts = append(opts, opensearch.Replicas(n))
	}
	if o.Exact {
		opts = append(opts, opensearch.ExactNearest())
	}
	st, err := opensearch.Open(cl, name, opts...)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", label("EDGAR13F_OPENSEARCH_INDEX"), err)
	}
	where := fmt.Sprintf("the OpenSearch cluster %s, indices %s-*", o.URL, name)
	return &clusterStore{Store: st, where: where}, where, nil
}

func lastElem(dir string) string {
	dir = strings.TrimRight(dir, `/\`)
	if i := strings.LastIndexAny(dir, `/\`); i >= 0 {
		return dir[i+1:]
	}
	return dir
}

// A clusterStore is a store on a cluster whose failures name the cluster
// and the operation: a cluster that is down or refuses a request is an
// error saying so, never an empty answer.
type clusterStore struct {
	store.Store
	where string
}

func (s *clusterStore) wrap(op string, err error) error {
	var mismatch *store.MismatchError
	if err == nil || errors.Is(err, store.ErrNoVectors) || errors.Is(err, store.ErrBusy) || errors.As(err, &mismatch) ||
		errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return fmt.Errorf("the filing search store on %s: %s: %w", s.where, op, err)
}

func (s *clusterStore) Meta(ctx context.Context) (store.Meta, error) {
	m, err := s.Store.Meta(ctx)
	return m, s.wrap("read the store's embedder", err)
}

func (s *clusterStore) Put(ctx context.Context, f store.Filing, chunks []store.Chunk, vectors [][]float32, meta store.Meta) error {
	return s.wrap("store filing "+f.Accession, s.Store.Put(ctx, f, chunks, vectors, meta))
}

func (s *clusterStore) Filings(ctx context.Context, asOf edgar13f.Date) ([]store.Filing, error) {
	fs, err := s.Store.Filings(ctx, asOf)
	return fs, s.wrap("list filings", err)
}

func (s *clusterStore) Lexical(ctx context.Context, query string, f store.Filter, k int) ([]store.Match, error) {
	m, err := s.Store.Lexical(ctx, query, f, k)
	return m, s.wrap("BM25 search", err)
}

func (s *clusterStore) Nearest(ctx context.Context, vector []float32, f store.Filter, k int) ([]store.Match, error) {
	m, err := s.Store.Nearest(ctx, vector, f, k)
	return m, s.wrap("kNN search", err)
}

func (s *clusterStore) Chunk(ctx context.Context, id string) (store.Chunk, store.Filing, bool, error) {
	c, f, ok, err := s.Store.Chunk(ctx, id)
	return c, f, ok, s.wrap("read chunk "+id, err)
}

func (s *clusterStore) ItemChunks(ctx context.Context, accession, item string) ([]store.Chunk, error) {
	cs, err := s.Store.ItemChunks(ctx, accession, item)
	return cs, s.wrap("read Item "+item+" of "+accession, err)
}
