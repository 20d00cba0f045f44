// Package fioengine runs the installed fio binary as an ioengine.Engine,
// locally or on several hosts through fio's client/server mode, and converts
// its JSON report (read by package fio) into ioengine.Stats.
package fioengine
