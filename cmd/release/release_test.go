package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseTargets(t *testing.T) {
	ts, err := ParseTargets("linux/amd64, windows/arm64")
	if err != nil || !slices.Equal(ts, []Target{{"linux", "amd64"}, {"windows", "arm64"}}) {
		t.Errorf("ParseTargets = %v, %v", ts, err)
	}
	if ts, err := ParseTargets(strings.Join(DefaultTargets, ",")); err != nil || len(ts) != 6 {
		t.Errorf("the default targets: %v, %v", ts, err)
	}
	for _, bad := range []string{"", "linux", "linux/", "/amd64", "linux/amd64,linux/amd64", "Linux/amd64", "linux/amd64/v3", "linux/amd64;rm"} {
		if _, err := ParseTargets(bad); err == nil {
			t.Errorf("ParseTargets(%q) accepted", bad)
		}
	}
}

// fakeSource is a checkout with the files the archives carry.
func fakeSource(t *testing.T) Source {
	dir := t.TempDir()
	for name, text := range map[string]string{"README.md": "# Outflank\n", "cmd/outflank/README.md": "# commands\n", "LICENSE": "licence\n"} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return Source{Dir: dir, Commit: "1a2b3c4d5e6f", Time: time.Date(2026, 12, 3, 9, 30, 0, 0, time.UTC), Tag: "v1.2.0"}
}

// fakeBuild writes a tiny "binary" naming its target instead of compiling.
func fakeBuild(ctx context.Context, src Source, t Target, path string) error {
	return os.WriteFile(path, []byte("binary for "+t.String()), 0o755)
}

// TestMake builds two fake targets and checks what a user gets: a tar.gz
// and a zip holding the binary (executable), the README, the command
// reference and the licence under one folder, with the commit's time; a
// SHA256SUMS that sha256sum -c accepts; no staging folder left; and the
// same bytes from a second run.
func TestMake(t *testing.T) {
	src := fakeSource(t)
	targets := []Target{{"linux", "amd64"}, {"windows", "arm64"}}
	make := func(out string) {
		t.Helper()
		r := &Release{Source: src, Targets: targets, Out: out, Build: fakeBuild, Log: io.Discard, Site: fakeSite}
		if err := r.Make(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	out := t.TempDir()
	make(out)
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	want := []string{"SHA256SUMS", "outflank-v1.2.0-linux-amd64.tar.gz", "outflank-v1.2.0-web.zip", "outflank-v1.2.0-windows-arm64.zip"}
	if !slices.Equal(names, want) {
		t.Fatalf("%s holds %v, want %v", out, names, want)
	}

	sums, err := os.ReadFile(filepath.Join(out, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(sums), "\n"), "\n")
	if len(lines) != len(want)-1 {
		t.Errorf("SHA256SUMS has %d lines for %d archives:\n%s", len(lines), len(want)-1, sums)
	}
	for _, line := range lines {
		sum, name, ok := strings.Cut(line, "  ")
		data, err := os.ReadFile(filepath.Join(out, name))
		h := sha256.Sum256(data)
		if !ok || err != nil || sum != hex.EncodeToString(h[:]) {
			t.Errorf("SHA256SUMS line %q does not match %s (%v)", line, name, err)
		}
	}
	if sha, err := exec.LookPath("sha256sum"); err == nil {
		cmd := exec.Command(sha, "-c", "SHA256SUMS")
		cmd.Dir = out
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("sha256sum -c: %v\n%s", err, b)
		}
	}

	wantFiles := map[string]string{
		"outflank":               "binary for linux/amd64",
		"README.md":              "# Outflank\n",
		"cmd/outflank/README.md": "# commands\n",
		"LICENSE":                "licence\n",
	}
	got := readTarGz(t, filepath.Join(out, want[1]), src.Time)
	checkFiles(t, want[1], got, "outflank-v1.2.0-linux-amd64/", wantFiles)
	wantFiles["outflank.exe"] = "binary for windows/arm64"
	delete(wantFiles, "outflank")
	got = readZip(t, filepath.Join(out, want[3]), src.Time)
	checkFiles(t, want[3], got, "outflank-v1.2.0-windows-arm64/", wantFiles)
	got = readZip(t, filepath.Join(out, want[2]), src.Time)
	checkFiles(t, want[2], got, "outflank-v1.2.0-web/", map[string]string{"index.html": "<html>", "static/app.js": "app"})

	again := t.TempDir()
	make(again)
	for _, n := range want {
		a, _ := os.ReadFile(filepath.Join(out, n))
		b, _ := os.ReadFile(filepath.Join(again, n))
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between two runs: archives are not reproducible", n)
		}
	}
}

// fakeSite writes a two-file site.
func fakeSite(ctx context.Context, dir string) error {
	if err := os.MkdirAll(filepath.Join(dir, "static"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte("<html>"), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "static", "app.js"), []byte("app"), 0o644)
}

type archived struct {
	data string
	mode os.FileMode
}

