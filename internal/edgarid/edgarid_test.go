package edgarid

import "testing"

func TestParseCIK(t *testing.T) {
	for in, want := range map[string]uint64{
		"1067983": 1067983, "0001067983": 1067983, "0": 0, "0000000000": 0, "9999999999": 9999999999,
	} {
		if got, ok := ParseCIK(in); !ok || got != want {
			t.Errorf("ParseCIK(%q) = %d, %t; want %d", in, got, ok, want)
		}
		if got, ok := ParseCIK([]byte(in)); !ok || got != want {
			t.Errorf("ParseCIK([]byte(%q)) = %d, %t; want %d", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "00000000001", "12a", " 1", "1 ", "-1", "+1", "１"} {
		if got, ok := ParseCIK(in); ok {
			t.Errorf("ParseCIK(%q) = %d, want no CIK", in, got)
		}
	}
}

func TestCIK10(t *testing.T) {
	for in, want := range map[string]string{
		"1067983": "0001067983", "0001067983": "0001067983", "0": "0000000000", "9999999999": "9999999999",
	} {
		if got, ok := CIK10(in); !ok || got != want {
			t.Errorf("CIK10(%q) = %q, %t; want %q", in, got, ok, want)
		}
		if got, ok := CIK10([]byte(in)); !ok || got != want {
			t.Errorf("CIK10([]byte(%q)) = %q, %t; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "00000000001", "12a", " 1", "-1"} {
		if got, ok := CIK10(in); ok {
			t.Errorf("CIK10(%q) = %q, want no CIK", in, got)
		}
	}
}

func TestIs13F(t *testing.T) {
	for form, want := range map[string]bool{
		"13F-HR": true, "13F-HR/A": true, "13F-NT": true, "13F-NT/A": true,
		"13F-hr": false, "13F-HR ": false, "13F": false, "13F-CTR": false, "10-K": false, "": false,
	} {
		if Is13F(form) != want || Is13F([]byte(form)) != want {
			t.Errorf("Is13F(%q) = %t, want %t", form, !want, want)
		}
	}
}

func TestIsAccession(t *testing.T) {
	for s, want := range map[string]bool{
		"0000950123-23-011029": true, "0000950123-23-01102": false, "0000950123-23-0110299": false,
		"000095012323011029xx": false, "0000950123_23-011029": false, "000095012a-23-011029": false,
	} {
		if IsAccession(s) != want || IsAccession([]byte(s)) != want {
			t.Errorf("IsAccession(%q) = %t, want %t", s, !want, want)
		}
	}
}

func TestIsCUSIP(t *testing.T) {
	for s, want := range map[string]bool{
		"037833100": true, "g0403h108": true, "88160R101": true, "03783310": false, "0378331000": false,
		"037833 00": false, "037833-00": false, "03783310é": false, "": false,
	} {
		if IsCUSIP(s) != want {
			t.Errorf("IsCUSIP(%q) = %t, want %t", s, !want, want)
		}
	}
}

func TestIndexURL(t *testing.T) {
	const want = "https://www.sec.gov/Archives/edgar/data/1067983/000095012323011029/0000950123-23-011029-index.htm"
	if got := IndexURL("1067983", "0000950123-23-011029"); got != want {
		t.Errorf("IndexURL = %s, want %s", got, want)
	}
}
