package sections

import (
	"errors"
	"testing"
)

func TestParseItem(t *testing.T) {
	for _, tc := range []struct {
		form, arg string
		want      string // Item.String(), or "" for an error
		notFound  bool   // the error is ErrSectionNotFound rather than ErrInvalidArgument
	}{
		{"10-K", "1a", "1A", false},
		{"10-K", "1A", "1A", false},
		{"10-K", "Item 1A", "1A", false},
		{"10-K", "ITEM 1A.", "1A", false},
		{"10-K", "item\u00a07a", "7A", false},
		{"10-K", " 16 ", "16", false},
		{"10-K", "part ii item 7", "7", false},
		{"10-K", "Part II, Item 7A", "7A", false},
		{"10-K/A", "9c", "9C", false},
		{"10-KT", "15", "15", false},
		{"10-k", "1", "1", false},
		{"10-K", "part i item 7", "", false}, // Item 7 is in Part II
		{"10-K", "17", "", false},
		{"10-K", "0", "", false},
		{"10-K", "01", "", false},
		{"10-K", "1D", "", false},
		{"10-K", "7AA", "", false},
		{"10-K", "", "", false},
		{"10-K", "Item", "", false},
		{"10-K", "risk factors", "", false},
		{"10-K", "II-1A", "", false}, // Item 1A is in Part I of a 10-K
		{"10-K", "2.02", "", false},
		{"10-Q", "II-1A", "II-1A", false},
		{"10-Q", "ii-1a", "II-1A", false},
		{"10-Q", "part ii item 1a", "II-1A", false},
		{"10-Q", "Part II, Item 1A.", "II-1A", false},
		{"10-Q", "I-2", "I-2", false},
		{"10-Q", "part i item 2", "I-2", false},
		{"10-Q", "2-1A", "II-1A", false},
		{"10-Q", "1-4", "I-4", false},
		{"10-Q", "1A", "II-1A", false}, // only Part II has 1A
		{"10-Q", "6", "II-6", false},
		{"10-Q/A", "II-6", "II-6", false},
		{"10-Q", "2", "", false}, // Part I and Part II both have Item 2
		{"10-Q", "I-5", "", false},
		{"10-Q", "I-1A", "", false},
		{"10-Q", "II-7", "", false},
		{"10-Q", "III-1", "", false},
		{"10-Q", "7", "", false},
		{"8-K", "2", "", true},
		{"13F-HR", "1A", "", true},
		{"8-K", "nonsense", "", false}, // a bad argument is reported before the form
	} {
		it, err := ParseItem(tc.form, tc.arg)
		switch {
		case tc.want != "":
			if err != nil || it.String() != tc.want {
				t.Errorf("ParseItem(%q, %q) = %v, %v; want %s", tc.form, tc.arg, it, err, tc.want)
			}
		case tc.notFound:
			if !errors.Is(err, ErrSectionNotFound) || errors.Is(err, ErrInvalidArgument) {
				t.Errorf("ParseItem(%q, %q) = %v, %v; want ErrSectionNotFound", tc.form, tc.arg, it, err)
			}
		default:
			if !errors.Is(err, ErrInvalidArgument) || errors.Is(err, ErrSectionNotFound) {
				t.Errorf("ParseItem(%q, %q) = %v, %v; want ErrInvalidArgument", tc.form, tc.arg, it, err)
			}
		}
	}
}

func TestParseItemMessages(t *testing.T) {
	for _, tc := range []struct{ form, arg, want string }{
		{"10-Q", "2", `sections: invalid argument "2": a 10-Q has Item 2 in Part I and Part II: write I-2 or II-2`},
		{"10-K", "17", `sections: invalid argument "17": no such item in a 10-K; items are 1, 1A, 1B, 1C, 2, 3, 4, 5, 6, 7, 7A, 8, 9, 9A, 9B, 9C, 10, 11, 12, 13, 14, 15, 16`},
		{"10-Q", "I-5", `sections: invalid argument "I-5": no such item in a 10-Q; items are I-1, I-2, I-3, I-4, II-1, II-1A, II-2, II-3, II-4, II-5, II-6`},
		{"8-K", "2", `sections: form "8-K" has no 10-K or 10-Q items`},
	} {
		if _, err := ParseItem(tc.form, tc.arg); err == nil || err.Error() != tc.want {
			t.Errorf("ParseItem(%q, %q) error = %v, want %s", tc.form, tc.arg, err, tc.want)
		}
	}
}
