package ciklookup

import (
	"errors"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/edgar13f/edgar13f/internal/edgartest/edgarfiles"
)

func collect(in string) ([]Entry, error) {
	var got []Entry
	err := Parse(strings.NewReader(in), func(e Entry) error {
		got = append(got, e)
		return nil
	})
	return got, err
}

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []Entry
	}{
		{
			name: "current and former names",
			in:   "BERKSHIRE HATHAWAY INC:0001067983:\nNEW BKH CORP:0001067983:\n",
			want: []Entry{{Name: "BERKSHIRE HATHAWAY INC", CIK: 1067983}, {Name: "NEW BKH CORP", CIK: 1067983}},
		},
		{
			name: "colons in the name, CRLF, blank lines, no final newline",
			in:   "RATIO: 1:2 FUND LP:0009000017:\r\n\r\n  \nA:B:0000000001:",
			want: []Entry{{Name: "RATIO: 1:2 FUND LP", CIK: 9000017}, {Name: "A:B", CIK: 1}},
		},
		{
			name: "Latin-1 and windows-1252 bytes",
			in:   "GESTION PRIV\xc9E DU L\xc9MAN SA:0009000013:\n\x93Q\x94 CAPITAL \x80 CO:0009000018:\n",
			want: []Entry{{Name: "GESTION PRIVÉE DU LÉMAN SA", CIK: 9000013}, {Name: "“Q” CAPITAL € CO", CIK: 9000018}},
		},
		{
			name: "valid UTF-8 is kept",
			in:   "SOCIÉTÉ X:0009000019:\n",
			want: []Entry{{Name: "SOCIÉTÉ X", CIK: 9000019}},
		},
		{name: "empty file", in: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := collect(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Parse (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"no trailing colon", "A:0000000001\n", "ciklookup: line 1: no trailing ':'"},
		{"no CIK", "OK:1:\nNAME ONLY:\n", "ciklookup: line 2: no ':' between name and CIK"},
		{"letters in CIK", "A:12X:\n", "ciklookup: line 1: CIK \"12X\" is not 1 to 10 digits"},
		{"CIK too long", "A:12345678901:\n", "ciklookup: line 1: CIK \"12345678901\" is not 1 to 10 digits"},
		{"empty name", " :1:\n", "ciklookup: line 1: empty name"},
		{"line too long", strings.Repeat("A", MaxLine+1) + ":1:\n", "ciklookup: line longer than 65536 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := collect(tt.in)
			if err == nil || err.Error() != tt.want {
				t.Fatalf("Parse error = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestParseStopsOnCallbackError(t *testing.T) {
	stop := errors.New("stop")
	n := 0
	err := Parse(strings.NewReader("A:1:\nB:2:\nC:3:\n"), func(Entry) error {
		n++
		if n == 2 {
			return stop
		}
		return nil
	})
	if err != stop || n != 2 {
		t.Fatalf("err = %v after %d entries, want stop after 2", err, n)
	}
}

// TestParseMirror reads the lookup file of the recorded mirror.
func TestParseMirror(t *testing.T) {
	f, err := os.Open(edgarfiles.Mirror + "/www.sec.gov/Archives/edgar/cik-lookup-data.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	names := map[uint64][]string{}
	if err := Parse(f, func(e Entry) error {
		names[e.CIK] = append(names[e.CIK], e.Name)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	want := map[uint64][]string{
		1067983: {"BERKSHIRE HATHAWAY INC", "NEW BKH CORP"},
		9000013: {"GESTION PRIVÉE DU LÉMAN SA"},
	}
	for cik, w := range want {
		if diff := cmp.Diff(w, names[cik]); diff != "" {
			t.Errorf("names of %d (-want +got):\n%s", cik, diff)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("BERKSHIRE HATHAWAY INC:0001067983:\nNEW BKH CORP:0001067983:\n"))
	f.Add([]byte("GESTION PRIV\xc9E DU L\xc9MAN SA:0009000013:\r\n"))
	f.Add([]byte("RATIO: 1:2 FUND LP:0009000017:"))
	f.Fuzz(func(t *testing.T, b []byte) {
		_ = Parse(strings.NewReader(string(b)), func(e Entry) error {
			if e.Name == "" || !utf8.ValidString(e.Name) || e.CIK > 9999999999 {
				t.Fatalf("bad entry %+v", e)
			}
			return nil
		})
	})
}
