package datasetzip

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/edgar13f/edgar13f/internal/civil"
)

// months are the upper-case month abbreviations of DD-MON-YYYY dates.
var months = [12]string{"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"}

// ParseDate reads a Data Sets date, DD-MON-YYYY ("30-JUN-2025"; the month
// is matched case-insensitively). The day must exist in its month.
func ParseDate(s string) (civil.Day, error) {
	d, ok := parseDate([]byte(s))
	if !ok {
		return 0, fmt.Errorf("datasets: date %q is not DD-MON-YYYY", s)
	}
	return d, nil
}

// parseDate is ParseDate on bytes, without allocating.
func parseDate(b []byte) (civil.Day, bool) {
	if len(b) != 11 || b[2] != '-' || b[6] != '-' {
		return 0, false
	}
	day, ok1 := civil.Digits(b[0:2])
	year, ok2 := civil.Digits(b[7:11])
	if !ok1 || !ok2 {
		return 0, false
	}
	m := -1
	for i, name := range months {
		if upper(b[3]) == name[0] && upper(b[4]) == name[1] && upper(b[5]) == name[2] {
			m = i
			break
		}
	}
	if m < 0 || day < 1 || day > civil.DaysIn(year, time.Month(m+1)) {
		return 0, false
	}
	return civil.DayOf(year, time.Month(m+1), day), true
}

// FormatDate writes d as the Data Sets do: DD-MON-YYYY in upper case.
func FormatDate(d civil.Day) string {
	t := d.Time()
	return fmt.Sprintf("%02d-%s-%04d", t.Day(), months[t.Month()-1], t.Year())
}

func upper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// A Window is one Data Sets file: the 13F filings whose filing date lies in
// [From, To].
type Window struct {
	Name string    // lower case, e.g. "2023q4" or "01jun2025-31aug2025"
	From civil.Day // first filing date covered
	To   civil.Day // last filing date covered
}

// FileName returns the window's zip name, e.g. "2023q4_form13f.zip".
func (w Window) FileName() string { return w.Name + "_form13f.zip" }

// The three eras of window names.
var (
	firstQuarter   = civil.DayOf(2013, time.April, 1)     // 2013q2, the first file
	twoMonthFrom   = civil.DayOf(2024, time.January, 1)   // 01jan2024-29feb2024
	threeMonthFrom = civil.DayOf(2024, time.March, 1)     // first three-month window
	twoMonthTo     = civil.DayOf(2024, time.February, 29) // end of the two-month window
)

var (
	quarterName = regexp.MustCompile(`^(\d{4})q([1-4])$`)
	rangeName   = regexp.MustCompile(`^(\d{2}[a-z]{3}\d{4})-(\d{2}[a-z]{3}\d{4})$`)
)

// ParseWindow reads a window name or zip file name ("2013q2",
// "2023q4_form13f.zip", "01JUN2025-31AUG2025_form13f.zip"; case is ignored)
// and checks it is one of the windows the SEC publishes: calendar quarters
// of filing dates from 2013q2 to 2023q4, then 01jan2024-29feb2024, then
// three-month windows starting in March, June, September and December.
func ParseWindow(name string) (Window, error) {
	s := strings.ToLower(strings.TrimSpace(name))
	s = strings.TrimSuffix(s, ".zip")
	s = strings.TrimSuffix(s, "_form13f")
	if m := quarterName.FindStringSubmatch(s); m != nil {
		y, _ := strconv.Atoi(m[1])
		q, _ := strconv.Atoi(m[2])
		from := civil.DayOf(y, time.Month(3*q-2), 1)
		to := civil.DayOf(y, time.Month(3*q+1), 0)
		if from < firstQuarter || from >= twoMonthFrom {
			return Window{}, fmt.Errorf("datasets: no quarterly window %q (quarterly files run 2013q2-2023q4)", name)
		}
		return Window{Name: s, From: from, To: to}, nil
	}
	if m := rangeName.FindStringSubmatch(s); m != nil {
		from, err1 := parseCompactDate(m[1])
		to, err2 := parseCompactDate(m[2])
		if err1 != nil || err2 != nil {
			return Window{}, fmt.Errorf("datasets: window %q has a malformed date", name)
		}
		w, ok := windowStarting(from)
		if !ok || w.To != to {
			return Window{}, fmt.Errorf("datasets: %q is not a Data Sets window", name)
		}
		return w, nil
	}
	return Window{}, fmt.Errorf("datasets: %q is not a Data Sets window name", name)
}

// parseCompactDate reads "01jun2025".
func parseCompactDate(s string) (civil.Day, error) {
	return ParseDate(s[:2] + "-" + s[2:5] + "-" + s[5:])
}

// windowStarting returns the dated window that starts on from.
func windowStarting(from civil.Day) (Window, bool) {
	if from == twoMonthFrom {
		return rangeWindow(from, twoMonthTo), true
	}
	t := from.Time()
	if from < threeMonthFrom || t.Day() != 1 || t.Month()%3 != 0 {
		return Window{}, false
	}
	to := civil.DayOf(t.Year(), t.Month()+3, 0)
	return rangeWindow(from, to), true
}

func rangeWindow(from, to civil.Day) Window {
	return Window{Name: compact(from) + "-" + compact(to), From: from, To: to}
}

// compact writes "01jun2025".
func compact(d civil.Day) string {
	t := d.Time()
	return fmt.Sprintf("%02d%s%04d", t.Day(), strings.ToLower(months[t.Month()-1]), t.Year())
}

// WindowOf returns the window whose range holds the filing date d. Dates
// before 2013-04-01 have none.
func WindowOf(d civil.Day) (Window, bool) {
	t := d.Time()
	switch {
	case d < firstQuarter:
		return Window{}, false
	case d < twoMonthFrom:
		q := (int(t.Month())-1)/3 + 1
		w, err := ParseWindow(fmt.Sprintf("%dq%d", t.Year(), q))
		return w, err == nil
	case d <= twoMonthTo:
		return rangeWindow(twoMonthFrom, twoMonthTo), true
	}
	y, m := t.Year(), t.Month()
	start := m - m%3 // March, June, September and December start a window
	if start == 0 {  // January, February: the window began in December
		y, start = y-1, time.December
	}
	w, _ := windowStarting(civil.DayOf(y, start, 1))
	return w, true
}

// Next returns the window that follows w.
func (w Window) Next() Window {
	n, _ := WindowOf(w.To + 1)
	return n
}
