package cli

import (
	"regexp"
	"runtime/debug"
	"strings"
)

// The release builder (go run ./cmd/release) stamps the build with
// -ldflags "-X github.com/outflank-othello/outflank/cmd/outflank/internal/cli.release=v1.2.0"
// and the commit's facts the same way, since the go command records them
// only in some checkouts (not with -buildvcs=false, which some
// environments set, nor in every git worktree). The release wins over
// the module version; the commit is used where the build recorded none.
var (
	release    string // the tag
	commit     string // full hash
	commitTime string // RFC 3339
	modified   string // "true": the checkout had changes
)

// Version says which build this is, each fact once: the release ("v1.2.0",
// or "dev" for any other build), then the commit and its date where the
// build recorded them ("dev (commit 1a2b3c4, 2026-11-27, modified)").
func Version() string {
	module, vcs := "", map[string]string{}
	if bi, ok := debug.ReadBuildInfo(); ok {
		module = bi.Main.Version
		for _, kv := range bi.Settings {
			vcs[kv.Key] = kv.Value
		}
	}
	if release != "" {
		module = release
	}
	if vcs["vcs.revision"] == "" && commit != "" {
		vcs["vcs.revision"], vcs["vcs.time"], vcs["vcs.modified"] = commit, commitTime, modified
	}
	return VersionOf(module, vcs)
}

// pseudoVersion matches a Go pseudo-version (v0.0.0-20261127093000-1a2b3c4d5e6f,
// v1.2.4-0.20261127093000-1a2b3c4d5e6f, with "+dirty" for a checkout with
// changes): go build stamps one in a checkout and go install @latest gives
// one for an untagged commit. It carries the commit and its time.
var pseudoVersion = regexp.MustCompile(`^v[0-9]+\.[0-9]+\.[0-9]+-(?:[0-9A-Za-z.-]*\.)?([0-9]{14})-([0-9a-f]{12})(\+dirty)?$`)

// VersionOf writes the version from the module version and the build's
// settings (vcs.revision, vcs.time, vcs.modified). A pseudo-version is not
// repeated: its commit and date are the ones shown.
func VersionOf(module string, settings map[string]string) string {
	v, commit, date, modified := module, settings["vcs.revision"], settings["vcs.time"], settings["vcs.modified"] == "true"
	if m := pseudoVersion.FindStringSubmatch(module); m != nil {
		v = "dev"
		if commit == "" {
			commit = m[2]
			date = m[1][:4] + "-" + m[1][4:6] + "-" + m[1][6:8]
		}
		modified = modified || m[3] != ""
	}
	v = strings.TrimSuffix(v, "+dirty")
	if v == "" || v == "(devel)" {
		v = "dev"
	}
	var facts []string
	if commit != "" {
		facts = append(facts, "commit "+commit[:min(len(commit), 7)])
	}
	if len(date) >= 10 {
		facts = append(facts, date[:10])
	}
	if modified {
		facts = append(facts, "modified")
	}
	if len(facts) == 0 {
		return v
	}
	return v + " (" + strings.Join(facts, ", ") + ")"
}
