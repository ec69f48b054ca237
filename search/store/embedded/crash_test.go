package embedded

import (
	"bufio"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/helperproc"
	"github.com/edgar13f/edgar13f/search/store"
)

// Crash safety: a process killed (SIGKILL) at any point of a Put leaves a
// store that opens, passes its checks, and holds every filing either in a
// version that was put whole or not at all; a Put that returned is there.

const (
	crashEnvDir  = "EMBEDDED_CRASH_DIR"
	crashEnvAt   = "EMBEDDED_CRASH_AT"   // stop at this step of the Puts (0: never)
	crashEnvIter = "EMBEDDED_CRASH_ITER" // distinguishes the versions each process writes
	crashFilings = 4
)

var ctx = context.Background()

var crashMeta = store.Meta{Model: "crash-embed", Dim: 4}

func crashAccession(i int) string { return fmt.Sprintf("%010d-24-%06d", i+1, i+1) }

func crashChunkID(acc, item string, i int) string {
	sum := sha1.Sum([]byte(acc + "|" + item + "|" + strconv.Itoa(i)))
	return hex.EncodeToString(sum[:])[:16]
}

// crashVersion is version v of filing i: 1 to 5 chunks in Items 1 and 7,
// each naming the version, and their vectors.
func crashVersion(i, v int) (store.Filing, []store.Chunk, [][]float32) {
	acc := crashAccession(i)
	f := store.Filing{Accession: acc, CIK: strconv.Itoa(i + 1), Ticker: "T" + strconv.Itoa(i), Form: "10-K",
		FilingDate: edgar13f.MustParseDate("2024-03-01").AddDays(i), FiscalYear: 2023, Company: "v" + strconv.Itoa(v)}
	var chunks []store.Chunk
	var vectors [][]float32
	index := map[string]int{}
	for j := range 1 + v%5 {
		item := []string{"1", "7"}[j%2]
		chunks = append(chunks, store.Chunk{ID: crashChunkID(acc, item, index[item]), Accession: acc, Item: item, Index: index[item],
			Text: fmt.Sprintf("crash filing %d version v%d part %d of the report", i, v, j)})
		index[item]++
		vectors = append(vectors, []float32{float32(v % 7), float32(j), 1, float32(i)})
	}
	return f, chunks, vectors
}

// TestCrashHelper is the process the crash tests kill: it puts versions of
// the crash filings, printing "put <filing> <version>" after each Put
// returns, and when EMBEDDED_CRASH_AT is n, stops at the n-th step of its
// Puts, printing "step <name>", until it is killed.
func TestCrashHelper(t *testing.T) {
	dir := os.Getenv(crashEnvDir)
	if dir == "" {
		t.Skip("helper process for TestCrashSafety")
	}
	at, _ := strconv.Atoi(os.Getenv(crashEnvAt))
	iter, _ := strconv.Atoi(os.Getenv(crashEnvIter))
	// Puts merge lexicon segments of two filings, so that the kills also
	// stop a merge midway.
	lexGroup = 2
	s, err := Open(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	out := bufio.NewWriter(os.Stdout)
	steps := 0
	s.step = func(name string) {
		steps++
		if steps == at {
			fmt.Fprintln(out, "step", name)
			out.Flush()
			select {} // until killed
		}
	}
	for r := 0; ; r++ {
		for i := range crashFilings {
			v := iter*1000 + r*crashFilings + i
			f, chunks, vectors := crashVersion(i, v)
			if err := s.Put(context.Background(), f, chunks, vectors, crashMeta); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(2)
			}
			fmt.Fprintln(out, "put", i, v)
			out.Flush()
		}
	}
}

