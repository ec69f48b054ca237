package embedded_test

import (
	"testing"

	"github.com/edgar13f/edgar13f/search/store"
	"github.com/edgar13f/edgar13f/search/store/embedded"
	"github.com/edgar13f/edgar13f/search/store/storetest"
)

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		s, err := embedded.Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}
