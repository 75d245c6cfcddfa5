//go:build windows

package cli

import (
	"os"
	"os/exec"
	"syscall"
)

// detachAttr makes a child process independent of the console.
func detachAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// processAlive reports whether a process with pid exists.
func processAlive(pid int) bool {
	h, err := syscall.OpenProcess(syscall.SYNCHRONIZE|0x1000, false, uint32(pid)) // PROCESS_QUERY_LIMITED_INFORMATION
	if err != nil {
		return false
	}
	defer syscall.CloseHandle(h)
	ev, err := syscall.WaitForSingleObject(h, 0)
	return err == nil && ev == syscall.WAIT_TIMEOUT
}

// terminate stops a process; Windows has no SIGTERM to send.
func terminate(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}
