package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/outflank-othello/outflank/eval"
)

// TestSite builds a site with a stand-in engine and checks its files:
// the page loads backend.js before app.js, the data files are gzipped
// copies of the engine's (the weights in format version 2), the service
// worker lists every file and names the build, and the old site is
// replaced as a whole.
func TestSite(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "site")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "stale.txt"), []byte("an old build's"), 0o644); err != nil {
		t.Fatal(err)
	}
	fakeWasm := func(ctx context.Context, src Source, path string) error {
		return os.WriteFile(path, []byte("\x00asm engine"), 0o644)
	}
	s := &Site{Source: Source{Dir: root, Commit: "1a2b3c4d"}, Out: out, BuildWasm: fakeWasm, Log: io.Discard}
	if err := s.Make(context.Background()); err != nil {
		t.Fatal(err)
	}
	var got []string
	err = filepath.WalkDir(out, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(out, path)
			got = append(got, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"index.html", "static/app.js", "static/backend.js", "static/book.gz", "static/outflank.wasm.gz", "static/style.css",
		"static/wasm_exec.js", "static/weights.gz", "static/worker.js", "sw.js"}
	if !slices.Equal(got, want) {
		t.Fatalf("site files %v, want %v", got, want)
	}
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	page := string(read("index.html"))
	if b, a := strings.Index(page, `src="static/backend.js"`), strings.Index(page, `src="static/app.js"`); b < 0 || a < b {
		t.Errorf("index.html loads backend.js at %d and app.js at %d: backend.js must come first", b, a)
	}
	unpack := func(site string) []byte {
		zr, err := gzip.NewReader(bytes.NewReader(read(site)))
		if err != nil {
			t.Fatalf("%s: %v", site, err)
		}
		data, err := io.ReadAll(zr)
		if err != nil {
			t.Fatalf("%s: %v", site, err)
		}
		return data
	}
	for site, src := range map[string]string{"static/outflank.wasm.gz": "", "static/book.gz": "book/default.book"} {
		orig := []byte("\x00asm engine")
		if src != "" {
			if orig, err = os.ReadFile(filepath.Join(root, src)); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(unpack(site), orig) {
			t.Errorf("%s does not unpack to %s", site, src)
		}
	}
	// The weights: the embedded ones, in format version 2 (runs), which
	// the engine reads with a copy where it would inflate them.
	weights := unpack("static/weights.gz")
	if len(weights) < 6 || binary.LittleEndian.Uint16(weights[4:]) != 2 {
		t.Errorf("weights.gz does not hold a weights file of format version 2")
	}
	sent, err := eval.Parse(weights)
	if err != nil {
		t.Fatalf("weights.gz: %v", err)
	}
	embedded, err := eval.Load(filepath.Join(root, "eval", "default.weights"))
	if err != nil {
		t.Fatal(err)
	}
	if sent.Stages() != embedded.Stages() || !slices.Equal(sent.Packed(), embedded.Packed()) {
		t.Error("weights.gz holds other weights than eval/default.weights")
	}
	sw := string(read("sw.js"))
	m := regexp.MustCompile(`const CACHE = 'outflank-([0-9a-f]{12})';\nconst FILES = (\[.*\]);`).FindStringSubmatch(sw)
	if m == nil {
		t.Fatalf("sw.js does not name its build and files:\n%s", sw)
	}
	var cached []string
	if err := json.Unmarshal([]byte(m[2]), &cached); err != nil {
		t.Fatal(err)
	}
	if wantCached := append([]string{"./"}, want[:len(want)-1]...); !slices.Equal(cached, wantCached) {
		t.Errorf("sw.js caches %v, want %v", cached, wantCached)
	}
}
