//go:build !linux

package main_test

import "syscall"

// killMarked is killMarked of Linux; elsewhere the server alone is killed.
func killMarked(string) {}

// dieWithTest is dieWithTest of Linux; elsewhere nothing is asked.
func dieWithTest() *syscall.SysProcAttr { return nil }
