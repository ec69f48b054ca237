package companyfacts

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/crc32"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/edgar13f/edgar13f/internal/civil"
)

// TestDecodeMatchesReference decodes every real document with Decode and
// with the encoding/json reference and compares what they keep.
func TestDecodeMatchesReference(t *testing.T) {
	for _, name := range realFiles {
		t.Run(name, func(t *testing.T) {
			data := readReal(t, name)
			want, err := refSummary(data)
			if err != nil {
				t.Fatal(err)
			}
			got := summarize(t, decodeReal(t, name))
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Decode(%s) differs from encoding/json (-want +got):\n%s", name, diff)
			}
			if len(got.Facts) == 0 {
				t.Error("no facts kept")
			}
		})
	}
}

// TestDecodeKeepsOnlyAnnualFacts counts what Apple's document keeps: every
// kept fact is from the 10-K family and annual, and the 8-K and 10-Q facts
// (14,973 of them) are gone.
func TestDecodeKeepsOnlyAnnualFacts(t *testing.T) {
	f := decodeReal(t, "CIK0000320193")
	n := 0
	for _, line := range summarize(t, f).Facts {
		form := strings.Split(line, "|")[3]
		if !AnnualForm(form) {
			t.Fatalf("kept a %s fact: %s", form, line)
		}
		n++
	}
	// Apple has 8,286 10-K/10-K/A facts; quarterly durations inside them are dropped.
	if n == 0 || n >= 8286 {
		t.Errorf("kept %d facts; want some, fewer than the 8,286 10-K-family facts", n)
	}
	if len(f.filings) != 17 {
		t.Errorf("%d annual filings; want 17 (16 10-Ks and the 10-K/A of 2010-01-25)", len(f.filings))
	}
}

