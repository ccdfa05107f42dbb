module github.com/fuzzmin/fuzzmin

go 1.26.0

require github.com/rogpeppe/go-internal v1.16.0

require (
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
)
