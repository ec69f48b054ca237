package opensearch

import (
	"fmt"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"

	osgo "github.com/opensearch-project/opensearch-go/v4"
)

type profRT struct {
	mu sync.Mutex
	d  map[string]time.Duration
	n  map[string]int
}

var reIdx = regexp.MustCompile(`/edgar13f[^/]*`)

func (p *profRT) RoundTrip(r *http.Request) (*http.Response, error) {
	t0 := time.Now()
	resp, err := http.DefaultTransport.RoundTrip(r)
	k := r.Method + " " + reIdx.ReplaceAllString(r.URL.Path, "/IDX") + "?" + r.URL.Query().Get("refresh")
	p.mu.Lock()
	p.d[k] += time.Since(t0)
	p.n[k]++
	p.mu.Unlock()
	return resp, err
}

func TestZZProf(t *testing.T) {
	p := &profRT{d: map[string]time.Duration{}, n: map[string]int{}}
	c, err := osgo.NewClient(osgo.Config{Addresses: []string{testURL(t)}, Transport: p})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	t.Cleanup(func() {})
	runConformance(t, c, "edgar13f-test-"+strconv.FormatInt(time.Now().UnixNano(), 36), &dropper{cluster: func() *Store { s, _ := Open(c, "x"); return s }()})
	t.Cleanup(func() {
		var ks []string
		for k := range p.d {
			ks = append(ks, k)
		}
		sort.Slice(ks, func(i, j int) bool { return p.d[ks[i]] > p.d[ks[j]] })
		for _, k := range ks {
			fmt.Printf("%-60s n=%5d total=%8.2fs avg=%6.1fms\n", k, p.n[k], p.d[k].Seconds(), p.d[k].Seconds()*1000/float64(p.n[k]))
		}
		fmt.Println("wall", time.Since(t0))
	})
}
