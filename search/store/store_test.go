package store

import "testing"

func TestValidateChunks(t *testing.T) {
	const acc = "0000320193-24-000123"
	ok := func(id string) Chunk { return Chunk{ID: id, Accession: acc} }
	tests := []struct {
		name    string
		chunks  []Chunk
		wantErr string
	}{
		{"none", nil, ""},
		{"distinct", []Chunk{ok("a"), ok("b")}, ""},
		{"no id", []Chunk{ok("a"), {Accession: acc}}, "chunk 1 has no id"},
		{"twice", []Chunk{ok("a"), ok("b"), ok("a")}, "chunk id a appears twice"},
		{"other filing", []Chunk{ok("a"), {ID: "b", Accession: "0000320193-23-000106"}}, "chunk b belongs to accession 0000320193-23-000106"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := ValidateChunks(acc, tc.chunks)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("ValidateChunks: %v", err)
				}
				return
			}
			if err == nil || err.Error() != tc.wantErr {
				t.Fatalf("ValidateChunks error = %v, want %q", err, tc.wantErr)
			}
		})
	}
}
