package infotable

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"
)

// realEncodings returns the encoding of every real table.
func realEncodings(t testing.TB) [][]byte {
	t.Helper()
	var encs [][]byte
	for _, tt := range realTables {
		table, _ := tt.load(t)
		rows, err := Parse(table, nil)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		encs = append(encs, AppendEncoded(nil, rows, Tally{}))
	}
	return encs
}

// withCRC returns magic, version, body and a valid checksum.
// withCRC returns an encoding of version 2 whose Tally is zero and whose
// rows are body.
func withCRC(body []byte) []byte {
	b := append([]byte(magic+"\x02\x00\x00"), body...)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

func TestEncodeRoundTripReal(t *testing.T) {
	for _, tt := range realTables {
		t.Run(tt.name, func(t *testing.T) {
			table, _ := tt.load(t)
			rows, err := Parse(table, nil)
			if err != nil {
				t.Fatal(err)
			}
			prefix := []byte("prefix")
			enc := AppendEncoded(prefix, rows, Tally{})
			if string(enc[:len(prefix)]) != "prefix" {
				t.Fatalf("AppendEncoded changed dst's existing bytes")
			}
			got, err := Decode(enc[len(prefix):])
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(rows, got); diff != "" {
				t.Errorf("round trip (-want +got):\n%s", diff)
			}
			if len(enc)-len(prefix) >= len(table)/2 {
				t.Errorf("encoding is %d bytes for a %d-byte table, want under half", len(enc)-len(prefix), len(table))
			}
		})
	}
}

// TestEncodeGolden pins the version 2 format.
func TestEncodeGolden(t *testing.T) {
	for _, tc := range []struct {
		name  string
		rows  []Row
		tally Tally
		want  string // hex, without the trailing checksum
	}{
		{name: "no rows", rows: nil, want: "4531335402" + "00" + "00" + "00" + "00"},
		{name: "one row", rows: []Row{{NameOfIssuer: "AB", TitleOfClass: "C", CUSIP: "D", FIGI: "", Value: 1, Shares: 64,
			ShPrn: "PRN", PutCall: "CALL", InvestmentDiscretion: "DFND", OtherManager: "4", VotingSole: -1, VotingShared: 0, VotingNone: 2}},
			tally: Tally{Rows: 2, Value: 65},
			want: "4531335402" + "02" + "8201" + "01" + "05" + hex.EncodeToString([]byte("ABCD4")) +
				"2a" + "02" + "01" + "01" + "00" + "01" + "02" + "8001" + "01" + "00" + "04"},
		{name: "literal enums", rows: []Row{{NameOfIssuer: "N", CUSIP: "C", ShPrn: "x", PutCall: "yy", InvestmentDiscretion: "zzz"}},
			tally: Tally{Rows: 1},
			want: "4531335402" + "01" + "00" + "01" + "08" + hex.EncodeToString([]byte("NCxyyzzz")) +
				"4f" + "01" + "00" + "01" + "00" + "00" + "01" + "02" + "03" + "00" + "00" + "00" + "00" + "00"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			enc := AppendEncoded(nil, tc.rows, tc.tally)
			n, tally, err := Summary(enc)
			if err != nil || n != len(tc.rows) || tally != tc.tally {
				t.Errorf("Summary = %d, %+v, %v; want %d, %+v", n, tally, err, len(tc.rows), tc.tally)
			}
			want, _ := hex.DecodeString(tc.want)
			want = binary.LittleEndian.AppendUint32(want, crc32.Checksum(want, castagnoli))
			if diff := cmp.Diff(hex.EncodeToString(want), hex.EncodeToString(enc)); diff != "" {
				t.Errorf("encoding (-want +got):\n%s", diff)
			}
			got, err := Decode(enc)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.rows, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("decoded (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDecodeCorrupt(t *testing.T) {
	good := AppendEncoded(nil, []Row{baseRow, with(func(r *Row) { r.PutCall = "PUT" })}, Tally{})
	body := good[len(magic)+1+2 : len(good)-4] // after the version and the zero Tally
	flip := func(i int) []byte {
		b := append([]byte(nil), good...)
		b[i] ^= 0x10
		return b
	}
	for _, tc := range []struct {
		name    string
		in      []byte
		wantErr string
	}{
		{name: "nil", in: nil, wantErr: "infotable: not an encoded table"},
		{name: "magic only", in: []byte(magic), wantErr: "infotable: not an encoded table"},
		{name: "wrong magic", in: append([]byte("XXXX"), good[4:]...), wantErr: "infotable: not an encoded table"},
		{name: "XML", in: []byte(table(row())), wantErr: "infotable: not an encoded table"},
		{name: "future version", in: append([]byte(magic+"\x03"), good[5:]...), wantErr: "infotable: unsupported encoding version 3"},
		{name: "version 1", in: append([]byte(magic+"\x01"), good[5:]...), wantErr: "infotable: unsupported encoding version 1"},
		{name: "no tally", in: func() []byte {
			b := []byte(magic + "\x02")
			return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
		}(), wantErr: "infotable: corrupt encoding"},
		{name: "flipped string byte", in: flip(10), wantErr: "infotable: corrupt encoding (checksum mismatch)"},
		{name: "flipped checksum", in: flip(len(good) - 1), wantErr: "infotable: corrupt encoding (checksum mismatch)"},
		{name: "truncated", in: good[:len(good)-1], wantErr: "infotable: corrupt encoding (checksum mismatch)"},
		{name: "empty body", in: withCRC(nil), wantErr: "infotable: corrupt encoding"},
		{name: "string region too long", in: withCRC([]byte{1, 100, 'a'}), wantErr: "infotable: corrupt encoding"},
		{name: "row count too large", in: withCRC(append([]byte{0x80, 0x80, 0x80, 0x80, 0x10}, body[1:]...)), wantErr: "infotable: corrupt encoding (4294967296 rows in"},
		{name: "row count one too many", in: withCRC(append([]byte{3}, body[1:]...)), wantErr: "infotable: corrupt encoding (3 rows in 24 bytes)"},
		{name: "row count one too few", in: withCRC(append([]byte{1}, body[1:]...)), wantErr: "infotable: corrupt encoding"},
		{name: "trailing byte", in: withCRC(append(append([]byte(nil), body...), 0)), wantErr: "infotable: corrupt encoding"},
		{name: "bad flags bit 7", in: withCRC([]byte{1, 0, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}), wantErr: "infotable: corrupt encoding (row 1 flags 0x80)"},
		{name: "bad discretion code", in: withCRC([]byte{1, 0, 0x50, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}), wantErr: "infotable: corrupt encoding (row 1 flags 0x50)"},
		{name: "string length past region", in: withCRC([]byte{1, 1, 'a', 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}), wantErr: "infotable: corrupt encoding (row 1)"},
		{name: "string region not used up", in: withCRC([]byte{1, 2, 'a', 'b', 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0}), wantErr: "infotable: corrupt encoding"},
		{name: "varint overflow", in: withCRC([]byte{1, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0}), wantErr: "infotable: corrupt encoding (row 1)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Decode(tc.in)
			if err == nil || !strings.HasPrefix(err.Error(), tc.wantErr) {
				t.Fatalf("Decode error = %v, want one starting %q", err, tc.wantErr)
			}
			if got != nil {
				t.Errorf("Decode returned %d rows with an error", len(got))
			}
		})
	}
	// Every proper prefix of a real encoding is an error.
	enc := realEncodings(t)[0]
	for n := 0; n < len(enc); n++ {
		if _, err := Decode(enc[:n]); err == nil {
			t.Fatalf("Decode of %d-byte prefix of a %d-byte encoding succeeded", n, len(enc))
		}
	}
}

func TestDecodeAllocs(t *testing.T) {
	enc := realEncodings(t)[0]
	allocs := testing.AllocsPerRun(20, func() {
		if _, err := Decode(enc); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 3 {
		t.Errorf("Decode allocates %v times, want 3 (rows, strings, and the row DecodeEach fills)", allocs)
	}
	// DecodeEach needs no []Row: the strings and its one row.
	allocs = testing.AllocsPerRun(20, func() {
		if err := DecodeEach(enc, func(*Row) {}); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 2 {
		t.Errorf("DecodeEach allocates %v times, want 2", allocs)
	}
}

// rowGen generates arbitrary rows, favouring the values Parse produces.
var rowGen = rapid.Custom(func(t *rapid.T) Row {
	enum := func(label string, values ...string) string {
		return rapid.OneOf(rapid.SampledFrom(values), rapid.String()).Draw(t, label)
	}
	num := rapid.OneOf(rapid.Int64Range(0, 1<<40), rapid.Int64())
	return Row{
		NameOfIssuer:         rapid.String().Draw(t, "name"),
		TitleOfClass:         rapid.String().Draw(t, "title"),
		CUSIP:                rapid.StringMatching(`[0-9A-Za-z]{0,9}`).Draw(t, "cusip"),
		FIGI:                 rapid.StringMatching(`([0-9A-Z]{12})?`).Draw(t, "figi"),
		Value:                num.Draw(t, "value"),
		Shares:               num.Draw(t, "shares"),
		ShPrn:                enum("shprn", "SH", "PRN", ""),
		PutCall:              enum("putcall", "", "PUT", "CALL"),
		InvestmentDiscretion: enum("discretion", "SOLE", "DFND", "OTR", ""),
		OtherManager:         rapid.String().Draw(t, "othermanager"),
		VotingSole:           num.Draw(t, "sole"),
		VotingShared:         num.Draw(t, "shared"),
		VotingNone:           num.Draw(t, "none"),
	}
})

func TestEncodeRoundTripProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rows := rapid.SliceOf(rowGen).Draw(t, "rows")
		got, err := Decode(AppendEncoded(nil, rows, Tally{}))
		if err != nil {
			t.Fatalf("Decode: %v", err)
		}
		if diff := cmp.Diff(rows, got, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("round trip (-want +got):\n%s", diff)
		}
	})
}

func FuzzDecode(f *testing.F) {
	// Small real encodings only: the fuzzer minimises large inputs slowly.
	for _, enc := range realEncodings(f) {
		if len(enc) <= 2048 {
			f.Add(enc)
		}
	}
	f.Add(AppendEncoded(nil, nil, Tally{}))
	f.Add(AppendEncoded(nil, []Row{{ShPrn: "x", PutCall: "y", InvestmentDiscretion: "z"}}, Tally{}))
	f.Fuzz(func(t *testing.T, b []byte) {
		check := func(b []byte) {
			rows, err := Decode(b)
			if err != nil {
				return
			}
			again, err := Decode(AppendEncoded(nil, rows, Tally{}))
			if err != nil {
				t.Fatalf("Decode of re-encoding: %v", err)
			}
			if diff := cmp.Diff(rows, again); diff != "" {
				t.Fatalf("re-encoding round trip (-want +got):\n%s", diff)
			}
		}
		check(b)
		// Also with a valid checksum, so mutations reach the structural checks.
		if len(b) >= len(magic)+1+4 {
			check(withCRC(b[len(magic)+1 : len(b)-4]))
		}
	})
}

// largestReal returns the largest real information table.
func largestReal(b *testing.B) []byte {
	data, err := os.ReadFile(documents + "bard-2021q3-ns1-infotable.xml")
	if err != nil {
		b.Fatal(err)
	}
	return data
}

func BenchmarkParse(b *testing.B) {
	data := largestReal(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(data, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecode(b *testing.B) {
	rows, err := Parse(largestReal(b), nil)
	if err != nil {
		b.Fatal(err)
	}
	enc := AppendEncoded(nil, rows, Tally{})
	b.SetBytes(int64(len(enc)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(enc); err != nil {
			b.Fatal(err)
		}
	}
}

// TestAppendEncodedReservesExactly: the encoding of a large table is written
// into a buffer reserved at its exact size. A large allocation is rounded up
// to whole pages at most; a buffer grown by append would carry a quarter or
// more of its length as spare capacity.
func TestAppendEncodedReservesExactly(t *testing.T) {
	rows := make([]Row, 10_000)
	for i := range rows {
		rows[i] = Row{
			NameOfIssuer: fmt.Sprintf("ISSUER %d", i), TitleOfClass: "COM", CUSIP: fmt.Sprintf("%09d", i),
			Value: int64(i) * 1_000_003, Shares: int64(i) * 7, ShPrn: "SH", InvestmentDiscretion: "SOLE", VotingSole: int64(i),
		}
	}
	b := AppendEncoded(nil, rows, Tally{})
	if slack := cap(b) - len(b); slack > 16<<10 {
		t.Errorf("encoding of %d bytes in a buffer of %d", len(b), cap(b))
	}
	got, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(rows, got); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}
