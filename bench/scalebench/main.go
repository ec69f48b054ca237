// Command scalebench fills the embedded filing-search store with N
// synthetic filings of M chunks (sentences sampled from the 10-K and 10-Q
// documents of the repository's test mirror, random vectors) and prints,
// as one JSON line, the Put rate, the size on disk, the heap, and BM25 and
// kNN p50/p90 unfiltered, filtered by ticker and with asOf mid-period.
//
//	go run ./bench/scalebench -filings 2500 -chunks 400 -dir /tmp/store-1m
//
// A directory that already holds the N filings is measured without being
// built again, so one build serves many runs. -puts N runs N Puts side by
// side (the rate is then the chunks over the build's wall time). Progress
// goes to stderr.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/edgar13f/edgar13f/search/store"
	"github.com/edgar13f/edgar13f/search/store/embedded"
	"github.com/edgar13f/edgar13f/search/store/storebench"
)

func main() {
	var cfg storebench.Config
	flag.IntVar(&cfg.Filings, "filings", 250, "filings to put (N)")
	flag.IntVar(&cfg.Chunks, "chunks", 400, "chunks per filing (M)")
	flag.IntVar(&cfg.Words, "words", 260, "words per chunk, about")
	flag.IntVar(&cfg.Dim, "dim", 384, "vector dimension; -1 for none (BM25 only)")
	flag.IntVar(&cfg.Companies, "companies", 500, "companies the filings are spread over")
	flag.IntVar(&cfg.Rounds, "rounds", 5, "rounds of the 10 queries of each kind")
	flag.IntVar(&cfg.Puts, "puts", 1, "Puts side by side while building (1: one after another, as the published figures; more: the rate over the build's wall time, as an indexer sees it)")
	flag.StringVar(&cfg.Corpus, "corpus", "", "directory of 10-K/10-Q HTML documents (default: the repository's testdata/mirror)")
	dir := flag.String("dir", "", "the store's directory (default: a new temporary directory, removed at the end)")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the whole run to this file")
	memProfile := flag.String("memprofile", "", "write a heap profile, taken after the queries, to this file")
	flag.Parse()
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fail(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fail(err)
		}
		defer pprof.StopCPUProfile()
	}

	d := *dir
	if d == "" {
		var err error
		if d, err = os.MkdirTemp("", "scalebench-"); err != nil {
			fail(err)
		}
		defer os.RemoveAll(d)
	}
	if *memProfile != "" {
		f, err := os.Create(*memProfile)
		if err != nil {
			fail(err)
		}
		defer f.Close()
		cfg.HeapProfile = f
	}
	open := func() (store.Store, error) {
		return embedded.Open(d, embedded.Progress(func(p embedded.OpenProgress) {
			fmt.Fprintf(os.Stderr, "opening: %s\n", p)
		}))
	}
	res, err := storebench.Run(context.Background(), "embedded", cfg, open, d, os.Stderr)
	if err != nil {
		pprof.StopCPUProfile()
		if *dir == "" {
			os.RemoveAll(d)
		}
		fail(err)
	}
	fmt.Println(res.JSON())
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "scalebench:", err)
	os.Exit(1)
}