func checkFiles(t *testing.T, archive string, got map[string]archived, dir string, want map[string]string) {
	t.Helper()
	if d, ok := got[dir]; !ok || !d.mode.IsDir() {
		t.Errorf("%s: no folder %s (%v)", archive, dir, d)
	}
	delete(got, dir)
	if len(got) != len(want) {
		t.Errorf("%s holds %d files, want %d: %v", archive, len(got), len(want), got)
	}
	for name, data := range want {
		f, ok := got[dir+name]
		wantMode := os.FileMode(0o644)
		if strings.HasPrefix(name, "outflank") && !strings.Contains(name, ".") || name == "outflank.exe" {
			wantMode = 0o755
		}
		if !ok || f.data != data || f.mode.Perm() != wantMode {
			t.Errorf("%s: %s is %+v, want %q with mode %v", archive, dir+name, f, data, wantMode)
		}
	}
}

func readTarGz(t *testing.T, path string, mtime time.Time) map[string]archived {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	out := map[string]archived{}
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if !h.ModTime.Equal(mtime) || h.Uid != 0 || h.Uname != "" {
			t.Errorf("%s: %s has time %v, owner %d %q; want the commit's time %v, root", path, h.Name, h.ModTime, h.Uid, h.Uname, mtime)
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		out[h.Name] = archived{string(data), h.FileInfo().Mode()}
	}
	return out
}

func readZip(t *testing.T, path string, mtime time.Time) map[string]archived {
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	out := map[string]archived{}
	for _, f := range zr.File {
		if !f.Modified.Equal(mtime) {
			t.Errorf("%s: %s has time %v, want %v", path, f.Name, f.Modified, mtime)
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		out[f.Name] = archived{string(data), f.Mode()}
	}
	return out
}

// TestMakeFails: a target that does not build leaves the output folder
// as it was: no archive, no SHA256SUMS, no staging folder.
func TestMakeFails(t *testing.T) {
	src := fakeSource(t)
	out := t.TempDir()
	old := filepath.Join(out, "SHA256SUMS")
	if err := os.WriteFile(old, []byte("an earlier release's\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	build := func(ctx context.Context, src Source, t Target, path string) error {
		if t.OS == "darwin" {
			return fmt.Errorf("go build for %s: broken", t)
		}
		return fakeBuild(ctx, src, t, path)
	}
	r := &Release{Source: src, Targets: []Target{{"linux", "amd64"}, {"darwin", "arm64"}}, Out: out, Build: build, Log: io.Discard}
	err := r.Make(context.Background())
	if err == nil || !strings.Contains(err.Error(), "darwin/arm64: broken") {
		t.Fatalf("Make = %v, want the build's error", err)
	}
	entries, _ := os.ReadDir(out)
	if len(entries) != 1 {
		t.Errorf("after a failed build %s holds %v, want only the earlier SHA256SUMS", out, entries)
	}
	if b, _ := os.ReadFile(old); string(b) != "an earlier release's\n" {
		t.Errorf("SHA256SUMS changed to %q", b)
	}
}

func TestNewer(t *testing.T) {
	for _, c := range [][2]string{{"v1.10.0", "v1.2.0"}, {"v1.0.0", "v1.0.0-rc.1"}, {"v1.0.0-rc.2", "v1.0.0-rc.1"}, {"v2.0.0-beta", "v1.9.9"}, {"v0.1.1", "v0.1.0"}} {
		if !newer(c[0], c[1]) || newer(c[1], c[0]) {
			t.Errorf("newer(%s, %s) = %v, newer(%s, %s) = %v", c[0], c[1], newer(c[0], c[1]), c[1], c[0], newer(c[1], c[0]))
		}
	}
}

// TestReadSource reads a fresh repository: untagged, then tagged (the
// newest release tag wins, other tags are not releases), then changed.
func TestReadSource(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_COMMITTER_DATE=2026-12-03T09:30:00Z", "GIT_AUTHOR_DATE=2026-12-03T09:30:00Z")
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, b)
		}
	}
	git("init", "-q")
	if err := os.WriteFile(filepath.Join(dir, "a"), []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "a")
	git("commit", "-q", "-m", "a")
	ctx := context.Background()
	s, err := ReadSource(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if s.Tag != "" || s.Modified || len(s.Commit) != 40 || !s.Time.Equal(time.Date(2026, 12, 3, 9, 30, 0, 0, time.UTC)) ||
		s.Version() != "dev" || s.Label() != "dev-"+s.Commit[:7] {
		t.Errorf("untagged: %+v, version %q, label %q", s, s.Version(), s.Label())
	}
	git("tag", "v1.2.0")
	git("tag", "v1.10.0-rc.1")
	git("tag", "v1.10.0")
	git("tag", "nightly")
	if s, err = ReadSource(ctx, dir); err != nil || s.Version() != "v1.10.0" || s.Label() != "v1.10.0" {
		t.Errorf("tagged: %+v, %v", s, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "b"), []byte("b"), 0o644); err != nil {
		t.Fatal(err)
	}
	if s, err = ReadSource(ctx, dir); err != nil || !s.Modified {
		t.Errorf("with an untracked file: %+v, %v; want Modified", s, err)
	}
	if _, err := ReadSource(ctx, t.TempDir()); err == nil || !strings.Contains(err.Error(), "not a git checkout") {
		t.Errorf("outside a checkout: %v", err)
	}
}
