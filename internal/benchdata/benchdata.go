// Package benchdata builds the inputs of edgar13f's benchmarks: large,
// realistic 13F information tables (a port of gen_infotable.py that writes
// the same bytes) and in-memory EDGAR mirrors serving one filing that holds
// such a table.
package benchdata

import (
	"bufio"
	"bytes"
	"io"
	"strconv"
	"strings"
)

// Namespace is the XML namespace of an information table.
const Namespace = "http://www.sec.gov/edgar/document/thirteenf/informationtable"

var (
	words = []string{"APPLE", "MICROSOFT", "AMAZON", "ALPHABET", "NVIDIA", "META PLATFORMS", "BERKSHIRE", "JPMORGAN CHASE",
		"EXXON MOBIL", "UNITEDHEALTH", "JOHNSON & JOHNSON", "VISA", "PROCTER & GAMBLE", "MASTERCARD", "HOME DEPOT",
		"CHEVRON", "ABBVIE", "MERCK", "COCA COLA", "PEPSICO", "COSTCO", "ADOBE", "SALESFORCE", "NETFLIX", "CISCO"}
	suffixes     = []string{" INC", " CORP", " CO", " LTD", " PLC", " HLDGS INC", " GROUP INC"}
	discretions  = []string{"SOLE", "DFND", "OTR"}
	numSecurites = 3000
)

// WriteInfoTable writes the information table that
// "gen_infotable.py ROWS OUT [--prefix PREFIX] [--seed SEED]" writes: the
// same bytes for the same arguments. prefix "" means the default namespace.
func WriteInfoTable(w io.Writer, rows int, prefix string, seed int64) error {
	rng := newPyRandom(seed)
	type security struct{ name, cusip string }
	secs := make([]security, numSecurites)
	for i := range secs {
		name := words[rng.below(len(words))] + suffixes[rng.below(len(suffixes))]
		if i > 24 {
			name += " " + strconv.Itoa(i)
		}
		var c [9]byte
		for j := 0; j < 6; j++ {
			c[j] = rng.choiceByte("0123456789")
		}
		c[6] = rng.choiceByte("ABCDEFGHJKLMNPQRSTUVWXYZ0123456789")
		c[7] = rng.choiceByte("0123456789")
		c[8] = rng.choiceByte("0123456789")
		secs[i] = security{strings.ReplaceAll(name, "&", "&amp;"), string(c[:])}
	}

	bw := bufio.NewWriterSize(w, 64<<10)
	t := ""
	if prefix != "" {
		t = prefix + ":"
	}
	bw.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
	if t != "" {
		bw.WriteString("<" + t + "informationTable xmlns:" + prefix + "=\"" + Namespace + "\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n")
	} else {
		bw.WriteString("<informationTable xmlns=\"" + Namespace + "\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n")
	}
	elem := func(indent, name, text string) {
		bw.WriteString(indent + "<" + t + name + ">" + text + "</" + t + name + ">\n")
	}
	var num []byte
	itoa := func(n int) string {
		num = strconv.AppendInt(num[:0], int64(n), 10)
		return string(num)
	}
	for range rows {
		s := secs[rng.below(len(secs))]
		pc := rng.random()
		putCall := ""
		if pc < 0.05 {
			putCall = "Put"
		} else if pc < 0.10 {
			putCall = "Call"
		}
		prn := rng.random() < 0.03
		shares := rng.randrange(1, 5_000_000)
		value := shares * rng.randrange(1, 500)
		var om []string
		for range rng.randrange(0, 3) {
			om = append(om, itoa(rng.randrange(1, 30)))
		}
		title, kind := "COM", "SH"
		if prn {
			title, kind = "NOTE 2.500% 6/1", "PRN"
		}
		bw.WriteString("  <" + t + "infoTable>\n")
		elem("    ", "nameOfIssuer", s.name)
		elem("    ", "titleOfClass", title)
		elem("    ", "cusip", s.cusip)
		elem("    ", "value", itoa(value))
		bw.WriteString("    <" + t + "shrsOrPrnAmt>\n")
		elem("      ", "sshPrnamt", itoa(shares))
		elem("      ", "sshPrnamtType", kind)
		bw.WriteString("    </" + t + "shrsOrPrnAmt>\n")
		if putCall != "" {
			elem("    ", "putCall", putCall)
		}
		elem("    ", "investmentDiscretion", discretions[rng.below(len(discretions))])
		if len(om) > 0 {
			elem("    ", "otherManager", strings.Join(om, ","))
		}
		bw.WriteString("    <" + t + "votingAuthority>\n")
		elem("      ", "Sole", itoa(shares))
		elem("      ", "Shared", "0")
		elem("      ", "None", "0")
		bw.WriteString("    </" + t + "votingAuthority>\n  </" + t + "infoTable>\n")
	}
	bw.WriteString("</" + t + "informationTable>\n")
	return bw.Flush()
}

// InfoTable returns the table of WriteInfoTable with seed 1, the script's
// default.
func InfoTable(rows int, prefix string) []byte {
	var b bytes.Buffer
	b.Grow(rows*500 + 512)
	_ = WriteInfoTable(&b, rows, prefix, 1) // a bytes.Buffer does not fail
	return b.Bytes()
}
