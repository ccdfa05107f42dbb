package campaignbench

import "strings"

// ParseNum reads a number; two bugs.
func ParseNum(s string) int {
	if len(s) > 3 && s[0] == '-' {
		panic("bug1")
	}
	if len(s) >= 6 && s[0] == '0' && s[1] == 'x' {
		if s[2] == 'd' {
			if s[3] == 'e' {
				if s[4] == 'a' {
					if s[5] == 'd' {
						panic("bug2")
					}
				}
			}
		}
	}
	return len(s)
}

// Header reads a file header; two bugs.
func Header(b []byte) string {
	if len(b) > 64 {
		panic("bug4")
	}
	if len(b) >= 4 && b[0] == 0x7f {
		if b[1] == 'E' {
			if b[2] == 'L' {
				if b[3] == 'F' {
					panic("bug3")
				}
			}
		}
	}
	return "data"
}

// Sum adds two counts.
func Sum(a, b int) int {
	if a > 0 && b > 0 && a+b < 0 {
		panic("bug5")
	}
	return a + b
}

// Words splits text into words.
func Words(s string) []string {
	if strings.Count(s, " ") >= 5 {
		if i := strings.IndexByte(s, 'y'); i >= 0 && i+1 < len(s) && s[i+1] == 'x' {
			panic("bug6")
		}
	}
	return strings.Fields(s)
}

// Port checks a port number.
func Port(n uint16) bool {
	if n == 31337 {
		panic("bug7")
	}
	return n > 1023
}

// Token checks a token.
func Token(s string) bool {
	if len(s) >= 6 && s[0] == 'F' {
		if s[1] == 'U' {
			if s[2] == 'Z' {
				if s[3] == 'Z' {
					if s[4] == 'M' {
						if s[5] == 'E' {
							panic("bug8")
						}
					}
				}
			}
		}
	}
	return len(s) > 0
}
