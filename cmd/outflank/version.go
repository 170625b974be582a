package main

import (
	"fmt"
	"runtime"

	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
)

func init() {
	register(&cli.Command{
		Name:    "version",
		Args:    "",
		Summary: "Print the version of this build (also --version; GTP's version command says the same).",
		Details: `The version is the release: stamped by the release builder (go run
./cmd/release) or taken from the module's build information (the tag for
"go install github.com/outflank-othello/outflank/cmd/outflank@vX.Y.Z" or a
build at a tagged commit), else "dev"; then the commit, its date and whether the checkout had changes, where
the build recorded them (go build and go install do; go run does not), then
the Go version and platform.`,
		Run: runVersion,
	})
}

func runVersion(e *cli.Env, args []string) error {
	fs := flagSet(e, "version")
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	v := cli.Version()
	if v == "dev" {
		v = "dev (no commit recorded: go run, or a build with -buildvcs=false)"
	}
	fmt.Fprintf(e.Stdout, "outflank %s, %s %s/%s\n", v, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return nil
}
