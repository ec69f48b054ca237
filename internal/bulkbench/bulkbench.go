// Package bulkbench writes full-size synthetic SEC Form 13F Data Sets
// windows for benchmarks: a zip with the seven tables in the SEC's format,
// about 3.5 million INFOTABLE rows (some 400 MB of TSV) by default. The
// content is invented and deterministic for a seed: about 11,000 filers,
// mostly reporting the window's main period, a few percent amendments and
// late filings of older periods, CUSIPs drawn from a skewed universe of
// 40,000 securities, values in dollars.
package bulkbench

import (
	"archive/zip"
	"bufio"
	"compress/flate"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"

	"github.com/edgar13f/edgar13f/internal/civil"
	"github.com/edgar13f/edgar13f/internal/datasetzip"
)

// FullRows is the INFOTABLE size of a full window.
const FullRows = 3_500_000

// Window is the window the benchmark zips claim to be.
const Window = "01jun2025-31aug2025"

// Info describes a written window.
type Info struct {
	Path      string // the zip
	Filings   int
	Rows      int
	TSVBytes  int64 // uncompressed bytes of all tables
	ZipBytes  int64
	Period    civil.Day // the main period of report
	TopCUSIP  string    // the most held CUSIP
	FirstCIK  int64
	Securites int
}

// Dir returns the directory of the benchmark files: $EDGAR13F_BENCH_DIR,
// else edgar13f-bench in the system temp dir.
func Dir() string {
	if d := os.Getenv("EDGAR13F_BENCH_DIR"); d != "" {
		return d
	}
	return filepath.Join(os.TempDir(), "edgar13f-bench")
}

// Rows returns the INFOTABLE size of the benchmark window:
// $EDGAR13F_BENCH_ROWS, else FullRows.
func Rows() int {
	if n, err := strconv.Atoi(os.Getenv("EDGAR13F_BENCH_ROWS")); err == nil && n > 0 {
		return n
	}
	return FullRows
}

// StoreDir returns where the benchmarks keep a store holding the window
// of rows rows.
func StoreDir(rows int) string {
	return filepath.Join(Dir(), fmt.Sprintf("store-v%d-%d", generation, rows))
}

// generation names the generator's output in file names: it changes when
// Write writes other content, so that files of an earlier generator are
// never benchmarked as if they were current.
const generation = 2

// Ensure returns the zip of rows INFOTABLE rows under dir, writing it (once)
// when missing.
func Ensure(dir string, rows int) (Info, error) {
	path := filepath.Join(dir, fmt.Sprintf("bench-v%d-%d_%s_form13f.zip", generation, rows, Window))
	info := describe(rows)
	info.Path = path
	if st, err := os.Stat(path); err == nil {
		info.ZipBytes = st.Size()
		info.TSVBytes = -1
		return info, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return info, err
	}
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return info, err
	}
	n, err := Write(f, rows)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return info, err
	}
	if err := os.Rename(tmp, path); err != nil {
		return info, err
	}
	st, _ := os.Stat(path)
	info.ZipBytes, info.TSVBytes = st.Size(), n
	return info, nil
}

const (
	securities = 40_000
	firstCIK   = 1_000_000
)

func describe(rows int) Info {
	return Info{Rows: rows, Filings: filingsFor(rows), Period: civil.DayOf(2025, 6, 30), TopCUSIP: cusip(0),
		FirstCIK: firstCIK, Securites: securities}
}

// filingsFor returns the number of holdings reports for a row count
// (about 320 rows a filing, as in real windows).
func filingsFor(rows int) int { return max(1, rows/320) }

// cusip returns the CUSIP of security i: 8 characters and a check digit
// (not a real one).
func cusip(i int) string {
	const chars = "0123456789ABCDEFGHJKLMNPQRSTUVWXYZ"
	b := []byte("00000000")
	n := i*7919 + 104729
	for j := 5; j >= 0; j-- {
		b[j] = chars[n%len(chars)]
		n /= len(chars)
	}
	b[6], b[7] = '1', '0'
	return string(b) + strconv.Itoa(i%10)
}

var words = []string{"APPLE", "MICROSOFT", "AMAZON", "ALPHABET", "NVIDIA", "META", "BERKSHIRE", "JPMORGAN",
	"EXXON", "UNITEDHEALTH", "VISA", "MASTERCARD", "HOME DEPOT", "CHEVRON", "ABBVIE", "MERCK", "COCA COLA",
	"PEPSICO", "COSTCO", "ADOBE", "SALESFORCE", "NETFLIX", "CISCO", "ORACLE", "INTEL", "PFIZER", "WALMART"}

func issuer(i int) string {
	return words[i%len(words)] + " " + words[(i/len(words))%len(words)] + " HLDGS " + strconv.Itoa(i) + " INC"
}