// TestCrashSafety kills the helper at each of the first steps of its Puts
// in turn (the store growing from empty, then filings replaced), and at
// arbitrary moments, and checks the store after each kill.
func TestCrashSafety(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	rng := rand.New(rand.NewPCG(1, 2))
	iter := 0
	acked := map[int]int{} // filing → the last version whose Put returned, in any process
	run := func(at, puts int) {
		iter++
		p := helperproc.Start(t, "TestCrashHelper", "", crashEnvDir+"="+dir, crashEnvAt+"="+strconv.Itoa(at), crashEnvIter+"="+strconv.Itoa(iter))
		stoppedAt := ""
		read := func(line string) {
			f := strings.Fields(line)
			switch {
			case len(f) == 3 && f[0] == "put":
				i, _ := strconv.Atoi(f[1])
				v, _ := strconv.Atoi(f[2])
				acked[i] = v
			case len(f) > 1 && f[0] == "step":
				stoppedAt = strings.Join(f[1:], " ")
			}
		}
		for n := 0; ; {
			line, err := p.Stdout.ReadString('\n')
			if err != nil {
				p.Kill()
				t.Fatalf("helper (at %d): %v; stderr: %s", at, err, p.Stderr)
			}
			read(line)
			if strings.HasPrefix(line, "put") {
				n++
			}
			if stoppedAt != "" || (at == 0 && n == puts) {
				break
			}
		}
		p.Kill()
		rest, _ := io.ReadAll(p.Stdout)
		for _, line := range strings.SplitAfter(string(rest), "\n") {
			read(line)
		}
		checkAfterCrash(t, dir, acked)
		t.Logf("killed at step %d (%s) or after %d Puts; acknowledged %v", at, stoppedAt, puts, acked)
	}
	for at := 1; at <= 24; at++ { // each step of the first Put, of a replacement, of a new filing
		run(at, 0)
	}
	for range 6 {
		run(0, 1+rng.IntN(6))
	}
}

// checkAfterCrash opens the store a killed process left and checks it.
func checkAfterCrash(t *testing.T, dir string, acked map[int]int) {
	t.Helper()
	s, err := Open(dir)
	if err != nil {
		t.Fatalf("Open after the crash: %v", err)
	}
	defer s.Close()
	if d, err := s.Damaged(); err != nil || len(d) != 0 {
		t.Fatalf("Damaged after the crash = %v, %v; a crash damages nothing", d, err)
	}
	if err := s.Check(ctx); err != nil {
		t.Fatalf("Check after the crash: %v", err)
	}
	if left, _ := os.ReadDir(filepath.Join(dir, dirTemp)); len(left) != 0 {
		t.Errorf("Open left %d entries in %s", len(left), dirTemp)
	}
	names, _ := os.ReadDir(filepath.Join(dir, dirFilings))
	if len(names) > crashFilings {
		t.Errorf("%d shards for %d filings", len(names), crashFilings)
	}
	fs, err := s.Filings(ctx, edgar13f.MustParseDate("2099-01-01"))
	if err != nil {
		t.Fatal(err)
	}
	present := map[int]int{}
	for _, f := range fs {
		i := slices.Index([]string{crashAccession(0), crashAccession(1), crashAccession(2), crashAccession(3)}, f.Accession)
		v, _ := strconv.Atoi(strings.TrimPrefix(f.Company, "v"))
		present[i] = v
		wantF, wantChunks, _ := crashVersion(i, v)
		wantF.Chunks = len(wantChunks)
		if diff := cmp.Diff(wantF, f); diff != "" {
			t.Errorf("filing %d after the crash (-want +got):\n%s", i, diff)
		}
		var got []store.Chunk
		for _, item := range []string{"1", "7"} {
			cs, err := s.ItemChunks(ctx, f.Accession, item)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, cs...)
		}
		slices.SortFunc(got, func(a, b store.Chunk) int { return strings.Compare(a.ID, b.ID) })
		slices.SortFunc(wantChunks, func(a, b store.Chunk) int { return strings.Compare(a.ID, b.ID) })
		if diff := cmp.Diff(wantChunks, got); diff != "" {
			t.Errorf("chunks of filing %d version %d after the crash (-want +got):\n%s", i, v, diff)
		}
		ms, err := s.Lexical(ctx, fmt.Sprintf("v%d", v), store.Filter{AsOf: f.FilingDate, CIK: f.CIK}, 50)
		if err != nil || len(ms) != len(wantChunks) {
			t.Errorf("Lexical(v%d) = %d matches, %v; want %d", v, len(ms), err, len(wantChunks))
		}
	}
	for i, v := range acked {
		if present[i] < v {
			t.Errorf("filing %d: version %d was put, the store has %d", i, v, present[i])
		}
	}
	if m, err := s.Meta(ctx); err != nil || (len(fs) > 0 && m != crashMeta) {
		t.Errorf("Meta after the crash = %v, %v", m, err)
	}
	// BM25 with the lexicon the killed process left answers as scoring
	// every filing from its own segment.
	var queries []string
	for _, f := range fs {
		queries = append(queries, f.Company+" risk", "Company "+f.Company)
	}
	if diff, _ := pruneDiff(t, s, queries); diff != "" {
		t.Errorf("BM25 after the crash: %s", diff)
	}
}
