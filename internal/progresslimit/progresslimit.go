// Package progresslimit thins the progress reports of an import (package
// datasets' and package frames') to the ones their ReportProgress
// promises: a stage when it begins, each time its Done reaches another
// whole percent of its Total, and once when Done reaches Total; a stage
// whose Total is unknown (0) once.
package progresslimit

import "github.com/edgar13f/edgar13f"

// Limit returns a function passing on to f the reports the package
// comment describes and dropping the others. A stage is told apart by its
// Window, Index and Stage: a report of another window, place in a sync or
// stage begins a stage. Within a stage, a report whose Done does not
// advance is dropped, and so is any report after the one that reached
// Total (unless Total grew). The function returned is for one import, from
// one goroutine at a time.
func Limit(f func(edgar13f.Progress)) func(edgar13f.Progress) {
	l := &limiter{f: f}
	return l.report
}

type limiter struct {
	f    func(edgar13f.Progress)
	last edgar13f.Progress
	sent bool
}

func (l *limiter) report(p edgar13f.Progress) {
	if l.sent && p.Window == l.last.Window && p.Index == l.last.Index && p.Stage == l.last.Stage {
		switch {
		case p.Total <= 0 || p.Done <= l.last.Done:
			return
		case percent(p) == percent(l.last) && (p.Done < p.Total || l.last.Total > 0 && l.last.Done >= l.last.Total):
			return
		}
	}
	l.last, l.sent = p, true
	l.f(p)
}

// percent is how far p's stage is, in whole percent, at most 100.
func percent(p edgar13f.Progress) int64 {
	if p.Total <= 0 {
		return 0
	}
	return min(p.Done*100/p.Total, 100)
}
