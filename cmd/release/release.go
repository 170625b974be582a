package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// DefaultTargets are the platforms a release is built for.
var DefaultTargets = []string{"linux/amd64", "linux/arm64", "darwin/amd64", "darwin/arm64", "windows/amd64", "windows/arm64"}

// Target is one platform of a release.
type Target struct{ OS, Arch string }

func (t Target) String() string { return t.OS + "/" + t.Arch }

// Binary is the binary's name on the target.
func (t Target) Binary() string {
	if t.OS == "windows" {
		return "outflank.exe"
	}
	return "outflank"
}

// archiveExt is what Windows users open by double-clicking (zip), and what
// the others unpack with tar.
func (t Target) archiveExt() string {
	if t.OS == "windows" {
		return ".zip"
	}
	return ".tar.gz"
}

var goName = regexp.MustCompile(`^[a-z0-9]+$`)

// ParseTargets reads "linux/amd64,darwin/arm64": each GOOS/GOARCH once.
// Whether the go command knows the pair is its to say when it builds.
func ParseTargets(s string) ([]Target, error) {
	var ts []Target
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		os, arch, ok := strings.Cut(f, "/")
		if !ok || !goName.MatchString(os) || !goName.MatchString(arch) {
			return nil, fmt.Errorf("target %q: want GOOS/GOARCH, e.g. linux/amd64", f)
		}
		t := Target{os, arch}
		if slices.Contains(ts, t) {
			return nil, fmt.Errorf("target %s given twice", t)
		}
		ts = append(ts, t)
	}
	return ts, nil
}

// Source is the commit a release is built from.
type Source struct {
	Dir      string    // the checkout's root
	Commit   string    // full hash
	Time     time.Time // the commit's time: every archive entry's time
	Tag      string    // the release tag at the commit (v1.2.0), "" if none
	Modified bool      // the checkout has changes git would commit or list
}

// releaseTag is what a release tag looks like (semantic versions, as the
// go command reads module versions from tags).
var releaseTag = regexp.MustCompile(`^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$`)

// ReadSource asks git about the checkout at dir.
func ReadSource(ctx context.Context, dir string) (Source, error) {
	git := func(args ...string) (string, error) {
		cmd := exec.CommandContext(ctx, "git", args...)
		cmd.Dir = dir
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
		}
		return strings.TrimSpace(string(out)), nil
	}
	root, err := git("rev-parse", "--show-toplevel")
	if err != nil {
		return Source{}, fmt.Errorf("not a git checkout (a release is built from one): %w", err)
	}
	s := Source{Dir: root}
	if s.Commit, err = git("rev-parse", "HEAD"); err != nil {
		return Source{}, err
	}
	when, err := git("show", "-s", "--format=%ct", "HEAD")
	if err != nil {
		return Source{}, err
	}
	sec, err := strconv.ParseInt(when, 10, 64)
	if err != nil {
		return Source{}, fmt.Errorf("commit time %q: %v", when, err)
	}
	s.Time = time.Unix(sec, 0).UTC()
	tags, err := git("tag", "--points-at", "HEAD")
	if err != nil {
		return Source{}, err
	}
	for _, t := range strings.Fields(tags) {
		// The newest release tag if several name the commit.
		if releaseTag.MatchString(t) && (s.Tag == "" || newer(t, s.Tag)) {
			s.Tag = t
		}
	}
	status, err := git("status", "--porcelain")
	if err != nil {
		return Source{}, err
	}
	s.Modified = status != ""
	return s, nil
}

// newer reports whether release tag a is a later version than b: by
// major, minor and patch number, then a release after its pre-releases
// (v1.0.0 after v1.0.0-rc.1), which compare as text.
func newer(a, b string) bool {
	parse := func(v string) ([3]int, string) {
		core, pre, _ := strings.Cut(strings.TrimPrefix(v, "v"), "-")
		var n [3]int
		for i, f := range strings.SplitN(core, ".", 3) {
			n[i], _ = strconv.Atoi(f) // releaseTag admits digits only
		}
		return n, pre
	}
	na, pa := parse(a)
	nb, pb := parse(b)
	if c := slices.Compare(na[:], nb[:]); c != 0 {
		return c > 0
	}
	if pa == "" || pb == "" {
		return pa == "" && pb != ""
	}
	return pa > pb
}

// Version is the release as the binaries print it: the tag, or "dev".
func (s Source) Version() string {
	if s.Tag != "" {
		return s.Tag
	}
	return "dev"
}

// Label names the archives: the tag, or "dev-" and the short commit.
func (s Source) Label() string {
	if s.Tag != "" {
		return s.Tag
	}
	return "dev-" + s.Commit[:min(7, len(s.Commit))]
}

// BuildFunc builds the outflank binary of src for t at path.
type BuildFunc func(ctx context.Context, src Source, t Target, path string) error

// stampPkg holds the variables the release and its commit are stamped into.
const stampPkg = "github.com/outflank-othello/outflank/cmd/outflank/internal/cli"

