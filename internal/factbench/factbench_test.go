package factbench

import (
	"bytes"
	"context"
	"testing"

	"github.com/edgar13f/edgar13f/internal/factstore"
)

// TestWrite: the file is a companyfacts.zip that the importer reads
// whole, with the facts and companies it claims.
func TestWrite(t *testing.T) {
	var b bytes.Buffer
	st, err := WriteTo(&b, 10_000, 1)
	if err != nil {
		t.Fatal(err)
	}
	if st.Companies != 5 || st.Facts != 10_000 {
		t.Fatalf("%+v", st)
	}
	members, err := factstore.ZipMembers(bytes.NewReader(b.Bytes()), int64(b.Len()), "synthetic.zip")
	if err != nil {
		t.Fatal(err)
	}
	s, err := factstore.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Import(context.Background(), members, factstore.Options{Source: "synthetic.zip"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Facts != st.Facts || got.Companies != st.Companies || got.SourceBytes != st.JSONBytes {
		t.Fatalf("imported %+v, wrote %+v", got.Meta, st)
	}
	var again bytes.Buffer
	if _, err := WriteTo(&again, 10_000, 1); err != nil || !bytes.Equal(again.Bytes(), b.Bytes()) {
		t.Errorf("not deterministic for a seed: %v", err)
	}
}
