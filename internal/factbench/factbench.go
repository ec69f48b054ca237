// Package factbench writes synthetic companyfacts.zip files for
// benchmarks: one CIK##########.json member per company in EDGAR's
// companyfacts format, minified, deflated. The content is invented and
// deterministic for a seed: companies of 2,000 facts each (so a file of
// 10 million facts has 5,000 companies, about the number of filers in
// EDGAR's real file with recent XBRL), 40 tags a company drawn from a
// pool of 2,000 (us-gaap:NetIncomeLoss and us-gaap:Assets always among
// them), each tag with 50 facts: quarterly and annual durations (or
// instants) from 2009 to 2024, each filed once and about one in ten again
// by a later filing (a comparative or a restatement, a different value
// one time in three).
package factbench

import (
	"archive/zip"
	"bufio"
	"compress/flate"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"

	"github.com/edgar13f/edgar13f/internal/civil"
)

const (
	factsPerCompany = 2000
	tagsPerCompany  = 40
	factsPerTag     = factsPerCompany / tagsPerCompany
	tagPool         = 2000
)

// Stats describe a written file.
type Stats struct {
	Companies int
	Facts     int64
	JSONBytes int64 // uncompressed
}

// Write writes a companyfacts.zip of about facts facts (rounded up to
// whole companies) to path.
func Write(path string, facts int64, seed uint64) (Stats, error) {
	f, err := os.Create(path)
	if err != nil {
		return Stats{}, err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	st, err := WriteTo(bw, facts, seed)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return st, err
}

// WriteTo writes the zip to w.
func WriteTo(w io.Writer, facts int64, seed uint64) (Stats, error) {
	z := zip.NewWriter(w)
	z.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(w, flate.BestSpeed)
	})
	r := rand.New(rand.NewPCG(seed, 27))
	var st Stats
	companies := int((facts + factsPerCompany - 1) / factsPerCompany)
	base := civil.DayOf(2009, 1, 1)
	var b []byte
	for c := range companies {
		cik := int64(1000000 + c*37)
		m, err := z.CreateHeader(&zip.FileHeader{Name: fmt.Sprintf("CIK%010d.json", cik), Method: zip.Deflate})
		if err != nil {
			return st, err
		}
		b = b[:0]
		b = append(b, `{"cik":`...)
		b = strconv.AppendInt(b, cik, 10)
		b = append(b, `,"entityName":"Synthetic Company `...)
		b = strconv.AppendInt(b, int64(c), 10)
		b = append(b, `","facts":{"us-gaap":{`...)
		tags := map[int]bool{0: true, 1: true}
		for len(tags) < tagsPerCompany {
			tags[r.IntN(tagPool)] = true
		}
		first := true
		for t := range tagPool {
			if !tags[t] {
				continue
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			instant := t == 1 || t%3 == 1
			b = append(b, '"')
			b = append(b, tagName(t)...)
			b = append(b, `":{"label":"A label","description":"A description of the element.","units":{"USD":[`...)
			n := 0
			for n < factsPerTag {
				q := r.IntN(64) // a quarter of 2009-2024
				end := base + civil.Day(q*91+90)
				start := end - 90
				if !instant && r.IntN(3) == 0 {
					start = end - 364
				}
				val := r.Int64N(1_000_000_000) - 100_000_000
				filed := end + civil.Day(30+r.IntN(60))
				accn := fmt.Sprintf("%010d-%02d-%06d", cik, (int(filed.Time().Year()))%100, r.IntN(1000000))
				form := "10-Q"
				if q%4 == 3 {
					form = "10-K"
				}
				copies := 1
				if r.IntN(10) == 0 {
					copies = 2
				}
				for k := 0; k < copies && n < factsPerTag; k++ {
					if n > 0 {
						b = append(b, ',')
					}
					b = append(b, '{')
					if !instant {
						b = append(b, `"start":"`...)
						b = append(b, start.String()...)
						b = append(b, `",`...)
					}
					b = append(b, `"end":"`...)
					b = append(b, end.String()...)
					b = append(b, `","val":`...)
					b = strconv.AppendInt(b, val, 10)
					b = append(b, `,"accn":"`...)
					b = append(b, accn...)
					b = append(b, `","fy":`...)
					b = strconv.AppendInt(b, int64(filed.Time().Year()), 10)
					b = append(b, `,"fp":"Q`...)
					b = strconv.AppendInt(b, int64(q%4+1), 10)
					b = append(b, `","form":"`...)
					b = append(b, form...)
					b = append(b, `","filed":"`...)
					b = append(b, filed.String()...)
					b = append(b, `"}`...)
					n++
					// The second copy: a later filing, restated one time in three.
					filed += civil.Day(90 + r.IntN(300))
					accn = fmt.Sprintf("%010d-%02d-%06d", cik, (int(filed.Time().Year()))%100, r.IntN(1000000))
					if r.IntN(3) == 0 {
						val += 1000
					}
				}
			}
			b = append(b, `]}}`...)
			st.Facts += int64(n)
		}
		b = append(b, `}}}`...)
		if _, err := m.Write(b); err != nil {
			return st, err
		}
		st.JSONBytes += int64(len(b))
		st.Companies++
	}
	return st, z.Close()
}

// tagName is the name of tag t of the pool: NetIncomeLoss and Assets for
// 0 and 1.
func tagName(t int) string {
	switch t {
	case 0:
		return "NetIncomeLoss"
	case 1:
		return "Assets"
	}
	return "SyntheticElement" + strconv.Itoa(t)
}