// GoBuild cross-compiles with the go command: no cgo (no C compiler
// needed, a static binary), paths of this machine trimmed, symbols
// stripped (panics still print their stacks), the tag and the commit
// stamped in (and the commit recorded by the go command where it can:
// -buildvcs=true, whatever GOFLAGS says).
func GoBuild(ctx context.Context, src Source, t Target, path string) error {
	return goBuild(ctx, src, t, path, "./cmd/outflank")
}

func goBuild(ctx context.Context, src Source, t Target, path, pkg string) error {
	ldflags := fmt.Sprintf("-s -w -X %[1]s.commit=%[2]s -X %[1]s.commitTime=%[3]s -X %[1]s.modified=%[4]t",
		stampPkg, src.Commit, src.Time.Format(time.RFC3339), src.Modified)
	if src.Tag != "" {
		ldflags += " -X " + stampPkg + ".release=" + src.Tag
	}
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-buildvcs=true", "-ldflags", ldflags, "-o", path, pkg)
	cmd.Dir = src.Dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+t.OS, "GOARCH="+t.Arch)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("go build for %s: %v\n%s", t, err, out)
	}
	return nil
}

// Release builds the archives of Source for Targets into Out.
type Release struct {
	Source  Source
	Targets []Target
	Out     string
	Build   BuildFunc
	// Check, if set, runs on each built binary (CheckVersion runs the
	// ones this machine can).
	Check func(ctx context.Context, src Source, t Target, path string) error
	Log   io.Writer
	// Site, if set, builds the browser build into a folder (Site.Make);
	// it is archived as outflank-LABEL-web.zip beside the binaries.
	Site func(ctx context.Context, dir string) error
}

// docs are the files every archive carries beside the binary, at the
// paths they have in the repository (so the README's link to the command
// reference works), with any licence or notice files at the top.
func docs(root string) ([]string, error) {
	names := []string{"README.md", "cmd/outflank/README.md"}
	for _, pat := range []string{"LICENSE*", "LICENCE*", "COPYING*", "NOTICE*", "AUTHORS*"} {
		m, err := filepath.Glob(filepath.Join(root, pat))
		if err != nil {
			return nil, err
		}
		for _, p := range m {
			names = append(names, filepath.Base(p))
		}
	}
	for _, n := range names {
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(n))); err != nil {
			return nil, fmt.Errorf("file for the archives: %w", err)
		}
	}
	return names, nil
}

// Make builds every target into a staging folder inside Out and moves the
// archives and SHA256SUMS into Out only when all of them are built, so
// that Out never holds a partial archive or a checksum file that does not
// match its archives.
func (r *Release) Make(ctx context.Context) error {
	if err := os.MkdirAll(r.Out, 0o755); err != nil {
		return err
	}
	stage, err := os.MkdirTemp(r.Out, ".release-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(stage)
	docNames, err := docs(r.Source.Dir)
	if err != nil {
		return err
	}
	var sums strings.Builder
	var names []string
	for _, t := range r.Targets {
		name, sum, err := r.target(ctx, t, stage, docNames)
		if err != nil {
			return err
		}
		names = append(names, name)
		fmt.Fprintf(&sums, "%s  %s\n", sum, name) // the format sha256sum -c reads
	}
	if r.Site != nil {
		name, sum, err := r.site(ctx, stage)
		if err != nil {
			return err
		}
		names = append(names, name)
		fmt.Fprintf(&sums, "%s  %s\n", sum, name)
	}
	if err := os.WriteFile(filepath.Join(stage, "SHA256SUMS"), []byte(sums.String()), 0o644); err != nil {
		return err
	}
	for _, n := range append(names, "SHA256SUMS") {
		if err := os.Rename(filepath.Join(stage, n), filepath.Join(r.Out, n)); err != nil {
			return err
		}
	}
	fmt.Fprintf(r.Log, "release %s (commit %.7s): %d archives and SHA256SUMS in %s; check with: cd %s && sha256sum -c SHA256SUMS\n",
		r.Source.Version(), r.Source.Commit, len(names), r.Out, r.Out)
	return nil
}

// target builds t's binary and archive in stage and returns the archive's
// name and SHA-256.
func (r *Release) target(ctx context.Context, t Target, stage string, docNames []string) (name, sum string, err error) {
	dir := "outflank-" + r.Source.Label() + "-" + t.OS + "-" + t.Arch
	bin := filepath.Join(stage, dir+"-bin", t.Binary())
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		return "", "", err
	}
	if err := r.Build(ctx, r.Source, t, bin); err != nil {
		return "", "", err
	}
	if r.Check != nil {
		if err := r.Check(ctx, r.Source, t, bin); err != nil {
			return "", "", err
		}
	}
	files := []file{{Name: dir + "/" + t.Binary(), Path: bin, Mode: 0o755}}
	for _, d := range docNames {
		files = append(files, file{Name: dir + "/" + d, Path: filepath.Join(r.Source.Dir, filepath.FromSlash(d)), Mode: 0o644})
	}
	name = dir + t.archiveExt()
	var buf bytes.Buffer
	write := writeTarGz
	if t.archiveExt() == ".zip" {
		write = writeZip
	}
	if err := write(&buf, dir, files, r.Source.Time); err != nil {
		return "", "", fmt.Errorf("%s: %w", name, err)
	}
	if err := os.WriteFile(filepath.Join(stage, name), buf.Bytes(), 0o644); err != nil {
		return "", "", err
	}
	h := sha256.Sum256(buf.Bytes())
	st, err := os.Stat(bin)
	if err != nil {
		return "", "", err
	}
	fmt.Fprintf(r.Log, "%-14s %s: %.1f MB (binary %.1f MB)\n", t, name, float64(buf.Len())/1e6, float64(st.Size())/1e6)
	return name, hex.EncodeToString(h[:]), nil
}

