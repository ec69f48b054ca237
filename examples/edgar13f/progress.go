package main

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// progress reports work on standard error. On a terminal it is one line
// redrawn in place. Elsewhere (--progress into a file or a pipe) it is
// plain lines without carriage returns or escape codes, at a rate a person
// can read: a line of a new step at once, the counts of the same step at
// most every progressEvery, and the last state of a step when the work
// ends.
type progress struct {
	w   io.Writer
	tty bool

	mu      sync.Mutex
	drawn   bool      // on a terminal: a line is on screen
	step    string    // off a terminal: the step of the last line written
	shownAt time.Time // off a terminal: when a line was last written
	pending string    // off a terminal: the newest line of the step not written yet
}

// progressEvery is the least time between two lines of one step off a
// terminal.
const progressEvery = 2 * time.Second

// newProgress returns the progress report on w, a terminal when tty.
func newProgress(w io.Writer, tty bool) *progress { return &progress{w: w, tty: tty} }

// show reports line, a state of step. A transient line (not keep), such
// as a request in flight, is never written late: off a terminal it is
// written only when its turn comes, and it does not start a step.
func (p *progress) show(step, line string, keep bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty {
		fmt.Fprintf(p.w, "\r\033[K%s", line)
		p.drawn = true
		return
	}
	now := time.Now()
	if keep && step != p.step || now.Sub(p.shownAt) >= progressEvery {
		fmt.Fprintln(p.w, line)
		p.shownAt = now
		if keep {
			p.step, p.pending = step, ""
		}
		return
	}
	if keep {
		p.pending = line
	}
}

// clear ends a transient line: on a terminal it is erased.
func (p *progress) clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty && p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
		p.drawn = false
	}
}

// end ends the report: on a terminal the line is erased; elsewhere the
// last state not written yet is.
func (p *progress) end() {
	p.clear()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pending != "" {
		fmt.Fprintln(p.w, p.pending)
	}
	p.step, p.pending = "", ""
}

// println writes line as a line of its own that stays, such as a tool call
// of ask: on a terminal the line drawn in place is erased first.
func (p *progress) println(line string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty && p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
		p.drawn = false
	}
	fmt.Fprintln(p.w, line)
}
