package opensearch_test

import (
	"context"
	"fmt"
	"log"

	osgo "github.com/opensearch-project/opensearch-go/v4"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/search/opensearch"
	"github.com/edgar13f/edgar13f/search/store"
)

// Open sends nothing: the store's indices are created by its first Put.
func ExampleOpen() {
	client, err := osgo.NewClient(osgo.Config{Addresses: []string{"http://localhost:9200"}})
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	st, err := opensearch.Open(client, "edgar13f", opensearch.Replicas(0))
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()
	fmt.Println(st.Name())

	_, err = opensearch.Open(client, "EDGAR13F")
	fmt.Println(err)
	// Output:
	// edgar13f
	// edgar13f/search/opensearch: Open: store name "EDGAR13F": want lower case letters, digits, '.', '_' or '-', starting with a letter or digit, at most 200 characters
}

// A store on a cluster answers the filing search's queries point in time.
// This example needs an OpenSearch 2.10+ cluster at localhost:9200, so it
// is compiled but not run.
func Example_search() {
	ctx := context.Background()
	client, err := osgo.NewClient(osgo.Config{Addresses: []string{"http://localhost:9200"}})
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	st, err := opensearch.Open(client, "edgar13f")
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()

	f := store.Filing{
		Accession: "0000320193-24-000123", CIK: "320193", Ticker: "AAPL", Company: "Apple Inc.", Form: "10-K",
		FilingDate: edgar13f.MustParseDate("2024-11-01"), Period: edgar13f.MustParseDate("2024-09-28"), FiscalYear: 2024,
	}
	chunks := []store.Chunk{{ID: "41f0aaa0f9ec2aa2", Accession: f.Accession, Item: "1A", Index: 0, Tokens: 12,
		Text: "The Company is subject to export controls and trade restrictions."}}
	if err := st.Put(ctx, f, chunks, nil, store.Meta{}); err != nil {
		log.Fatal(err)
	}
	ms, err := st.Lexical(ctx, "export controls", store.Filter{AsOf: edgar13f.MustParseDate("2024-12-31"), Ticker: "AAPL"}, 10)
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range ms {
		fmt.Printf("%s %s Item %s %.3f\n", m.Filing.Accession, m.Chunk.ID, m.Chunk.Item, m.Score)
	}
}
