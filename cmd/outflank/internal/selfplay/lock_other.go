//go:build !unix

package selfplay

import "os"

// lock does nothing where flock is missing: one run per file is then the
// user's care.
func lock(*os.File) error { return nil }
