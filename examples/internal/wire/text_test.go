package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/edgar13f/edgar13f/examples/internal/testkit"
)

// fataler is what the helpers need of *testing.T and *rapid.T.
type fataler interface {
	Fatalf(format string, args ...any)
}

// marshalText is what the MCP SDK writes for a text block: the text
// without its final newline, through encoding/json's Marshal.
func marshalText(t fataler, text []byte) string {
	b, err := json.Marshal(string(bytes.TrimSuffix(text, []byte("\n"))))
	if err != nil {
		t.Fatalf("%v", err)
	}
	return string(b)
}

// textWrite writes text to a TextWriter in the given chunk sizes (the rest
// in one last write) and returns the quoted output.
func textWrite(t fataler, text []byte, chunks []int) string {
	var out bytes.Buffer
	out.WriteByte('"')
	tw := NewTextWriter(&out)
	for _, n := range chunks {
		n = min(n, len(text))
		if k, err := tw.Write(text[:n]); k != n || err != nil {
			t.Fatalf("Write = %d, %v; want %d, nil", k, err, n)
		}
		text = text[n:]
	}
	if _, err := tw.Write(text); err != nil {
		t.Fatalf("Write: %v", err)
	}
	if err := tw.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	out.WriteByte('"')
	return out.String()
}

func TestTextWriter(t *testing.T) {
	var ascii []byte
	for c := range 128 {
		ascii = append(ascii, byte(c))
	}
	tests := []struct{ name, text string }{
		{"empty", ""},
		{"newline only", "\n"},
		{"answer", `{"status":"ok","name_of_issuer":"JOHNSON & JOHNSON <X>","s":"a\"b\\c"}` + "\n"},
		{"inner newlines", "a\n\nb\n\n"},
		{"every ASCII byte", string(ascii)},
		{"separators", "L\u2028S\u2029"},
		{"multibyte", "Société Générale 日本 😀"},
		{"invalid", "caf\xe9 \xff\xfe \xed\xa0\x80"},
		{"truncated at the end", "ab\xf0\x9f\x98"},
		{"truncated then ASCII", "ab\xf0\x9f\x98c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := marshalText(t, []byte(tt.text))
			// Every split into two writes, and byte by byte.
			for i := 0; i <= len(tt.text); i++ {
				if diff := cmp.Diff(want, textWrite(t, []byte(tt.text), []int{i})); diff != "" {
					t.Fatalf("split at %d (-want +got):\n%s", i, diff)
				}
			}
			ones := make([]int, len(tt.text))
			for i := range ones {
				ones[i] = 1
			}
			if diff := cmp.Diff(want, textWrite(t, []byte(tt.text), ones)); diff != "" {
				t.Fatalf("byte by byte (-want +got):\n%s", diff)
			}
		})
	}
}

// TestTextWriterMatchesMarshal: any bytes, written in any pieces, come out
// as encoding/json writes them.
func TestTextWriterMatchesMarshal(t *testing.T) {
	alphabet := []byte("a\"\\<>&\n\t\x00\x7f\xc3\xa9\xe2\x80\xa8\xf0\x9f\x98\x80\xff")
	rapid.Check(t, func(rt *rapid.T) {
		text := rapid.SliceOf(rapid.SampledFrom(alphabet)).Draw(rt, "text")
		chunks := rapid.SliceOf(rapid.IntRange(0, 8)).Draw(rt, "chunks")
		if got, want := textWrite(rt, text, chunks), marshalText(rt, text); got != want {
			rt.Fatalf("got %s, want %s", got, want)
		}
	})
}

func TestTextWriterLarge(t *testing.T) {
	var answer bytes.Buffer
	if err := WriteHoldings(&answer, testkit.Snapshot(2000), false); err != nil {
		t.Fatal(err)
	}
	text := bytes.ReplaceAll(answer.Bytes(), []byte("ISSUER"), []byte("ÉMETTEUR & <CO>"))
	got := textWrite(t, text, nil)
	if want := marshalText(t, text); got != want {
		t.Fatalf("%d bytes differ from encoding/json's %d", len(got), len(want))
	}
	if strings.Count(got, "\\u0026") != 2000 {
		t.Errorf("HTML characters not escaped")
	}
}

// TestTextWriterError: the first error of the underlying writer is kept.
func TestTextWriterError(t *testing.T) {
	tw := NewTextWriter(failWriter{})
	big := bytes.Repeat([]byte("x"), flushAt+1)
	if _, err := tw.Write(big); err != errFail {
		t.Fatalf("Write: %v, want %v", err, errFail)
	}
	if _, err := tw.Write([]byte("y")); err != errFail {
		t.Errorf("second Write: %v, want %v", err, errFail)
	}
	if err := tw.Close(); err != errFail {
		t.Errorf("Close: %v, want %v", err, errFail)
	}
}

var errFail = errors.New("write failed")

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errFail }

// TestWriteInText: an answer written to a TextWriter (in one pass, as the
// inside of a JSON string) is byte for byte the answer written as JSON and
// then escaped, for every kind of answer and for strings that need every
// kind of escaping.
func TestWriteInText(t *testing.T) {
	tricky := testkit.TrickySnapshot()
	cases := append(writeCases(), writeCase{name: "tricky", write: func(w io.Writer) error { return WriteHoldings(w, tricky, true) }})
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			var plain bytes.Buffer
			if err := tt.write(&plain); err != nil {
				t.Fatal(err)
			}
			var direct, twice bytes.Buffer
			tw := NewTextWriter(&direct)
			if err := tt.write(tw); err != nil {
				t.Fatal(err)
			}
			if err := tw.Close(); err != nil {
				t.Fatal(err)
			}
			// A writer that is not a *TextWriter hides it: the answer is
			// written as JSON, then escaped.
			tw = NewTextWriter(&twice)
			if err := tt.write(struct{ io.Writer }{tw}); err != nil {
				t.Fatal(err)
			}
			if err := tw.Close(); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(twice.String(), direct.String()); diff != "" {
				t.Errorf("(-escaped after +in one pass):\n%s", diff)
			}
			if want := marshalText(t, plain.Bytes()); `"`+direct.String()+`"` != want {
				t.Errorf("got %s, want %s", direct.String(), want)
			}
		})
	}
}
