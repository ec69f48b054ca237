package edgar13f_test

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f"
)

// reasonsSentence is doc.go's sentence that counts and lists the decline
// reasons: "Its [Reason] is one of nine stable strings, listed in
// precedence order (...): [InvalidArgument], ..., [UnknownChunk];".
var reasonsSentence = regexp.MustCompile(`Its \[Reason\] is one of (\w+) stable strings, listed in precedence order \([^)]*\): ((?:\[\w+\],? )*\[\w+\]);`)

// numberWords spells the counts doc.go may state.
var numberWords = []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen"}

// checkReasonsDoc returns an error unless the package documentation doc
// states the count of reasons, spelled out, and lists every reason in
// order.
func checkReasonsDoc(doc string, reasons []edgar13f.Reason) error {
	text := strings.Join(strings.Fields(strings.ReplaceAll(doc, "\n//", "\n")), " ")
	m := reasonsSentence.FindStringSubmatch(text)
	if m == nil {
		return fmt.Errorf("no sentence %q", reasonsSentence)
	}
	if len(reasons) >= len(numberWords) || m[1] != numberWords[len(reasons)] {
		return fmt.Errorf("the documentation says %q reasons; Reasons() has %d", m[1], len(reasons))
	}
	var names []string
	for _, r := range reasons {
		names = append(names, "["+reasonName(r)+"]")
	}
	if want := strings.Join(names, ", "); m[2] != want {
		return fmt.Errorf("the documentation lists %s; Reasons() is %s", m[2], want)
	}
	return nil
}

// reasonName returns the Go name of a reason's constant: not_yet_filed is
// NotYetFiled, unknown_cik is UnknownCIK.
func reasonName(r edgar13f.Reason) string {
	var b strings.Builder
	for _, w := range strings.Split(string(r), "_") {
		if w == "cik" {
			b.WriteString("CIK")
			continue
		}
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	return b.String()
}

// TestReasonsDocumented: doc.go counts the decline reasons as Reasons()
// does, spelled out, and lists them in precedence order; a planted wrong
// count or a missing reason is caught.
func TestReasonsDocumented(t *testing.T) {
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(src)
	if err := checkReasonsDoc(doc, edgar13f.Reasons()); err != nil {
		t.Error(err)
	}
	n := numberWords[len(edgar13f.Reasons())]
	wrong := strings.Replace(doc, "one of "+n+" stable", "one of "+numberWords[len(edgar13f.Reasons())-1]+" stable", 1)
	if wrong == doc || checkReasonsDoc(wrong, edgar13f.Reasons()) == nil {
		t.Error("a wrong count of reasons in doc.go is not caught")
	}
	missing := strings.Replace(doc, ", [NoticeOnly]", "", 1)
	if missing == doc || checkReasonsDoc(missing, edgar13f.Reasons()) == nil {
		t.Error("a reason missing from doc.go's list is not caught")
	}
}
