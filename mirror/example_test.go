package mirror_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/mirror"
)

// A Client reading the repository's recorded mirror instead of EDGAR:
// Berkshire Hathaway's 13F filings for 2023Q3 as EDGAR showed them at the
// end of 2024.
func ExampleNewFetcher() {
	tree, err := mirror.Dir("../testdata/mirror")
	if err != nil {
		log.Fatal(err)
	}
	c, err := edgar13f.NewClient(edgar13f.WithFetcher(mirror.NewFetcher(tree)), edgar13f.WithCache(nil))
	if err != nil {
		log.Fatal(err)
	}
	list, err := c.Filings(context.Background(), "1067983", edgar13f.MustParseDate("2024-12-31"), edgar13f.ForPeriod(edgar13f.MustParseDate("2023-09-30")))
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range list.Filings {
		fmt.Println(f.Accession, f.Form, f.FilingDate)
	}
	// Output:
	// 0000950123-24-005653 13F-HR/A 2024-05-15
	// 0000950123-23-011029 13F-HR/A 2023-11-16
	// 0000950123-23-010898 13F-HR 2023-11-14
}

// A document the mirror lacks is an error wrapping edgar13f.ErrNotFound
// that names the file the mirror would hold it in.
func ExampleFetcher_Fetch() {
	tree, err := mirror.Dir("../testdata/mirror")
	if err != nil {
		log.Fatal(err)
	}
	f := mirror.NewFetcher(tree)
	b, err := f.Fetch(context.Background(), "https://data.sec.gov/submissions/CIK0001067983.json")
	fmt.Println(len(b) > 0, err)
	_, err = f.Fetch(context.Background(), "https://data.sec.gov/submissions/CIK0000000001.json")
	var fe *edgar13f.FetchError
	fmt.Println(errors.Is(err, edgar13f.ErrNotFound), errors.As(err, &fe) && fe.URL == "https://data.sec.gov/submissions/CIK0000000001.json")
	// Output:
	// true <nil>
	// true true
}

// Serving the mirror over HTTP, as a test would for a Client built
// edgar13f.WithBaseURL(srv.URL): GET /HOST/PATH answers the file HOST/PATH.
func ExampleHandler() {
	tree, err := mirror.Dir("../testdata/mirror")
	if err != nil {
		log.Fatal(err)
	}
	srv := httptest.NewServer(mirror.Handler(tree))
	defer srv.Close()
	for _, path := range []string{"/data.sec.gov/submissions/CIK0001067983.json", "/data.sec.gov/submissions/CIK0000000001.json"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			log.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		fmt.Println(resp.StatusCode, path)
	}
	// Output:
	// 200 /data.sec.gov/submissions/CIK0001067983.json
	// 404 /data.sec.gov/submissions/CIK0000000001.json
}

// A directory that holds no EDGAR host's directory is not a mirror tree.
func ExampleDir() {
	_, err := mirror.Dir("../testdata")
	fmt.Println(err)
	_, err = mirror.Dir("../testdata/mirror")
	fmt.Println(err)
	// Output:
	// edgar13f: ../testdata is not an EDGAR mirror tree: it has no www.sec.gov or data.sec.gov directory (a mirror holds https://HOST/PATH as HOST/PATH)
	// <nil>
}
