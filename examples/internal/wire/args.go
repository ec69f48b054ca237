package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/edgar13f/edgar13f"
)

// Args are the arguments of one tool call, decoded strictly: every problem
// is an invalid_argument decline, never a protocol error.
type Args struct {
	raw map[string]json.RawMessage
}

func invalid(format string, a ...any) error {
	return edgar13f.Decline(edgar13f.InvalidArgument, format, a...)
}

// ParseArgs decodes a tool call's arguments, which must be one JSON object
// whose member names are among allowed, each given once. Absent or null
// arguments count as an empty object.
func ParseArgs(data json.RawMessage, allowed ...string) (*Args, error) {
	a := &Args{raw: map[string]json.RawMessage{}}
	data = bytes.TrimSpace(data)
	if len(data) == 0 || string(data) == "null" {
		return a, nil
	}
	if data[0] != '{' || !json.Valid(data) {
		return nil, invalid("arguments must be one JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil { // '{'
		return nil, invalid("arguments must be one JSON object")
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, invalid("arguments must be one JSON object")
		}
		name, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, invalid("arguments must be one JSON object")
		}
		if !slices.Contains(allowed, name) {
			return nil, invalid("unknown argument %q; this tool takes %s", name, strings.Join(allowed, ", "))
		}
		if _, dup := a.raw[name]; dup {
			return nil, invalid("argument %q is given twice", name)
		}
		a.raw[name] = v
	}
	if _, err := dec.Token(); err != nil { // '}'
		return nil, invalid("arguments must be one JSON object")
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, invalid("arguments must be one JSON object")
	}
	return a, nil
}

// Has reports whether the argument name was given.
func (a *Args) Has(name string) bool {
	_, ok := a.raw[name]
	return ok
}

// kind names the JSON type of a raw value for messages.
func kind(v json.RawMessage) string {
	switch v[0] {
	case '"':
		return "a string"
	case '[':
		return "an array"
	case '{':
		return "an object"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// isNull reports whether v is the JSON null.
func isNull(v json.RawMessage) bool { return string(v) == "null" }

// null is the decline of the argument name given as JSON null where want
// (e.g. "a JSON string") belongs. Null never stands for an absent
// argument: an optional one is left out.
func null(name, want string, required bool) error {
	if required {
		return invalid("argument %q must be %s, not null", name, want)
	}
	return invalid("argument %q must be %s, not null; to leave it unset, omit it", name, want)
}

// String returns the string argument name. A missing required argument
// or a value that is not a JSON string is declined.
func (a *Args) String(name string, required bool) (string, error) {
	return a.str(name, "a JSON string", required)
}

// str is String with want saying what the argument must be when null.
func (a *Args) str(name, want string, required bool) (string, error) {
	v, ok := a.raw[name]
	if !ok {
		if required {
			return "", invalid("argument %q is required", name)
		}
		return "", nil
	}
	if isNull(v) {
		return "", null(name, want, required)
	}
	if v[0] != '"' {
		return "", invalid("argument %q must be a JSON string, not %s", name, kind(v))
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return "", invalid("argument %q must be a JSON string", name)
	}
	return s, nil
}

// Date returns the date argument name, a "YYYY-MM-DD" string; the zero Date
// when an optional one is absent.
func (a *Args) Date(name string, required bool) (edgar13f.Date, error) {
	s, err := a.str(name, "a date YYYY-MM-DD", required)
	if err != nil || !a.Has(name) {
		return edgar13f.Date{}, err
	}
	d, err := edgar13f.ParseDate(s)
	if err != nil {
		return edgar13f.Date{}, invalid("argument %q must be a date YYYY-MM-DD, not %q", name, s)
	}
	return d, nil
}

// Strings returns the argument name, a JSON array of strings; nil when
// it is absent, which a required one may not be.
func (a *Args) Strings(name string, required bool) ([]string, error) {
	v, ok := a.raw[name]
	if !ok {
		if required {
			return nil, invalid("argument %q is required", name)
		}
		return nil, nil
	}
	if isNull(v) {
		return nil, null(name, "a JSON array of strings", required)
	}
	var items []json.RawMessage
	if v[0] != '[' || json.Unmarshal(v, &items) != nil {
		return nil, invalid("argument %q must be a JSON array of strings, not %s", name, kind(v))
	}
	out := make([]string, len(items))
	for i, it := range items {
		if it[0] != '"' || json.Unmarshal(it, &out[i]) != nil {
			return nil, invalid("argument %q must be a JSON array of strings; item %d is %s", name, i, kind(it))
		}
	}
	return out, nil
}

// Int returns the optional argument name, a JSON integer written without
// fraction or exponent, from lo to hi: the library's limits, checked here
// so that a message names the argument, not the Go option it becomes.
func (a *Args) Int(name string, lo, hi int) (int, error) {
	v, ok := a.raw[name]
	if !ok {
		return 0, nil
	}
	s := string(v)
	if isNull(v) {
		if lo == math.MinInt && hi == math.MaxInt {
			return 0, null(name, "a JSON integer", false)
		}
		return 0, null(name, fmt.Sprintf("an integer from %d to %d", lo, hi), false)
	}
	digits := strings.TrimPrefix(s, "-")
	if digits == "" || strings.TrimLeft(digits, "0123456789") != "" {
		return 0, invalid("argument %q must be a JSON integer such as 10, not %s %s", name, kind(v), s)
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, invalid("argument %q must be %d to %d, not %s", name, lo, hi, s)
	}
	if n < lo || n > hi {
		return 0, invalid("argument %q must be %d to %d, not %d", name, lo, hi, n)
	}
	return n, nil
}

// IntOr returns the optional integer argument name, which must lie in
// [lo, hi], or def when it is absent.
func (a *Args) IntOr(name string, lo, hi, def int) (int, error) {
	n, err := a.Int(name, lo, hi)
	if err != nil || !a.Has(name) {
		return def, err
	}
	return n, nil
}
