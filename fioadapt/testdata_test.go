package fioadapt_test

// fioTestdata holds fio's recorded outputs, logs, job files and commands,
// shared with package fio's tests.
const fioTestdata = "../fio/testdata"
