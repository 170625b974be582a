//go:build unix

package match

import (
	"os/exec"
	"syscall"
)

// isolate puts the engine in its own process group, so that a Ctrl-C in the
// terminal reaches only the match (which then stops its engines in order)
// and killGroup can also end whatever the engine started.
func isolate(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Process.Kill()
}