// site builds the browser build in stage and zips it; it returns the
// archive's name and SHA-256.
func (r *Release) site(ctx context.Context, stage string) (name, sum string, err error) {
	dir := "outflank-" + r.Source.Label() + "-web"
	tree := filepath.Join(stage, dir+"-tree")
	if err := r.Site(ctx, tree); err != nil {
		return "", "", err
	}
	var files []file
	err = filepath.WalkDir(tree, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(tree, path)
		files = append(files, file{Name: dir + "/" + filepath.ToSlash(rel), Path: path, Mode: 0o644})
		return err
	})
	if err != nil {
		return "", "", err
	}
	slices.SortFunc(files, func(a, b file) int { return strings.Compare(a.Name, b.Name) })
	name = dir + ".zip"
	var buf bytes.Buffer
	if err := writeZip(&buf, dir, files, r.Source.Time); err != nil {
		return "", "", fmt.Errorf("%s: %w", name, err)
	}
	if err := os.WriteFile(filepath.Join(stage, name), buf.Bytes(), 0o644); err != nil {
		return "", "", err
	}
	h := sha256.Sum256(buf.Bytes())
	fmt.Fprintf(r.Log, "%-14s %s: %.1f MB\n", "web", name, float64(buf.Len())/1e6)
	return name, hex.EncodeToString(h[:]), nil
}

// CheckVersion runs a binary this machine can run ("version") and checks
// that it says the release and commit it was built from; the others are
// left to their platforms.
func CheckVersion(ctx context.Context, src Source, t Target, path string) error {
	if t.OS != runtime.GOOS || t.Arch != runtime.GOARCH {
		return nil
	}
	out, err := exec.CommandContext(ctx, path, "version").CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s version: %v: %s", t, err, out)
	}
	line := strings.TrimSpace(string(out))
	want := fmt.Sprintf("outflank %s (commit %.7s, %s", src.Version(), src.Commit, src.Time.Format("2006-01-02"))
	if !strings.HasPrefix(line, want) {
		return fmt.Errorf("%s: the binary says %q, want it to start %q", t, line, want)
	}
	return nil
}

// file is one entry of an archive: Name inside it, read from Path.
type file struct {
	Name string
	Path string
	Mode fs.FileMode
}

// writeTarGz writes a gzipped tar of dir/ and files, each entry owned by
// root with mtime as its time, so the bytes depend only on the contents.
func writeTarGz(w io.Writer, dir string, files []file, mtime time.Time) error {
	gz, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(gz)
	hdr := &tar.Header{Typeflag: tar.TypeDir, Name: dir + "/", Mode: 0o755, ModTime: mtime, Format: tar.FormatPAX}
	if err := tw.WriteHeader(hdr); err != nil {
		return err
	}
	for _, f := range files {
		data, err := os.ReadFile(f.Path)
		if err != nil {
			return err
		}
		hdr := &tar.Header{Typeflag: tar.TypeReg, Name: f.Name, Mode: int64(f.Mode), Size: int64(len(data)), ModTime: mtime, Format: tar.FormatPAX}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if _, err := tw.Write(data); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

// writeZip writes a zip of dir/ and files, deflated, with mtime and the
// Unix modes (so unzip on Linux or macOS keeps the binary executable).
func writeZip(w io.Writer, dir string, files []file, mtime time.Time) error {
	zw := zip.NewWriter(w)
	dh := &zip.FileHeader{Name: dir + "/", Modified: mtime}
	dh.SetMode(fs.ModeDir | 0o755)
	if _, err := zw.CreateHeader(dh); err != nil {
		return err
	}
	for _, f := range files {
		data, err := os.ReadFile(f.Path)
		if err != nil {
			return err
		}
		h := &zip.FileHeader{Name: f.Name, Method: zip.Deflate, Modified: mtime}
		h.SetMode(f.Mode)
		fw, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		if _, err := fw.Write(data); err != nil {
			return err
		}
	}
	return zw.Close()
}
