// Command scalebench fills a filing-search store, the embedded one or one
// on OpenSearch, with N synthetic filings of M chunks (sentences sampled
// from the 10-K and 10-Q documents of the repository's test mirror,
// random vectors) and prints, as one JSON line, the Put rate, the size on
// disk, the heap, and BM25 and kNN p50/p90 unfiltered, filtered by ticker
// and with asOf mid-period (package storebench, as go run ./bench/scalebench
// of the library, which measures the embedded store only).
//
//	go run ./cmd/scalebench -store opensearch -url http://localhost:9200 -filings 250 -chunks 400
//	go run ./cmd/scalebench -store embedded -dir /tmp/store-100k -filings 250 -chunks 400
//
// On OpenSearch the store's indices are named by -index (default: a new
// name, dropped at the end unless -keep); a store that already holds the
// N filings is measured without being built again. -shards and -exact set
// a new store's primary shards and ExactNearest (its vectors kept without
// an HNSW graph, kNN searched exactly). -puts N runs N Puts side by side
// (the rate is then the chunks over the build's wall time). The size on
// disk is then the primaries' store size of its indices, and the heap the
// client's (the node's JVM heap is printed to stderr). Progress goes to
// stderr. The command sends no credentials: for a secured cluster, measure
// a test node (search/opensearch/node/run.sh start).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	osgo "github.com/opensearch-project/opensearch-go/v4"

	"github.com/edgar13f/edgar13f/search/opensearch"
	"github.com/edgar13f/edgar13f/search/store"
	"github.com/edgar13f/edgar13f/search/store/embedded"
	"github.com/edgar13f/edgar13f/search/store/storebench"
)

func main() {
	var cfg storebench.Config
	kind := flag.String("store", "opensearch", "the store to fill: opensearch or embedded")
	flag.IntVar(&cfg.Filings, "filings", 250, "filings to put (N)")
	flag.IntVar(&cfg.Chunks, "chunks", 400, "chunks per filing (M)")
	flag.IntVar(&cfg.Words, "words", 260, "words per chunk, about")
	flag.IntVar(&cfg.Dim, "dim", 384, "vector dimension; -1 for none (BM25 only)")
	flag.IntVar(&cfg.Companies, "companies", 500, "companies the filings are spread over")
	flag.IntVar(&cfg.Rounds, "rounds", 5, "rounds of the 10 queries of each kind")
	flag.IntVar(&cfg.Puts, "puts", 1, "Puts side by side while building (1: one after another, as the published figures; more: the rate over the build's wall time, as an indexer sees it)")
	flag.StringVar(&cfg.Corpus, "corpus", "", "directory of 10-K/10-Q HTML documents (default: the repository's testdata/mirror)")
	addr := flag.String("url", os.Getenv("EDGAR13F_OPENSEARCH_URL"), "OpenSearch: the cluster's URL (default $EDGAR13F_OPENSEARCH_URL)")
	index := flag.String("index", "", "OpenSearch: the store's name (default: a new one, dropped at the end unless -keep)")
	keep := flag.Bool("keep", false, "OpenSearch: keep a new store's indices")
	dir := flag.String("dir", "", "embedded: the store's directory (default: a new temporary directory, removed at the end)")
	exact := flag.Bool("exact", false, "OpenSearch: ExactNearest: a new store keeps its vectors without an HNSW graph, and kNN searches exactly")
	shards := flag.Int("shards", 0, "OpenSearch: primary shards of a new store's data index: one per core of the node lets a query use them all (default: the cluster's)")
	flag.Parse()

	ctx := context.Background()
	var res storebench.Result
	var err error
	switch *kind {
	case "embedded":
		res, err = runEmbedded(ctx, cfg, *dir)
	case "opensearch":
		res, err = runOpenSearch(ctx, cfg, *addr, *index, *keep, *shards, *exact)
	default:
		err = fmt.Errorf("-store %q: want opensearch or embedded", *kind)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "scalebench:", err)
		os.Exit(1)
	}
	fmt.Println(res.JSON())
}

func runEmbedded(ctx context.Context, cfg storebench.Config, dir string) (storebench.Result, error) {
	if dir == "" {
		d, err := os.MkdirTemp("", "scalebench-")
		if err != nil {
			return storebench.Result{}, err
		}
		defer os.RemoveAll(d)
		dir = d
	}
	open := func() (store.Store, error) { return embedded.Open(dir) }
	return storebench.Run(ctx, "embedded", cfg, open, dir, os.Stderr)
}

func runOpenSearch(ctx context.Context, cfg storebench.Config, addr, name string, keep bool, shards int, exact bool) (storebench.Result, error) {
	if addr == "" {
		return storebench.Result{}, fmt.Errorf("-url (or EDGAR13F_OPENSEARCH_URL) is required for -store opensearch")
	}
	c, err := osgo.NewClient(osgo.Config{Addresses: []string{addr}})
	if err != nil {
		return storebench.Result{}, err
	}
	drop := false
	if name == "" {
		name, drop = "edgar13f-scalebench-"+strconv.FormatInt(time.Now().UnixNano(), 36), !keep
	}
	var opts []opensearch.Option
	if shards > 0 {
		opts = append(opts, opensearch.Shards(shards))
	}
	if exact {
		opts = append(opts, opensearch.ExactNearest())
	}
	open := func() (store.Store, error) { return opensearch.Open(c, name, opts...) }
	res, err := storebench.Run(ctx, "opensearch", cfg, open, "", os.Stderr)
	if err == nil {
		res.DiskMB, err = diskMB(ctx, addr, name)
		nodeHeap(ctx, addr)
	}
	if drop {
		s, oerr := opensearch.Open(c, name)
		if oerr == nil {
			oerr = s.Drop(ctx)
		}
		if err == nil {
			err = oerr
		}
	}
	return res, err
}

// diskMB is the primaries' store size of the store's indices.
func diskMB(ctx context.Context, addr, name string) (float64, error) {
	var r struct {
		All struct {
			Primaries struct {
				Store struct {
					Bytes int64 `json:"size_in_bytes"`
				} `json:"store"`
			} `json:"primaries"`
		} `json:"_all"`
	}
	if err := get(ctx, addr, "/"+name+"-*/_stats/store", &r); err != nil {
		return 0, err
	}
	return float64(r.All.Primaries.Store.Bytes/1000) / 1000, nil
}

// nodeHeap prints the nodes' JVM heap in use to stderr.
func nodeHeap(ctx context.Context, addr string) {
	var r struct {
		Nodes map[string]struct {
			Name string `json:"name"`
			JVM  struct {
				Mem struct {
					Used int64 `json:"heap_used_in_bytes"`
					Max  int64 `json:"heap_max_in_bytes"`
				} `json:"mem"`
			} `json:"jvm"`
		} `json:"nodes"`
	}
	if err := get(ctx, addr, "/_nodes/stats/jvm", &r); err != nil {
		fmt.Fprintln(os.Stderr, "node heap:", err)
		return
	}
	for _, n := range r.Nodes {
		fmt.Fprintf(os.Stderr, "node %s: JVM heap %d of %d MB in use\n", n.Name, n.JVM.Mem.Used>>20, n.JVM.Mem.Max>>20)
	}
}

// get reads a JSON answer of the cluster at addr (without credentials).
func get(ctx context.Context, addr, path string, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(addr, "/")+path, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s: %.300s", path, resp.Status, data)
	}
	return json.Unmarshal(data, out)
}