func TestDecodeShapes(t *testing.T) {
	doc := `{ "entityName" : "A \u0026 B\ud83d\ude00", "extra":[1,{"x":null},true,-2.5e3], "cik" : "0000000042",
	  "facts": {"us-gaap": {"Revenues": {"label": null, "description": "say \"hi\"",
	    "units": {"USD": [
	      {"start":"2020-01-01","end":"2020-12-31","val":1.5E2,"accn":"a1","fy":2020,"fp":"FY","form":"10-K","filed":"2021-02-01","frame":"CY2020"},
	      {"start":"2020-10-01","end":"2020-12-31","val":7,"accn":"a1","fy":2020,"fp":"Q4","form":"10-K","filed":"2021-02-01"},
	      {"start":"2020-01-01","end":"2020-12-31","val":9,"accn":"q1","fy":null,"fp":null,"form":"10-Q","filed":"2020-11-01"}
	    ]}}}}}`
	f, err := Decode([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if f.CIK != "0000000042" || f.EntityName != "A & B😀" {
		t.Errorf("CIK, EntityName = %q, %q", f.CIK, f.EntityName)
	}
	s := summarize(t, f)
	want := summary{CIK: "0000000042", Name: "A & B😀",
		Tags:  []string{"us-gaap:Revenues first=2020-11-01"},
		Units: []string{"us-gaap:Revenues|USD first=2020-11-01"},
		Facts: []string{"us-gaap:Revenues|USD|a1|10-K|2021-02-01|18627|18262|18627|1.5E2"},
	}
	if diff := cmp.Diff(want, s); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func TestDecodeErrors(t *testing.T) {
	fact := func(s string) string {
		return `{"cik":1,"facts":{"us-gaap":{"T":{"units":{"USD":[` + s + `]}}}}}`
	}
	for _, in := range []string{
		``, `[]`, `{}`, `{"cik":1`, `{"cik":1}x`, `{"cik":1,}`, `{"cik":"abc"}`, `{"cik":12345678901}`,
		`{"cik":1,"entityName":"a` + "\x01" + `"}`, `{"cik":1,"x":"\q"}`, `{"cik":1,"x":01}`, `{"cik":1,"x":tru}`,
		fact(`{"end":"2020-12-31","val":1,"accn":"a","form":"10-K"}`),                      // no filed
		fact(`{"end":"2020-12-31","val":1,"accn":"a","filed":"2021-01-01"}`),               // no form
		fact(`{"end":"2020-12-31","val":1,"accn":"a","form":"10-K","filed":"2021-02-30"}`), // no such day
		fact(`{"end":"2020-12-31","val":"1","accn":"a","form":"10-K","filed":"2021-01-01"}`),
		fact(`{"end":"2020-12-31","accn":"a","form":"10-K","filed":"2021-01-01"}`),
		fact(`{"end":"12/31/2020","val":1,"accn":"a","form":"10-K","filed":"2021-01-01"}`),
		strings.Repeat("[", 2000),
	} {
		if _, err := Decode([]byte(in)); err == nil || !strings.HasPrefix(err.Error(), "companyfacts: ") {
			t.Errorf("Decode(%.60q) error = %v; want a companyfacts: error", in, err)
		}
	}
	// Facts of other forms need only filed and form.
	if _, err := Decode([]byte(fact(`{"val":"x","form":"8-K","filed":"2021-01-01"}`))); err != nil {
		t.Errorf("8-K fact with odd val: %v", err)
	}
}

// TestLoadRoundTripAndDamage checks that Load reads back what Bytes wrote,
// and that every truncation and a flipped byte anywhere are errors, never
// panics or silent misreadings.
func TestLoadRoundTripAndDamage(t *testing.T) {
	f := decodeReal(t, "CIK0001997711")
	g, err := Load(bytes.Clone(f.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(summarize(t, f), summarize(t, g)); diff != "" {
		t.Fatalf("Load(Bytes()) differs (-want +got):\n%s", diff)
	}
	b := f.Bytes()
	for n := range len(b) {
		if _, err := Load(b[:n]); err == nil {
			t.Fatalf("Load of %d of %d bytes succeeded", n, len(b))
		}
	}
	for i := range b {
		d := bytes.Clone(b)
		d[i] ^= 0x20
		if _, err := Load(d); err == nil {
			t.Fatalf("Load with byte %d flipped succeeded", i)
		}
	}
	d := bytes.Clone(b)
	d[len(magic)] = 9
	if _, err := Load(d); err == nil || errors.Is(err, errCorrupt) {
		t.Errorf("other version: %v; want a version error", err)
	}
}

// FuzzDecode checks Decode against the encoding/json reference: both accept
// or both reject, and when both accept they keep the same facts.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"cik":1,"entityName":"x","facts":{"us-gaap":{"T":{"units":{"USD":[{"start":"2020-01-01","end":"2020-12-31","val":1,"accn":"a","form":"10-K","filed":"2021-01-01"}]}}}}}`))
	f.Add([]byte(`{"cik":"7","facts":{"dei":{"S":{"label":null,"units":{"shares":[{"end":"2021-03-01","val":5,"accn":"b","form":"20-F/A","filed":"2021-03-05"},{"end":"2021-03-01","val":6,"accn":"c","form":"10-Q","filed":"2021-03-05"}]}}}}}`))
	f.Add([]byte(`{"cik":1,"facts":{"x":{"T":{"units":{"EUR/shares":[{"start":"2019-12-31","end":"2021-01-03","val":-0.5e-1,"accn":"\u0041","form":"40-F","filed":"2021-01-01"}]}}}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if refQuirks(data) {
			t.Skip("encoding/json quirk: a repeated key or a key matched ignoring case")
		}
		want, werr := refSummary(data)
		g, err := Decode(data)
		if (werr == nil) != (err == nil) {
			t.Fatalf("reference error %v, Decode error %v", werr, err)
		}
		if err != nil {
			return
		}
		if diff := cmp.Diff(want, summarize(t, g)); diff != "" {
			t.Fatalf("mismatch (-ref +Decode):\n%s", diff)
		}
	})
}

// refQuirks reports whether data has an object with a repeated key, or a
// key equal to one Decode reads except for case: encoding/json keeps the
// last of repeated keys and matches keys ignoring case, where Decode merges
// repeated tags and matches keys exactly, as EDGAR writes them.
func refQuirks(data []byte) bool {
	known := []string{"cik", "entityName", "facts", "units", "label", "description",
		"start", "end", "val", "accn", "fy", "fp", "form", "filed", "frame"}
	dec := json.NewDecoder(bytes.NewReader(data))
	var stack []map[string]bool // keys of the open objects; nil for arrays
	expectKey := func() bool { return len(stack) > 0 && stack[len(stack)-1] != nil }
	keyNext := true
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{':
				stack = append(stack, map[string]bool{})
				keyNext = true
				continue
			case '[':
				stack = append(stack, nil)
			case '}', ']':
				stack = stack[:len(stack)-1]
			}
		case string:
			if expectKey() && keyNext {
				keys := stack[len(stack)-1]
				if keys[v] {
					return true
				}
				keys[v] = true
				for _, k := range known {
					if k != v && strings.EqualFold(k, v) {
						return true
					}
				}
				keyNext = false
				continue
			}
		}
		keyNext = expectKey()
	}
}

// TestEmptyUnitIsNeverVisible checks that a tag whose units hold no facts
// is unknown on every date: nothing filed says it exists.
func TestEmptyUnitIsNeverVisible(t *testing.T) {
	f, err := Decode([]byte(`{"cik":1,"facts":{"us-gaap":{"T":{"units":{"USD":[]}},"U":{"units":{}}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"us-gaap:T", "T", "us-gaap:U"} {
		if _, err := f.Annual(c, civil.DayOf(2100, 1, 1), 3); !errors.Is(err, ErrUnknownConcept) {
			t.Errorf("Annual(%s) error = %v; want ErrUnknownConcept", c, err)
		}
	}
}

// FuzzLoad feeds Load encodings with a valid checksum around any body:
// Load and every query on what it accepts must fail cleanly, never panic.
func FuzzLoad(f *testing.F) {
	for _, doc := range []string{
		`{"cik":1,"entityName":"x","facts":{"us-gaap":{"Revenues":{"units":{"USD":[{"start":"2020-01-01","end":"2020-12-31","val":1,"accn":"a","form":"10-K","filed":"2021-01-01"}]}}}}}`,
		`{"cik":2,"facts":{"dei":{"EntityCommonStockSharesOutstanding":{"units":{"shares":[{"end":"2021-03-01","val":5,"accn":"b","form":"20-F","filed":"2021-03-05"}]}}}}}`,
	} {
		g, err := Decode([]byte(doc))
		if err != nil {
			f.Fatal(err)
		}
		b := g.Bytes()
		f.Add(b[len(magic)+1 : len(b)-4])
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		data := append([]byte(magic), version)
		data = append(data, body...)
		data = binary.LittleEndian.AppendUint32(data, crc32.Checksum(data, castagnoli))
		g, err := Load(data)
		if err != nil {
			return
		}
		for _, tg := range g.tags {
			g.Annual(tg.taxonomy+":"+tg.name, civil.DayOf(2100, 1, 1), MaxYears)
		}
		for _, a := range aliases {
			g.Annual(a.Name, civil.DayOf(2100, 1, 1), MaxYears)
		}
	})
}
