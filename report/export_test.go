package report

// Palette exposes the series colours to the black-box tests.
var Palette = palette
