package main

import "fmt"

// count writes n with the noun in the number it needs: "1 curve",
// "4 curves". plural is the noun's plural form.
func count(n int, singular, plural string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, singular)
	}
	return fmt.Sprintf("%d %s", n, plural)
}
