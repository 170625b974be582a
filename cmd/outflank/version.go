package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

func init() {
	register(&command{
		name:    "version",
		args:    "",
		summary: "Print the version of this build (also --version; GTP's version command says the same).",
		details: `The version comes from the module's build information: the release for
"go install github.com/outflank-othello/outflank/cmd/outflank@vX.Y.Z", a
pseudo-version (date and commit) for a build in a checkout, "dev" when the
build recorded neither (e.g. built with -buildvcs=false). The VCS commit and
whether the checkout had changes follow when recorded, then the Go version
and platform.`,
		run: runVersion,
	})
}

func runVersion(e *env, args []string) error {
	fs := findCommand("version").flags(e)
	if ok, err := parse(fs, args); !ok {
		return err
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("version: unexpected argument %q", fs.Arg(0))
	}
	fmt.Fprintf(e.stdout, "outflank %s (%s)\n", version(), buildDetails())
	return nil
}

// buildDetails is what the build information adds to the version: the
// commit time, whether the checkout had changes, the Go version, the
// platform.
func buildDetails() string {
	s := fmt.Sprintf("%s %s/%s", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return s
	}
	for _, kv := range bi.Settings {
		switch {
		case kv.Key == "vcs.time":
			s = "committed " + kv.Value + ", " + s
		case kv.Key == "vcs.modified" && kv.Value == "true":
			s = "with local changes, " + s
		}
	}
	return s
}
