package helperproc

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

const envHelper = "HELPERPROC_TEST_HELPER"

func TestHelperProcess(t *testing.T) {
	if os.Getenv(envHelper) == "" {
		t.Skip("helper process for other tests")
	}
	wd, _ := os.Getwd()
	fmt.Println("ready", wd)
	fmt.Fprintln(os.Stderr, "to stderr")
	var line string
	fmt.Scanln(&line)
	fmt.Println("got", line)
	os.Exit(0)
}

func TestStart(t *testing.T) {
	dir := t.TempDir()
	p := Start(t, "TestHelperProcess", dir, envHelper+"=1")
	first, err := p.Stdout.ReadString('\n')
	if err != nil || !strings.HasPrefix(first, "ready ") || !strings.Contains(first, dir) {
		t.Fatalf("first line %q, %v; want ready in %s", first, err, dir)
	}
	fmt.Fprintln(p.Stdin, "hello")
	if line, _ := p.Stdout.ReadString('\n'); line != "got hello\n" {
		t.Errorf("helper answered %q", line)
	}
	if err := p.Cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if p.Stderr.String() != "to stderr\n" {
		t.Errorf("stderr %q", p.Stderr.String())
	}
}
