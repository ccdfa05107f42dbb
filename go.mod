module github.com/fuzzmin/fuzzmin

go 1.26
