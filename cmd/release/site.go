package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/outflank-othello/outflank/eval"
)

// The browser build: a static site of the web board whose engine is
// Outflank compiled to WebAssembly, running in a Web Worker. Its files:
//
//	index.html           the board page of "outflank web", with backend.js
//	sw.js                the service worker that keeps the site offline
//	static/app.js, style.css   the page's own, unchanged
//	static/backend.js    fetch's stand-in that talks to the worker
//	static/worker.js     the worker: fetches and starts the engine
//	static/wasm_exec.js  Go's WebAssembly support, from the Go that built it
//	static/outflank.wasm.gz, weights.gz, book.gz   the engine and its data, gzipped
//	                     (the weights as eval's format version 2: runs of 0s and of others)
//
// Every file is plain: any static file server serves the site as it is
// (python3 -m http.server), and the browser unpacks the gzipped files
// itself (DecompressionStream).

const (
	pageDir = "cmd/outflank/internal/web/static"
	siteDir = "cmd/outflank/internal/web/wasm/site"
	wasmPkg = "./cmd/outflank/internal/web/wasm"
	// appScript is where index.html loads the page's script; backend.js
	// goes before it.
	appScript = `<script src="static/app.js"></script>`
)

// Site builds the browser build of Source into Out.
type Site struct {
	Source Source
	Out    string
	// BuildWasm builds the engine at path (GoBuildWasm; tests give a
	// stand-in).
	BuildWasm func(ctx context.Context, src Source, path string) error
	Log       io.Writer
}

// GoBuildWasm compiles the engine for the browser, stamped as GoBuild
// stamps the binaries.
func GoBuildWasm(ctx context.Context, src Source, path string) error {
	return goBuild(ctx, src, Target{"js", "wasm"}, path, wasmPkg)
}

// Make writes the site into a staging folder beside Out and puts it in
// Out's place when it is complete.
func (s *Site) Make(ctx context.Context) error {
	out := filepath.Clean(s.Out)
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	stage, err := os.MkdirTemp(filepath.Dir(out), "."+filepath.Base(out)+"-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(stage)
	if err := os.Chmod(stage, 0o755); err != nil {
		return err
	}
	if err := os.Mkdir(filepath.Join(stage, "static"), 0o755); err != nil {
		return err
	}
	root := s.Source.Dir
	files := map[string][]byte{} // the site's files by path, sw.js aside
	read := func(site, src string) error {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(src)))
		if err != nil {
			return err
		}
		files[site] = b
		return nil
	}
	for _, name := range []string{"app.js", "style.css"} {
		if err := read("static/"+name, pageDir+"/"+name); err != nil {
			return err
		}
	}
	for _, name := range []string{"backend.js", "worker.js"} {
		if err := read("static/"+name, siteDir+"/"+name); err != nil {
			return err
		}
	}
	if err := read("index.html", pageDir+"/index.html"); err != nil {
		return err
	}
	if !bytes.Contains(files["index.html"], []byte(appScript)) {
		return fmt.Errorf("%s/index.html does not load the script as %s: the build cannot add backend.js", pageDir, appScript)
	}
	files["index.html"] = bytes.Replace(files["index.html"], []byte(appScript), []byte(`<script src="static/backend.js"></script>`+"\n"+appScript), 1)
	goroot, err := exec.CommandContext(ctx, "go", "env", "GOROOT").Output()
	if err != nil {
		return fmt.Errorf("go env GOROOT: %v", err)
	}
	wasmExec, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		return fmt.Errorf("Go's WebAssembly support: %w", err)
	}
	files["static/wasm_exec.js"] = wasmExec

	wasm := filepath.Join(stage, "outflank.wasm")
	if err := s.BuildWasm(ctx, s.Source, wasm); err != nil {
		return err
	}
	// The weights go as format version 2 (runs of 0s and of others),
	// so that the browser unpacks them and the engine only copies the
	// non-zero ones where it would inflate them in WebAssembly, slowly.
	weights, err := eval.Load(filepath.Join(root, "eval", "default.weights"))
	if err != nil {
		return err
	}
	raw := map[string]func() ([]byte, error){
		"static/outflank.wasm.gz": func() ([]byte, error) { return os.ReadFile(wasm) },
		"static/weights.gz":       func() ([]byte, error) { return weights.EncodeRuns(), nil },
		"static/book.gz":          func() ([]byte, error) { return os.ReadFile(filepath.Join(root, "book", "default.book")) },
	}
	for site, read := range raw {
		b, err := read()
		if err != nil {
			return err
		}
		if files[site], err = gzipped(b); err != nil {
			return err
		}
		fmt.Fprintf(s.Log, "%-24s %5.2f MB (%.2f MB unpacked)\n", site, float64(len(files[site]))/1e6, float64(len(b))/1e6)
	}
	if err := os.Remove(wasm); err != nil {
		return err
	}

	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	h := sha256.New()
	total := 0
	for _, n := range names {
		fmt.Fprintf(h, "%s %d\n", n, len(files[n]))
		h.Write(files[n])
		total += len(files[n])
	}
	build := hex.EncodeToString(h.Sum(nil))[:12]
	sw, err := os.ReadFile(filepath.Join(root, siteDir, "sw.js"))
	if err != nil {
		return err
	}
	list, _ := json.Marshal(append([]string{"./"}, names...))
	if !bytes.Contains(sw, []byte("'outflank-BUILD'")) || !bytes.Contains(sw, []byte("FILES_LIST")) {
		return fmt.Errorf("%s/sw.js lacks its BUILD and FILES_LIST placeholders", siteDir)
	}
	sw = bytes.Replace(sw, []byte("'outflank-BUILD'"), []byte("'outflank-"+build+"'"), 1)
	files["sw.js"] = bytes.Replace(sw, []byte("FILES_LIST"), list, 1)
	for n, b := range files {
		if err := os.WriteFile(filepath.Join(stage, filepath.FromSlash(n)), b, 0o644); err != nil {
			return err
		}
	}
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	if err := os.Rename(stage, out); err != nil {
		return err
	}
	fmt.Fprintf(s.Log, "site %s (build %s): %d files, %.1f MB to download\n", s.Source.Version(), build, len(files), float64(total+len(files["sw.js"]))/1e6)
	return nil
}

func gzipped(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(b); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