// Write writes a window zip with rows INFOTABLE rows to w and returns the
// number of uncompressed bytes.
func Write(w io.Writer, rows int) (int64, error) {
	zw := zip.NewWriter(w)
	zw.RegisterCompressor(zip.Deflate, func(out io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(out, flate.BestSpeed)
	})
	rng := rand.New(rand.NewPCG(1, 2))
	nf := filingsFor(rows)
	type filing struct {
		acc           string
		cik           int64
		form          string
		filed, period civil.Day
		amendNo       int
		amendType     string
		rows          int
	}
	main := civil.DayOf(2025, 6, 30)
	fs := make([]filing, nf)
	left := rows
	for i := range fs {
		f := filing{cik: firstCIK + int64(i)*37, form: "13F-HR", period: main,
			filed: civil.DayOf(2025, 7, 1) + civil.Day(rng.IntN(62))}
		switch r := rng.IntN(100); {
		case r < 2: // a late filing of an older period
			f.period = civil.DayOf(2025, 3, 31)
		case r < 4: // a restatement
			f.form, f.amendNo, f.amendType = "13F-HR/A", 1, "RESTATEMENT"
		case r < 5: // new holdings
			f.form, f.amendNo, f.amendType = "13F-HR/A", 1, "NEW HOLDINGS"
		}
		f.acc = fmt.Sprintf("%010d-25-%06d", 900000+i%5000, i)
		// Row counts: skewed, averaging rows/nf.
		n := rows / nf
		switch k := rng.IntN(10); {
		case k < 6:
			n /= 4
		case k == 9:
			n *= 4
		}
		if n > left {
			n = left
		}
		n = max(n, 0)
		f.rows = n
		left -= n
		fs[i] = f
	}
	// Spread what the skew left over (about 15% of the rows) over every
	// filing, so that no single filing grows far beyond the largest real
	// tables.
	for left > 0 {
		for i := range fs {
			if left == 0 {
				break
			}
			fs[i].rows++
			left--
		}
	}
	var total int64
	table := func(name string, body func(bw *bufio.Writer) error) error {
		fw, err := zw.CreateHeader(&zip.FileHeader{Name: "01JUN2025-31AUG2025_form13f/" + name + ".tsv", Method: zip.Deflate})
		if err != nil {
			return err
		}
		cw := &counter{w: fw}
		bw := bufio.NewWriterSize(cw, 1<<20)
		for i, c := range datasetzip.Columns[name] {
			if i > 0 {
				bw.WriteByte('\t')
			}
			bw.WriteString(c)
		}
		bw.WriteByte('\n')
		if err := body(bw); err != nil {
			return err
		}
		err = bw.Flush()
		total += cw.n
		return err
	}
	err := table(datasetzip.Submission, func(bw *bufio.Writer) error {
		for _, f := range fs {
			fmt.Fprintf(bw, "%s\t%s\t%s\t%010d\t%s\n", f.acc, datasetzip.FormatDate(f.filed), f.form, f.cik, datasetzip.FormatDate(f.period))
		}
		return nil
	})
	if err == nil {
		err = table(datasetzip.CoverPage, func(bw *bufio.Writer) error {
			for _, f := range fs {
				isA, no := "N", ""
				if f.amendNo > 0 {
					isA, no = "Y", strconv.Itoa(f.amendNo)
				}
				fmt.Fprintf(bw, "%s\t%s\t%s\t%s\t%s\t\t\t\t\tMANAGER %d LLC\t%d MAIN STREET\t\tNEW YORK\tNY\t10001\t13F HOLDINGS REPORT\t028-%05d\t\t\tN\t\n",
					f.acc, datasetzip.FormatDate(f.period), isA, no, f.amendType, f.cik, f.cik%1000, f.cik%100000)
			}
			return nil
		})
	}
	if err == nil {
		err = table(datasetzip.SummaryPage, func(bw *bufio.Writer) error {
			for _, f := range fs {
				fmt.Fprintf(bw, "%s\t0\t%d\t0\tN\n", f.acc, f.rows)
			}
			return nil
		})
	}
	for _, t := range []string{datasetzip.OtherManager, datasetzip.OtherManager2} {
		if err == nil {
			err = table(t, func(*bufio.Writer) error { return nil })
		}
	}
	if err == nil {
		err = table(datasetzip.Signature, func(bw *bufio.Writer) error {
			for _, f := range fs {
				fmt.Fprintf(bw, "%s\tJOHN DOE\tCCO\t212-555-0100\tJohn Doe\tNEW YORK\tNY\t%s\n", f.acc, datasetzip.FormatDate(f.filed))
			}
			return nil
		})
	}
	if err == nil {
		err = table(datasetzip.InfoTable, func(bw *bufio.Writer) error {
			sk := int64(118_000_000)
			var line []byte
			for _, f := range fs {
				for r := 0; r < f.rows; r++ {
					sk++
					// Skewed popularity: low indexes are held by many.
					sec := int(float64(securities) * rng.Float64() * rng.Float64() * rng.Float64())
					shares := int64(1 + rng.IntN(500_000))
					line = append(line[:0], f.acc...)
					line = append(line, '\t')
					line = strconv.AppendInt(line, sk, 10)
					line = append(line, '\t')
					line = append(line, issuer(sec)...)
					line = append(line, "\tCOM\t"...)
					line = append(line, cusip(sec)...)
					line = append(line, '\t')
					line = append(line, '\t')
					line = strconv.AppendInt(line, shares*int64(5+sec%400), 10)
					line = append(line, '\t')
					line = strconv.AppendInt(line, shares, 10)
					line = append(line, "\tSH\t"...)
					switch rng.IntN(50) {
					case 0:
						line = append(line, "Put"...)
					case 1:
						line = append(line, "Call"...)
					}
					line = append(line, "\tSOLE\t"...)
					if rng.IntN(3) == 0 {
						line = append(line, '0')
					}
					line = append(line, '\t')
					line = strconv.AppendInt(line, shares, 10)
					line = append(line, "\t0\t0\n"...)
					if _, err := bw.Write(line); err != nil {
						return err
					}
				}
			}
			return nil
		})
	}
	if err != nil {
		return 0, err
	}
	return total, zw.Close()
}

type counter struct {
	w io.Writer
	n int64
}

func (c *counter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
