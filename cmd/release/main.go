// Command release builds Outflank's release archives from a git checkout:
// the outflank binary cross-compiled for Linux, macOS and Windows on amd64
// and arm64, each in an archive (tar.gz, zip for Windows) with the README,
// the browser build (a static site, see site.go) as a zip, and a
// SHA256SUMS file that "sha256sum -c SHA256SUMS" checks.
//
//	go run ./cmd/release                 # every target, into dist/
//	go run ./cmd/release --targets linux/amd64 --out /tmp/rel
//
//	go run ./cmd/release site            # the browser build, into dist/site
//
// The release is the tag at HEAD (v1.2.0), else "dev" with the commit; it
// is stamped into the binaries, whose "outflank version" prints it. A
// checkout with changes is refused (--allow-dirty to build anyway: the
// binaries then say "modified"). Archives are reproducible: their entries'
// times are the commit's and their order fixed, so the same commit gives
// the same bytes with the same Go.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	site := len(args) > 0 && args[0] == "site"
	if site {
		args = args[1:]
	}
	fs := pflag.NewFlagSet("release", pflag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	defOut, outHelp := "dist", "folder for the archives and SHA256SUMS (created if missing)"
	if site {
		defOut, outHelp = filepath.Join("dist", "site"), "folder for the site (replaced as a whole)"
	}
	out := fs.String("out", defOut, outHelp)
	targets := fs.String("targets", strings.Join(DefaultTargets, ","), "GOOS/GOARCH pairs to build, comma-separated")
	web := fs.Bool("web", true, "also the browser build, as outflank-VERSION-web.zip (not with site)")
	allowDirty := fs.Bool("allow-dirty", false, "build from a checkout with uncommitted changes (the binaries say \"modified\")")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: go run ./cmd/release [--out DIR] [--targets os/arch,...] [--web=false] [--allow-dirty]\n"+
			"       go run ./cmd/release site [--out DIR] [--allow-dirty]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	ts, err := ParseTargets(*targets)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	src, err := ReadSource(ctx, ".")
	if err != nil {
		return err
	}
	if src.Modified && !*allowDirty {
		return fmt.Errorf("the checkout has uncommitted changes (git status): commit them, or pass --allow-dirty")
	}
	if site {
		s := &Site{Source: src, Out: *out, BuildWasm: GoBuildWasm, Log: os.Stderr}
		if err := s.Make(ctx); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "the site is in %s; try it: python3 -m http.server -d %s\n", *out, *out)
		return nil
	}
	r := &Release{Source: src, Targets: ts, Out: *out, Build: GoBuild, Check: CheckVersion, Log: os.Stderr}
	if *web {
		r.Site = func(ctx context.Context, dir string) error {
			s := &Site{Source: src, Out: dir, BuildWasm: GoBuildWasm, Log: os.Stderr}
			return s.Make(ctx)
		}
	}
	return r.Make(ctx)
}
